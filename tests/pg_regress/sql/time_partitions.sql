-- Time-partitioned tables: PARTITION BY RANGE (id) at time boundaries (uuid_v7_lower_bound),
-- and natural time predicates that prune partitions at plan time (constants) and at run time
-- (parameters of a generic plan, now()), with no index anywhere. Rows always equal those of
-- the plan without the hook.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';
CREATE FUNCTION pg_temp.plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        -- Only the plan's shape: which partitions are scanned, and pruning.
        IF line ~ 'Seq Scan|Subplans Removed|Append|Result' THEN
            RETURN NEXT regexp_replace(line, '\s+$', '');
        END IF;
    END LOOP;
END $$;

-- docs/TIME_WINDOWS.md's recipe: monthly partitions for 2026 and a default one.
CREATE TABLE ev (id uuid NOT NULL, n int, CHECK (uuid_extract_version(id) = 7)) PARTITION BY RANGE (id);
DO $$
DECLARE
    m timestamptz;
BEGIN
    FOR m IN SELECT generate_series('2026-01-01 00:00+00'::timestamptz, '2026-12-01 00:00+00', '1 month') LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF ev FOR VALUES FROM (%L) TO (%L)',
                       'ev_' || to_char(m, 'YYYY_MM'), uuid_v7_lower_bound(m), uuid_v7_lower_bound(m + interval '1 month'));
    END LOOP;
END $$;
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2026-01-01 00:00+00'::timestamptz + i * interval '1 hour'), i
FROM generate_series(0, 365 * 24 - 1) i;
INSERT INTO ev VALUES (uuid_timestamptz_to_v7('2027-06-01 00:00+00'), -1);
ANALYZE ev;
SELECT tableoid::regclass AS partition, count(*), min(uuid_extract_timestamp(id)) AS first
FROM ev WHERE n % 1000 = 0 OR n < 0 GROUP BY 1 ORDER BY 3;

-- Plan time: a constant window scans the one partition it falls in.
SELECT * FROM pg_temp.plan($$SELECT count(*) FROM ev
    WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00' AND uuid_extract_timestamp(id) < '2026-03-06 00:00+00'$$);
SELECT count(*) AS march_5 FROM ev
WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00' AND uuid_extract_timestamp(id) < '2026-03-06 00:00+00';
-- Every extractor, and BETWEEN, = and open ends.
SELECT * FROM pg_temp.plan($$SELECT count(*) FROM ev WHERE uuid_v7_to_timestamptz(id) BETWEEN '2026-07-01 00:00+00' AND '2026-07-31 23:00+00'$$);
SELECT * FROM pg_temp.plan($$SELECT count(*) FROM ev WHERE uuid_ext_timestamp(id) = '2026-02-10 05:00+00'$$);
SELECT * FROM pg_temp.plan($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) > '2026-11-30 00:00+00'$$);

-- Run time: a generic plan's parameter, and now().
SET plan_cache_mode = force_generic_plan;
PREPARE day_of(timestamptz) AS SELECT count(*) FROM ev
WHERE uuid_extract_timestamp(id) >= $1 AND uuid_extract_timestamp(id) < $1 + interval '1 day';
SELECT * FROM pg_temp.plan($$EXECUTE day_of('2026-08-15 00:00+00')$$);
EXECUTE day_of('2026-08-15 00:00+00');
RESET plan_cache_mode;
SELECT bool_or(line ~ 'Subplans Removed: [0-9]+') AS pruned_at_run_time
FROM pg_temp.plan($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'$$) line;

-- The same rows as without the hook, for every query above and a few more.
CREATE TEMP TABLE windows (q text);
INSERT INTO windows VALUES
($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00' AND uuid_extract_timestamp(id) < '2026-03-06 00:00+00'$$),
($$SELECT count(*) FROM ev WHERE uuid_v7_to_timestamptz(id) BETWEEN '2026-07-01 00:00+00' AND '2026-07-31 23:00+00'$$),
($$SELECT count(*) FROM ev WHERE uuid_ext_timestamp(id) = '2026-02-10 05:00+00'$$),
($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) > '2026-11-30 00:00+00'$$),
($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) <= '2026-01-01 00:00+00'$$),
($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'$$),
($$SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= '2026-12-31 23:00+00'$$);
SELECT pg_temp.same_without_hook(q) AS same_rows_without_hook, count(*) FROM windows GROUP BY 1 ORDER BY 1;

-- Without a proof that the key holds v7 only, bytes do not follow time (a v1's time_low comes
-- first): the hook adds nothing, every partition is scanned, and the v1 is found.
CREATE TABLE mixed (id uuid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE mixed_2026 PARTITION OF mixed
    FOR VALUES FROM (uuid_v7_lower_bound('2026-01-01 00:00+00')) TO (uuid_v7_lower_bound('2027-01-01 00:00+00'));
CREATE TABLE mixed_default PARTITION OF mixed DEFAULT;
-- A v1 of 2026-03-05 11:00 UTC (Gregorian 100-ns count 0x1f11882743a7800, RFC 9562 §5.1 layout):
-- its first bytes are time_low, so it sorts far from the v7 values of that day.
INSERT INTO mixed VALUES (uuid_timestamptz_to_v7('2026-03-05 10:00+00'), 1), ('743a7800-1882-11f1-8001-020000000001', 2);
SELECT uuid_extract_version(id) AS version, uuid_extract_timestamp(id) AS at, tableoid::regclass AS partition
FROM mixed ORDER BY n;
SELECT * FROM pg_temp.plan($$SELECT count(*) FROM mixed WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00'$$);
SELECT count(*) AS both_found FROM mixed WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00';

-- With a primary key: PostgreSQL 16 and later list a partitioned table's own (partitioned)
-- indexes, which cannot be scanned and carry no sort information; the hook works on the
-- partitions' indexes only (a latest-20 read on such a table crashed the server on 18).
CREATE TABLE pk_ev (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int) PARTITION BY RANGE (id);
CREATE TABLE pk_ev_h1 PARTITION OF pk_ev
    FOR VALUES FROM (uuid_v7_lower_bound('2026-01-01 00:00+00')) TO (uuid_v7_lower_bound('2026-07-01 00:00+00'));
CREATE TABLE pk_ev_h2 PARTITION OF pk_ev
    FOR VALUES FROM (uuid_v7_lower_bound('2026-07-01 00:00+00')) TO (uuid_v7_lower_bound('2027-01-01 00:00+00'));
INSERT INTO pk_ev SELECT uuid_timestamptz_to_v7('2026-01-01 00:00+00'::timestamptz + i * interval '1 hour'), i
FROM generate_series(0, 365 * 24 - 1) i;
ANALYZE pk_ev;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE FUNCTION pg_temp.index_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Scan|Append|Limit' THEN
            RETURN NEXT regexp_replace(line, '\s+$', '');
        END IF;
    END LOOP;
END $$;
SELECT * FROM pg_temp.index_plan('SELECT id, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20');
SELECT * FROM pg_temp.index_plan($$SELECT id, n FROM pk_ev WHERE uuid_extract_timestamp(id) < '2026-10-01 00:00+00'
                                   ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50$$);
SELECT * FROM pg_temp.index_plan($$SELECT count(*) FROM pk_ev WHERE uuid_extract_timestamp(id) >= '2026-03-05 00:00+00'
                                   AND uuid_extract_timestamp(id) < '2026-03-06 00:00+00'$$);
CREATE TEMP TABLE pk_reads AS
SELECT (SELECT array_agg(n) FROM (SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20) s) AS latest,
       (SELECT array_agg(n) FROM (SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) < '2026-10-01 00:00+00'
                                  ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50) s) AS page;
SET uuid_ext.time_index_conditions = off;
SELECT latest = (SELECT array_agg(n) FROM (SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20) s) AS same_latest,
       page = (SELECT array_agg(n) FROM (SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) < '2026-10-01 00:00+00'
                                         ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50) s) AS same_page
FROM pk_reads;
RESET uuid_ext.time_index_conditions;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- Ordered reads of a partitioned table: where the key's order is the time's (CHECK
-- (uuid_is_v7(id)) over the tree), the partitions are appended one after another in time
-- order, as PostgreSQL appends those of a table partitioned by the time it sorts by. A
-- latest-20 read starts the newest partition's scan only (the older one is never executed),
-- where a Merge Append starts every partition's.
CREATE FUNCTION pg_temp.started(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        -- The plan's nodes, whether each was started, and run-time pruning.
        IF line ~ '->' OR line !~ '^\s' OR line ~ 'Subplans Removed' THEN
            RETURN NEXT regexp_replace(line, '\s*\(actual[^)]*\)|\s+$', '', 'g');
        END IF;
    END LOOP;
END $$;
SELECT * FROM pg_temp.started('SELECT id, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20');
SELECT * FROM pg_temp.started('SELECT id, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) LIMIT 20');
SELECT * FROM pg_temp.started($$SELECT id, n FROM pk_ev WHERE uuid_extract_timestamp(id) < '2026-10-01 00:00+00'
                                ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50$$);
-- A tie-breaker after the time: an incremental sort on the appended partitions.
SELECT * FROM pg_temp.started('SELECT id, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC, n LIMIT 20');
-- A generic plan: the partitions a parameter's window leaves out are pruned when it starts.
PREPARE pk_page(timestamptz) AS
SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) < $1 ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5;
SET plan_cache_mode = force_generic_plan;
SELECT * FROM pg_temp.started($$EXECUTE pk_page('2026-03-01 00:00+00')$$);
SELECT * FROM pg_temp.started($$EXECUTE pk_page('2026-09-01 00:00+00')$$);
-- Joined: the appended partitions feed the join in time order.
CREATE TEMP TABLE pick (k int PRIMARY KEY);
INSERT INTO pick SELECT generate_series(0, 9, 3);
ANALYZE pick;
SELECT * FROM pg_temp.started($$SELECT e.n FROM pk_ev e JOIN pick p ON p.k = e.n % 10
                                ORDER BY uuid_extract_timestamp(e.id) DESC LIMIT 5$$);
SELECT q, pg_temp.same_without_hook(q) FROM (VALUES
    ('SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20'),
    ('SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) LIMIT 20'),
    ('SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC, n LIMIT 20'),
    ('SELECT n FROM pk_ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 4400'),
    ($$SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) < '2026-10-01 00:00+00' ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50$$),
    ($$SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) >= '2026-06-30 22:00+00' ORDER BY uuid_extract_timestamp(id) LIMIT 5$$),
    ('SELECT e.n FROM pk_ev e JOIN pick p ON p.k = e.n % 10 ORDER BY uuid_extract_timestamp(e.id) DESC LIMIT 5'),
    ('SELECT n FROM (SELECT id, n FROM pk_ev WHERE n % 2 = 0 UNION ALL SELECT id, n FROM pk_ev WHERE n % 2 = 1) u ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5'),
    -- Set-returning functions in the output: evaluated above the partitions, or in each.
    ('SELECT generate_series(1, 2) g, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5'),
    ('SELECT generate_series(1, 2) g, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC, g LIMIT 5'),
    ('SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5 FOR UPDATE'),
    -- TABLESAMPLE reads a sample of the rows, never all of them (found by review: the index
    -- paths returned every row).
    ('SELECT n FROM pk_ev TABLESAMPLE BERNOULLI (10) REPEATABLE (1) ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5000'),
    ($$SELECT n FROM pk_ev TABLESAMPLE BERNOULLI (10) REPEATABLE (1) WHERE uuid_extract_timestamp(id) >= '2026-06-01 00:00+00' ORDER BY n$$)
) t(q);
-- The generic plan's rows, against the query written out without the hook (a prepared
-- statement keeps the plan it was given: without the hook it would run the hook's plan again).
SELECT d, pg_temp.result(format('EXECUTE pk_page(%L)', d))
          = pg_temp.result(format('SELECT n FROM pk_ev WHERE uuid_extract_timestamp(id) < %L
                                   ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5', d), false) AS generic_same_rows
FROM unnest('{2026-03-01 00:00+00,2026-07-01 02:00+00}'::timestamptz[]) d;
SELECT count(*) BETWEEN 600 AND 1200 AS a_sample
FROM (SELECT n FROM pk_ev TABLESAMPLE BERNOULLI (10) REPEATABLE (1) ORDER BY uuid_extract_timestamp(id) DESC LIMIT 5000) s;
RESET plan_cache_mode;
DEALLOCATE pk_page;

-- A partition that is itself partitioned takes part through its own ordered path.
CREATE TABLE sub_ev (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int) PARTITION BY RANGE (id);
CREATE TABLE sub_ev_h1 PARTITION OF sub_ev
    FOR VALUES FROM (uuid_v7_lower_bound('2026-01-01 00:00+00')) TO (uuid_v7_lower_bound('2026-07-01 00:00+00'));
CREATE TABLE sub_ev_h2 PARTITION OF sub_ev
    FOR VALUES FROM (uuid_v7_lower_bound('2026-07-01 00:00+00')) TO (uuid_v7_lower_bound('2027-01-01 00:00+00'))
    PARTITION BY RANGE (id);
CREATE TABLE sub_ev_q3 PARTITION OF sub_ev_h2
    FOR VALUES FROM (uuid_v7_lower_bound('2026-07-01 00:00+00')) TO (uuid_v7_lower_bound('2026-10-01 00:00+00'));
CREATE TABLE sub_ev_q4 PARTITION OF sub_ev_h2
    FOR VALUES FROM (uuid_v7_lower_bound('2026-10-01 00:00+00')) TO (uuid_v7_lower_bound('2027-01-01 00:00+00'));
INSERT INTO sub_ev SELECT id, n FROM pk_ev;
ANALYZE sub_ev;
SELECT * FROM pg_temp.started('SELECT id, n FROM sub_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20');
SELECT pg_temp.same_without_hook('SELECT n FROM sub_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20') AS same_desc,
       pg_temp.same_without_hook('SELECT n FROM sub_ev ORDER BY uuid_extract_timestamp(id) LIMIT 20') AS same_asc;

-- Not where the key's order is not the time's: without the v7 CHECK, v1 keys (time order in
-- uuid_time_ops indexes, none in byte order) are in every partition; their time-ordered
-- paths are merged.
CREATE TABLE v1_ev (id uuid PRIMARY KEY, n int) PARTITION BY RANGE (id);
CREATE TABLE v1_ev_lo PARTITION OF v1_ev FOR VALUES FROM (MINVALUE) TO ('80000000-0000-0000-0000-000000000000');
CREATE TABLE v1_ev_hi PARTITION OF v1_ev FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE);
CREATE INDEX ON v1_ev (id uuid_time_ops);
-- One v1 a second: its time_low (the first bytes) wraps every 7 minutes.
INSERT INTO v1_ev
SELECT uuid_v6_to_v1((lpad(to_hex(t >> 12), 12, '0') || '6' || lpad(to_hex(t & 4095), 3, '0')
                      || '8000' || lpad(to_hex(i), 12, '0'))::uuid), i
FROM (SELECT i, x'1EC9414C232AB00'::bigint + i * 10000000::bigint AS t FROM generate_series(1, 2000) i) s;
ANALYZE v1_ev;
SELECT count(*) FILTER (WHERE id < '80000000-0000-0000-0000-000000000000') AS low,
       count(*) FILTER (WHERE id >= '80000000-0000-0000-0000-000000000000') AS high FROM v1_ev;
SELECT * FROM pg_temp.started('SELECT id, n FROM v1_ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20');
SELECT pg_temp.same_without_hook('SELECT n FROM v1_ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20') AS same_desc,
       pg_temp.same_without_hook('SELECT n FROM v1_ev ORDER BY uuid_ext_timestamp(id) LIMIT 20') AS same_asc;

-- A uuid_time_ops partition key is time order for uuid_ext_timestamp(), v1 and v7 alike;
-- its untimed values are the greatest, where NULLS FIRST puts them for DESC.
CREATE TABLE tk (id uuid, n int) PARTITION BY RANGE (id uuid_time_ops);
CREATE TABLE tk_early PARTITION OF tk FOR VALUES FROM (MINVALUE) TO (uuid_time_lower_bound('2022-02-22 19:30+00'));
CREATE TABLE tk_late PARTITION OF tk FOR VALUES FROM (uuid_time_lower_bound('2022-02-22 19:30+00')) TO (MAXVALUE);
CREATE INDEX ON tk (id uuid_time_ops);
INSERT INTO tk SELECT id, n FROM v1_ev;
INSERT INTO tk SELECT uuid_timestamptz_to_v7('2022-02-22 19:00:00.5+00'::timestamptz + i * interval '1 second'), -i
FROM generate_series(1, 3000) i;
ANALYZE tk;
SELECT count(*) FILTER (WHERE uuid_extract_version(id) = 1) AS v1,
       count(*) FILTER (WHERE uuid_extract_version(id) = 7) AS v7,
       (SELECT count(*) FROM tk_early) AS early, (SELECT count(*) FROM tk_late) AS late FROM tk;
SELECT * FROM pg_temp.started('SELECT id, n FROM tk ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20');
SELECT * FROM pg_temp.started('SELECT id, n FROM tk ORDER BY uuid_ext_timestamp(id) LIMIT 20');
SELECT * FROM pg_temp.started('SELECT id, n FROM tk ORDER BY uuid_ext_timestamp(id) DESC NULLS LAST LIMIT 20');
SELECT pg_temp.same_without_hook('SELECT n FROM tk ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20') AS same_desc,
       pg_temp.same_without_hook('SELECT n FROM tk ORDER BY uuid_ext_timestamp(id) LIMIT 3100') AS same_asc;

-- Not with a default partition: its rows are in no order relative to the others'.
CREATE TABLE pk_ev_rest PARTITION OF pk_ev DEFAULT;
SELECT * FROM pg_temp.started('SELECT id, n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20');
SELECT pg_temp.same_without_hook('SELECT n FROM pk_ev ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20') AS same_desc;
DROP TABLE sub_ev, v1_ev, tk;
DROP TABLE ev, mixed, pk_ev;
