-- Time windows on UUID keys, served by the key's index (the planner hook; this server preloads
-- the library). For every supported extractor and comparison: the plan is an index scan, and
-- the rows are exactly those of a sequential scan without the hook, over mixed versions with
-- values on and around the millisecond and microsecond edges of the predicates.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';

-- v7 at every ms of 10 s from 2022-02-22 19:22:22 (A.6's instant), zero and random bits; v6
-- and v1 at 100-ns ticks just before, on and after each ms edge; v4, Nil, Max, a non-RFC
-- variant and NULL. 2022-02-22 19:22:22 is tick x'1EC9414C232AB00' (100 ns since 1582).
CREATE TABLE mixed (id uuid, label text);
INSERT INTO mixed
SELECT CASE k
         WHEN 0 THEN uuid_timestamptz_to_v7('2022-02-22 19:22:22+00'::timestamptz + i * interval '1 ms')
         WHEN 1 THEN uuid_timestamptz_to_v7('2022-02-22 19:22:22+00'::timestamptz + i * interval '1 ms', true)
         WHEN 2 THEN v6
         ELSE uuid_v6_to_v1(v6)
       END, 'k' || k
FROM generate_series(0, 9999) i, generate_series(0, 3) k,
     LATERAL (SELECT (lpad(to_hex(t >> 12), 12, '0') || '6' || lpad(to_hex(t & 4095), 3, '0')
                      || '8' || lpad(to_hex(i), 15, '0'))::uuid AS v6
              FROM (SELECT x'1EC9414C232AB00'::bigint + i * 10000 + (ARRAY[-1, 0, 1, 9, 10])[1 + (i + k) % 5] AS t) s) g;
INSERT INTO mixed SELECT uuid_generate_v4(), 'v4' FROM generate_series(1, 1000);
INSERT INTO mixed VALUES (uuid_nil(), 'nil'), (uuid_max(), 'max'), (NULL, 'null'),
                         ('017f22e2-8d38-7cc3-d8c4-dc0c0c07398f', 'v7 bits, Microsoft variant');
CREATE INDEX mixed_time ON mixed (id uuid_time_ops);
ANALYZE mixed;

-- For one query: how the planner runs it (hook on, sequential scans discouraged: an index with
-- the window's range as its condition, or a whole index where the window keeps every row), and
-- whether its rows equal those of a sequential scan without the hook (rows missing either way).
CREATE FUNCTION pg_temp.served(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
    rows bigint;
    differing bigint;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    EXECUTE 'CREATE TEMP TABLE via_index ON COMMIT DROP AS ' || q;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('uuid_ext.time_index_conditions', 'off', true);
    EXECUTE 'CREATE TEMP TABLE via_seqscan ON COMMIT DROP AS ' || q;
    SELECT count(*) INTO rows FROM via_seqscan;
    SELECT count(*) INTO differing FROM ((TABLE via_index EXCEPT ALL TABLE via_seqscan)
                                         UNION ALL (TABLE via_seqscan EXCEPT ALL TABLE via_index)) d;
    DROP TABLE via_index, via_seqscan;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'on', true);
    PERFORM set_config('enable_bitmapscan', 'on', true);
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN CASE WHEN plan ~ 'Index Cond' THEN 'index' WHEN plan ~ 'Seq Scan' THEN 'seq scan'
                WHEN plan ~ 'Index' THEN 'whole index'
                WHEN plan ~ 'One-Time Filter: false' THEN 'no scan (always false)' ELSE plan END
           || ', ' || rows || ' rows, ' || differing || ' differing';
END $$;

-- uuid_time_ops: every extractor, every comparison, either way round, BETWEEN; edges on a ms
-- (19:22:27) and inside one (19:22:27.0005).
SELECT f, p, pg_temp.served(format('SELECT id, label FROM mixed WHERE ' || p, f)) AS result
FROM unnest(ARRAY['uuid_extract_timestamp', 'uuid_ext_timestamp', 'uuid_v7_to_timestamptz']) f,
     unnest(ARRAY['%s(id) >= ''2022-02-22 19:22:27+00''',
                  '%s(id) > ''2022-02-22 19:22:27+00''',
                  '%s(id) < ''2022-02-22 19:22:27+00''',
                  '%s(id) <= ''2022-02-22 19:22:27+00''',
                  '%s(id) = ''2022-02-22 19:22:27+00''',
                  '%s(id) >= ''2022-02-22 19:22:27.0005+00''',
                  '%s(id) <= ''2022-02-22 19:22:27.0005+00''',
                  '''2022-02-22 19:22:27+00'' < %s(id)',
                  '%s(id) BETWEEN ''2022-02-22 19:22:25+00'' AND ''2022-02-22 19:22:27.0005+00''']) p
ORDER BY f, p;

-- Bounds of every kind: stable expressions, infinities, NULL, parameters (a generic plan).
SELECT p, pg_temp.served('SELECT id FROM mixed WHERE ' || p) AS result
FROM unnest(ARRAY[
    $$uuid_extract_timestamp(id) >= '2022-02-22 19:22:22+00'::timestamptz + interval '9 seconds'$$,
    $$uuid_ext_timestamp(id) >= now() - interval '1 hour'$$,
    $$uuid_ext_timestamp(id) < 'infinity'$$,
    $$uuid_ext_timestamp(id) > '-infinity'$$,
    $$uuid_ext_timestamp(id) >= 'infinity'$$,
    $$uuid_ext_timestamp(id) >= NULL::timestamptz$$,
    $$uuid_ext_timestamp(id) >= '2022-02-22 19:22:30+00' AND label <> 'k2'$$]) p;
PREPARE recent(timestamptz) AS SELECT count(*) FROM mixed WHERE uuid_extract_timestamp(id) >= $1;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) EXECUTE recent('2022-02-22 19:22:31+00');
RESET enable_seqscan;
EXECUTE recent('2022-02-22 19:22:31+00');
RESET plan_cache_mode;
SELECT count(*) AS seq_scan_count FROM mixed WHERE uuid_extract_timestamp(id) >= '2022-02-22 19:22:31+00';

-- The plain primary key (uuid_ops, byte order): for uuid_v7_to_timestamptz (v7 only) always;
-- for the others only where a CHECK confines the column to v7 — never where a v1 could match
-- outside the byte range (the v1 below does: its time is in the window, its bytes are not).
CREATE TABLE keys (id uuid PRIMARY KEY, label text);
INSERT INTO keys SELECT id, label FROM mixed WHERE uuid_extract_version(id) = 7;
INSERT INTO keys VALUES ('ffffffff-9413-11ec-b3c8-9f6bdeced846', 'v1 with a high time_low');
CREATE TABLE v7_keys (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7), label text);
INSERT INTO v7_keys SELECT id, label FROM keys WHERE uuid_extract_version(id) = 7;
ANALYZE keys, v7_keys;
SELECT t, f, pg_temp.served(format('SELECT id, label FROM %s WHERE %s(id) >= %L AND %s(id) < %L',
                                   t, f, '2022-02-22 19:22:25+00', f, '2022-02-22 19:22:27.0005+00')) AS result
FROM unnest(ARRAY['keys', 'v7_keys']) t,
     unnest(ARRAY['uuid_extract_timestamp', 'uuid_ext_timestamp', 'uuid_v7_to_timestamptz']) f
ORDER BY t, f;
-- (On PostgreSQL 17 with pg_catalog first, core's v1-only uuid_extract_timestamp would be
-- called; the suite runs 17 with the README's search_path, so every major answers alike.)
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM v7_keys WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
RESET enable_seqscan;

-- Nothing else changes: queries without such predicates plan exactly as with the hook off;
-- so do predicates under OR, on columns without a usable index, and volatile bounds. (Under
-- NOT, a comparison is a window too: PostgreSQL turns NOT (f(id) < X) into f(id) >= X.)
SELECT q, NOT pg_temp.hook_acted(q) AS same_plan
FROM unnest(ARRAY[
    $$SELECT * FROM mixed WHERE id = '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'$$,
    $$SELECT * FROM mixed m JOIN keys k USING (id) WHERE m.label = 'k0'$$,
    $$SELECT count(*) FROM mixed WHERE label LIKE 'v%'$$,
    $$SELECT * FROM mixed WHERE uuid_extract_timestamp(id) >= now() OR label = 'nil'$$,
    $$SELECT * FROM keys WHERE uuid_extract_timestamp(id) >= now()$$,
    $$SELECT * FROM mixed WHERE uuid_extract_timestamp(id) >= clock_timestamp() - random() * interval '1 day'$$,
    $$SELECT * FROM mixed m JOIN keys k ON uuid_extract_timestamp(m.id) >= uuid_extract_timestamp(k.id)$$]) q;

-- Subqueries, CTEs and views are rewritten too.
CREATE VIEW recent_mixed AS SELECT * FROM mixed WHERE uuid_ext_timestamp(id) >= '2022-02-22 19:22:31+00';
SELECT pg_temp.served('SELECT * FROM recent_mixed') AS via_view,
       pg_temp.served('WITH w AS MATERIALIZED (SELECT * FROM mixed WHERE uuid_ext_timestamp(id) > ''2022-02-22 19:22:31+00'') SELECT * FROM w') AS via_cte,
       pg_temp.served('SELECT * FROM keys WHERE label IN (SELECT label FROM mixed WHERE uuid_v7_to_timestamptz(id) < ''2022-02-22 19:22:22.5+00'')') AS via_sublink;

DROP VIEW recent_mixed;
DROP TABLE mixed, keys, v7_keys;
