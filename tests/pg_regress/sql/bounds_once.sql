-- Bounds computed once per execution (src/planner/initplan_bounds.rs): where the pruning rewrite puts a
-- window's range in a partition's filter, the bound is an InitPlan parameter rather than a call
-- per row. Every plan shape that runs such a parameter — serial, parallel (Gather, Gather Merge,
-- a Gather over the whole plan), generic plans, cursors, UPDATE and DELETE, EXPLAIN ANALYZE,
-- errors — returns the rows of the plan without the hook; a bound that changes during the
-- execution (a correlated subquery's, a LATERAL one's) stays a call.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';
CREATE TABLE ev (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int) PARTITION BY RANGE (id);
DO $$
DECLARE
    q timestamptz;
BEGIN
    FOR q IN SELECT generate_series('2026-01-01 00:00+00'::timestamptz, '2026-10-01 00:00+00', '3 months') LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF ev FOR VALUES FROM (%L) TO (%L)',
                       'ev_' || to_char(q, 'YYYY_MM'), uuid_v7_lower_bound(q), uuid_v7_lower_bound(q + interval '3 months'));
    END LOOP;
END $$;
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2026-01-01 00:00+00'::timestamptz + i * interval '1 hour'), i
FROM generate_series(0, 365 * 24 - 1) i;
ANALYZE ev;
-- Sequential scans of the partitions, so the range is a filter.
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;

CREATE FUNCTION pg_temp.plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
END $$;
-- What the plan's filters hold: calls of a bound function, parameters, InitPlans.
CREATE FUNCTION pg_temp.filters(q text, run boolean DEFAULT false)
RETURNS TABLE (bound_calls int, params int, init_plans int, computed_once boolean) LANGUAGE plpgsql AS $$
DECLARE
    line text;
    after_init boolean := false;
BEGIN
    bound_calls := 0; params := 0; init_plans := 0; computed_once := true;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF' || CASE WHEN run THEN ', ANALYZE, TIMING OFF, SUMMARY OFF' ELSE '' END
                        || ') ' || q LOOP
        IF line ~ 'Filter:' AND line ~ '_bound\(' THEN
            bound_calls := bound_calls + 1;
        END IF;
        IF line ~ 'Filter:' AND line ~ '\$[0-9]+|\(InitPlan [^)]+\)\.col1' THEN
            params := params + 1;
        END IF;
        IF line ~ '^\s*InitPlan' THEN
            init_plans := init_plans + 1;
            after_init := true;
        ELSIF after_init AND run THEN
            -- The InitPlan's Result ran once (or never, where no row needed it).
            computed_once := computed_once AND line ~ 'loops=1\)|never executed';
            after_init := false;
        END IF;
    END LOOP;
    RETURN NEXT;
END $$;

-- A stable bound over three partitions (`now() - now()` keeps it from being a constant): one
-- parameter for all their filters, one InitPlan.
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$);
-- Both ends: two.
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())
      AND uuid_extract_timestamp(id) < '2026-08-01 00:00+00'::timestamptz + (now() - now())$$);
-- Run: the InitPlans ran once each.
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())
      AND uuid_extract_timestamp(id) < '2026-08-01 00:00+00'::timestamptz + (now() - now())$$, true);
-- The hook off: PostgreSQL's own plan, the window a filter, nothing of ours.
SET uuid_ext.time_index_conditions = off;
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$);
RESET uuid_ext.time_index_conditions;

-- The same rows as without the hook, serial and parallel.
CREATE TEMP TABLE windows (q text);
INSERT INTO windows VALUES
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) > '2026-05-01 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) <= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) = '2026-05-01 07:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) BETWEEN '2026-02-01 00:00+00'::timestamptz + (now() - now())
                                                                         AND '2026-11-15 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '30 days'$$),
($$SELECT n FROM ev WHERE uuid_extract_timestamp(id) >= '2026-12-30 00:00+00'::timestamptz + (now() - now()) ORDER BY n$$),
($$SELECT n FROM ev WHERE uuid_extract_timestamp(id) >= '2026-03-01 00:00+00'::timestamptz + (now() - now()) ORDER BY n LIMIT 5$$),
-- The bound of a correlated subquery and of a LATERAL one changes with the outer row.
($$SELECT d, (SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= d AND uuid_extract_timestamp(id) < d + interval '1 day')
  FROM unnest('{2026-02-01 00:00+00,2026-06-30 12:00+00,2026-12-31 20:00+00}'::timestamptz[]) d ORDER BY d$$),
($$SELECT d, c FROM unnest('{2026-02-01 00:00+00,2026-06-30 12:00+00,2026-12-31 20:00+00}'::timestamptz[]) d,
  LATERAL (SELECT count(*) AS c FROM ev WHERE uuid_extract_timestamp(id) >= d - interval '2 days') l ORDER BY d$$),
-- A user's own bound call in HAVING, of an aggregate: not the hook's, never a parameter (it
-- was made one, and failed with XX000 "Aggref found in non-Agg plan node"; found by review).
($$SELECT 1 FROM ev WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())
  HAVING uuid_v7_lower_bound(now() - count(*) * interval '1 second') > '00000000-0000-0000-0000-000000000000'$$),
-- Joined with itself: the bound in both sides' filters.
($$SELECT count(*) FROM ev a JOIN ev b ON a.n = b.n + 1
  WHERE uuid_extract_timestamp(a.id) >= '2026-09-01 00:00+00'::timestamptz + (now() - now())
    AND uuid_extract_timestamp(b.id) >= '2026-09-01 00:00+00'::timestamptz + (now() - now())$$);
SELECT pg_temp.same_without_hook(q) AS same_rows_without_hook, count(*) FROM windows GROUP BY 1 ORDER BY 1;
-- Another InitPlan of the level computing the same bound is never taken for the hook's own: a
-- CTE's, an ARRAY() sublink's, one with a condition of its own (found by review: wrong rows,
-- and a CTE's internal parameter read as a uuid); and min()/max() read through an index,
-- whose level PostgreSQL plans apart, below a Limit, plans as it does without the hook (found
-- by review: "plan should not reference subplan's variable").
CREATE INDEX ev_n ON ev (n);
SELECT pg_temp.same_without_hook(q) AS same_rows_without_hook, count(*) FROM (VALUES
($$WITH c AS MATERIALIZED (SELECT uuid_v7_lower_bound('2026-08-01 00:00+00'::timestamptz + (now() - now())) AS b)
  SELECT count(*), (SELECT b FROM c) IS NOT NULL FROM ev
  WHERE uuid_extract_timestamp(id) >= '2026-08-01 00:00+00'::timestamptz + (now() - now())$$),
($$WITH c AS MATERIALIZED (SELECT uuid_v7_lower_bound('2026-08-01 00:00+00'::timestamptz + (now() - now())) AS b)
  SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= '2026-08-01 00:00+00'::timestamptz + (now() - now())
  AND (true OR EXISTS (SELECT FROM c))$$),
($$SELECT count(*), cardinality(ARRAY(SELECT uuid_v7_lower_bound('2026-08-01 00:00+00'::timestamptz + (now() - now())))) FROM ev
  WHERE uuid_extract_timestamp(id) >= '2026-08-01 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT count(*), (SELECT uuid_v7_lower_bound('2026-08-01 00:00+00'::timestamptz + (now() - now())) WHERE false) FROM ev
  WHERE uuid_extract_timestamp(id) >= '2026-08-01 00:00+00'::timestamptz + (now() - now())$$),
($$SELECT max(n), min(n) FROM ev WHERE uuid_extract_timestamp(id) >= '2026-08-01 00:00+00'::timestamptz + (now() - now())$$)
) v(q) GROUP BY 1 ORDER BY 1;
DROP INDEX ev_n;
-- Parallel plans: a Gather (and a Gather Merge) computes the parameter for its workers.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
-- (Before 17, EXPLAIN lists them under the Gather as "Params Evaluated".)
SELECT bool_or(line ~ 'Gather') AS parallel
FROM pg_temp.plan_lines($$SELECT count(*), sum(n) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '30 days'$$) line;
SELECT bool_or(line ~ 'Gather Merge') AS gather_merge
FROM pg_temp.plan_lines($$SELECT n FROM ev WHERE uuid_extract_timestamp(id) >= '2026-03-01 00:00+00'::timestamptz + (now() - now())
                          ORDER BY n$$) line;
-- (Read in one statement each, as EXPLAIN plans them: most in parallel.)
SELECT count(*) FILTER (WHERE pg_temp.verbose_plan(q, true) ~ 'Gather') AS parallel_plans FROM windows;
SELECT pg_temp.same_without_hook(q, parallel => true) AS same_rows_without_hook_in_parallel, count(*)
FROM windows GROUP BY 1 ORDER BY 1;
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$, true);
-- A Gather over the whole plan (debug_parallel_query, force_parallel_mode before 16).
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, 'on', false) IS NOT NULL AS forced;
-- (Parallel scans costed as usual again, so the forced Gather is the plan's only one; workers
-- must be allowed for it to be added at all.)
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- PostgreSQL adds it over a plan with parallel-safe InitPlans from 17 on (14 and 15 count every
-- InitPlan parallel-restricted; 16 adds none over InitPlans), the hook's as its own.
SELECT count(*) FILTER (WHERE pg_temp.verbose_plan(q, true) ~ 'Single Copy: true')
       = CASE WHEN current_setting('server_version_num')::int >= 170000 THEN 10 ELSE 0 END AS under_one_gather
FROM windows;
SELECT pg_temp.same_without_hook(q, parallel => true) AS same_rows_under_one_gather, count(*)
FROM windows GROUP BY 1 ORDER BY 1;
-- A user's own bound call in a filter stays a call, computed only for the rows that reach it:
-- here none, so its division by zero is never computed, with the hook as without it (a Gather
-- computes the parameters it sends before any row is read; found by review).
SET plan_cache_mode = force_generic_plan;
PREPARE own(int) AS SELECT n FROM ev
WHERE uuid_extract_timestamp(id) >= '2026-12-01 00:00+00'::timestamptz + (now() - now())
  AND n < 0 AND n::text::uuid >= uuid_v7_lower_bound(now() - interval '1 day' * (1 / $1));
SELECT pg_temp.err('EXECUTE own(0)') AS hook_on;
SET uuid_ext.time_index_conditions = off;
SELECT pg_temp.err('EXECUTE own(0)') AS hook_off;
RESET uuid_ext.time_index_conditions;
DEALLOCATE own;
RESET plan_cache_mode;
-- The Gather that debug_parallel_query = regress hides in EXPLAIN is not kept over a plan with
-- the hook's InitPlans (PostgreSQL adds none over a plan with its own): EXPLAIN shows them, and
-- names the parameter they set (found by review: hidden under that Gather, an assertion in
-- assert-enabled builds of 17 and later).
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, 'regress', false) IS NOT NULL AS forced_hidden;
SELECT * FROM pg_temp.filters($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-05-01 00:00+00'::timestamptz + (now() - now())$$);
SELECT pg_temp.same_without_hook(q, parallel => true) AS same_rows_hidden_gather, count(*)
FROM windows GROUP BY 1 ORDER BY 1;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, 'off', false) IS NOT NULL AS unforced;
RESET max_parallel_workers_per_gather;

-- A generic plan computes its parameters' bounds anew at each execution.
SET plan_cache_mode = force_generic_plan;
PREPARE span(timestamptz, interval) AS SELECT count(*), sum(n) FROM ev
WHERE uuid_extract_timestamp(id) >= $1 AND uuid_extract_timestamp(id) < $1 + $2;
SELECT * FROM pg_temp.filters($$EXECUTE span('2026-05-01 00:00+00', '60 days')$$);
CREATE TEMP TABLE spans AS
SELECT s, i FROM (VALUES ('2026-05-01 00:00+00'::timestamptz, '60 days'::interval),
                         ('2026-01-01 00:00+00', '1 hour'), ('2026-12-31 22:00+00', '1 year'),
                         ('2025-01-01 00:00+00', '1 day')) v(s, i);
CREATE FUNCTION pg_temp.span_rows(s timestamptz, i interval) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    EXECUTE format('EXECUTE span(%L, %L)', s, i) INTO r;
    RETURN r::text;
END $$;
CREATE TEMP TABLE span_hooked AS SELECT s, i, pg_temp.span_rows(s, i) AS r FROM spans;
SET uuid_ext.time_index_conditions = off;
DEALLOCATE span;
PREPARE span(timestamptz, interval) AS SELECT count(*), sum(n) FROM ev
WHERE uuid_extract_timestamp(id) >= $1 AND uuid_extract_timestamp(id) < $1 + $2;
SELECT count(*) AS executions, count(*) FILTER (WHERE r = pg_temp.span_rows(s, i)) AS same_rows_without_hook
FROM span_hooked;
RESET uuid_ext.time_index_conditions;
DEALLOCATE span;
RESET plan_cache_mode;

-- A cursor, read forwards and backwards.
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT n FROM ev
WHERE uuid_extract_timestamp(id) >= '2026-12-31 20:00+00'::timestamptz + (now() - now()) ORDER BY n;
FETCH 2 FROM c;
FETCH BACKWARD 1 FROM c;
FETCH LAST FROM c;
COMMIT;

-- UPDATE and DELETE under such a window change the rows the plain query would.
CREATE FUNCTION pg_temp.changed(hook boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    updated bigint;
    deleted bigint;
    after text;
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', hook::text, true);
    UPDATE ev SET n = -n WHERE uuid_extract_timestamp(id) >= '2026-11-15 00:00+00'::timestamptz + (now() - now());
    GET DIAGNOSTICS updated = ROW_COUNT;
    DELETE FROM ev WHERE uuid_extract_timestamp(id) < '2026-02-01 00:00+00'::timestamptz + (now() - now());
    GET DIAGNOSTICS deleted = ROW_COUNT;
    SELECT md5(string_agg(n::text, ',' ORDER BY id)) INTO after FROM ev;
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RAISE EXCEPTION 'rolled back' USING DETAIL = updated || ' ' || deleted || ' ' || after;
EXCEPTION WHEN raise_exception THEN
    GET STACKED DIAGNOSTICS after = PG_EXCEPTION_DETAIL;
    RETURN after;
END $$;
SELECT * FROM pg_temp.filters($$UPDATE ev SET n = -n
    WHERE uuid_extract_timestamp(id) >= '2026-11-15 00:00+00'::timestamptz + (now() - now())$$);
SELECT pg_temp.changed(true) = pg_temp.changed(false) AS same_changes_without_hook,
       split_part(pg_temp.changed(true), ' ', 1) AS updated, split_part(pg_temp.changed(true), ' ', 2) AS deleted;
SELECT count(*) AS unchanged FROM ev;

-- A bound that fails fails the same way, with the hook and without it.
SELECT pg_temp.err($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() + interval '300000 years'$$) AS hook_on;
SET uuid_ext.time_index_conditions = off;
SELECT pg_temp.err($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() + interval '300000 years'$$) AS hook_off;
RESET uuid_ext.time_index_conditions;
DROP TABLE ev;
