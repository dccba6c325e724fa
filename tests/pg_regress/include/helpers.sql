-- Helpers the pg_regress files share: \i tests/pg_regress/include/helpers.sql (a path from the
-- repository root, where scripts/test.sh and regress.sh run pg_regress; again after each \c, as
-- pg_temp belongs to the session). Not a test file itself: sql/ holds those.

-- A statement's outcome: 'ok', or SQLSTATE: message, then its DETAIL and HINT when it has them.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
    hint text;
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ': ' || SQLERRM || coalesce(nullif(' | DETAIL: ' || detail, ' | DETAIL: '), '')
           || coalesce(nullif(' | HINT: ' || hint, ' | HINT: '), '');
END $$;

-- The rows of a query, in the order it returns them, as their number and one md5, with the
-- planner hook on (default) or off (uuid_ext.time_index_conditions). Read row by row (a
-- PL/pgSQL FOR loop, through a cursor, which PostgreSQL never plans in parallel); or, with
-- `parallel`, a SELECT in one statement, which runs as the plan EXPLAIN shows, parallel ones
-- too, and whose rows are then compared in no order (a parallel plan returns them in any).
CREATE FUNCTION pg_temp.result(q text, hook boolean DEFAULT true, parallel boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n bigint := 0;
    out text := '';
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', hook::text, true);
    IF parallel THEN
        EXECUTE format('SELECT count(*), coalesce(string_agg(r::text, %L ORDER BY r::text), %L) FROM (%s) r', ';', '', q)
        INTO n, out;
    ELSE
        FOR r IN EXECUTE q LOOP
            out := out || r::text || ';';
            n := n + 1;
        END LOOP;
    END IF;
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN n || ' rows ' || md5(out);
END $$;

-- A query with the hook and without it: 'same rows, hook acted' when it returns rows, the same
-- in the same order both ways, and its plan differs without the hook (an equality of results
-- proves nothing when the hook did not act, or when there are no rows to compare): anything
-- else says which of the three failed. With `parallel`, the rows as result() reads them so.
CREATE FUNCTION pg_temp.same_without_hook(q text, parallel boolean DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    with_hook text := pg_temp.result(q, true, parallel);
BEGIN
    RETURN CASE WHEN with_hook <> pg_temp.result(q, false, parallel) THEN 'different rows'
                WHEN with_hook LIKE '0 rows %' THEN 'no rows'
                WHEN NOT pg_temp.hook_acted(q) THEN 'same rows, hook idle'
                ELSE 'same rows, hook acted' END;
END $$;

-- A query's EXPLAIN (VERBOSE) text with the planner hook on or off; with costs and row
-- estimates, or (default) without them.
CREATE FUNCTION pg_temp.verbose_plan(q text, hook boolean, costs boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', hook::text, true);
    FOR line IN EXECUTE format('EXPLAIN (COSTS %s, VERBOSE) ', CASE WHEN costs THEN 'ON' ELSE 'OFF' END) || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN plan;
END $$;

-- Whether the hook changed a query's plan (its EXPLAIN VERBOSE text differs without it).
CREATE FUNCTION pg_temp.hook_acted(q text) RETURNS boolean LANGUAGE sql AS $$
    SELECT pg_temp.verbose_plan(q, true) <> pg_temp.verbose_plan(q, false)
$$;
