-- Time-partitioned tables: PARTITION BY RANGE (id) at time boundaries (uuid_v7_lower_bound),
-- and natural time predicates that prune partitions at plan time (constants) and at run time
-- (parameters of a generic plan, now()), with no index anywhere. Rows always equal those of
-- the plan without the hook.
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

-- The README's recipe: monthly partitions for 2026 and a default one.
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
CREATE FUNCTION pg_temp.count_of(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    c bigint;
BEGIN
    EXECUTE q INTO c;
    RETURN c;
END $$;
CREATE TEMP TABLE hooked AS SELECT q, pg_temp.count_of(q) AS rows FROM windows;
SET uuid_ext.time_index_conditions = off;
SELECT count(*) AS windows, count(*) FILTER (WHERE h.rows = pg_temp.count_of(h.q)) AS same_rows_without_hook
FROM hooked h;
RESET uuid_ext.time_index_conditions;

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
DROP TABLE ev, mixed, pk_ev;
