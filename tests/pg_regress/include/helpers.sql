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

-- The rows of a query, in the order it returns them, as one md5, with the planner hook on
-- (default) or off (uuid_ext.time_index_conditions).
CREATE FUNCTION pg_temp.result(q text, hook boolean DEFAULT true) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    out text := '';
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', hook::text, true);
    FOR r IN EXECUTE q LOOP
        out := out || r::text || ';';
    END LOOP;
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN md5(out);
END $$;

-- Whether a query returns the same rows, in the same order, with the hook and without it.
CREATE FUNCTION pg_temp.same_without_hook(q text) RETURNS boolean LANGUAGE sql AS $$
    SELECT pg_temp.result(q, true) = pg_temp.result(q, false)
$$;

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
