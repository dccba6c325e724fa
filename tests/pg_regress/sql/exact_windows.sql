-- Exact windows and ordered reads on a byte-order key. CHECK (uuid_is_v7(id)) proves every
-- key is an RFC 9562 v7: the hook then replaces a time predicate by the key's byte range (the
-- extractor runs on no row; count(*) is an index-only scan) and reads ORDER BY time from the
-- primary key. CHECK (uuid_extract_version(id) = 7) does not prove it (a value of another
-- variant passes): there the predicate stays and the order is sorted.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';
-- uuid_ext's extractors first on every major (17's core uuid_extract_timestamp reads v1 only).
SET search_path = public, pg_catalog;
CREATE FUNCTION pg_temp.plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    out text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        out := out || regexp_replace(regexp_replace(line, '^\s*(->\s*)?', ''), '''[0-9a-f-]{36}''::uuid', 'BOUND', 'g') || '; ';
    END LOOP;
    RETURN out;
END $$;

-- uuid_is_v7() is true or false, never NULL for a value.
SELECT uuid_is_v7('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS a6_v7,
       uuid_is_v7('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f') AS other_variant,
       uuid_is_v7('919108f7-52d1-4320-9bac-f847db4148a8') AS v4,
       uuid_is_v7(uuid_nil()) AS nil, uuid_is_v7(uuid_max()) AS max, uuid_is_v7(NULL) IS NULL AS null_in_null_out;

-- 100,000 v7 keys a minute apart, some with microseconds (edges inside a millisecond).
CREATE TABLE k (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int);
INSERT INTO k SELECT uuid_timestamptz_to_v7('2026-01-01 00:00+00'::timestamptz + i * interval '1 minute'
                                            + (i % 7) * interval '123 microseconds'), i
FROM generate_series(0, 99999) i;
INSERT INTO k VALUES ('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f', -1);   -- another variant: refused
\echo :LAST_ERROR_SQLSTATE
VACUUM ANALYZE k;

-- The window replaces the predicate: no extractor left, an index-only scan for count(*).
SELECT pg_temp.plan($$SELECT count(*) FROM k WHERE uuid_extract_timestamp(id) >= '2026-02-01 00:00+00'
                                               AND uuid_extract_timestamp(id) < '2026-02-02 00:00+00'$$) AS one_day;
SELECT pg_temp.plan($$SELECT n FROM k WHERE uuid_v7_to_timestamptz(id) = '2026-02-01 00:00+00'$$) AS equality;
-- ... and the rows are those of the plain plan, at every edge.
CREATE TEMP TABLE windows (q text);
INSERT INTO windows
SELECT format('SELECT count(*), sum(n) FROM k WHERE %s(id) %s %L', f, op, x)
FROM unnest(ARRAY['uuid_extract_timestamp', 'uuid_ext_timestamp', 'uuid_v7_to_timestamptz']) f,
     unnest(ARRAY['<', '<=', '=', '>=', '>']) op,
     unnest(ARRAY['2026-01-10 00:00+00', '2026-01-10 00:00:00.000246+00', '2026-01-10 00:00:00.001+00',
                  '2026-01-10 00:00:00.000999+00', '2026-03-01 12:34:00.000123+00', '-infinity', 'infinity',
                  '1969-12-31 23:59:59+00', '2030-01-01 00:00+00']) x;
INSERT INTO windows VALUES
($$SELECT count(*) FROM k WHERE uuid_extract_timestamp(id) BETWEEN '2026-01-05 00:00+00' AND '2026-01-05 00:10:00.000492+00'$$),
($$SELECT count(*) FROM k WHERE uuid_extract_timestamp(id) >= now() - interval '400 days'$$),
($$SELECT count(*) FROM k WHERE uuid_extract_timestamp(id) >= NULL::timestamptz$$),
($$SELECT count(*) FROM k a JOIN k b ON uuid_extract_timestamp(b.id) >= '2026-03-01 00:00+00' AND b.n = a.n WHERE a.n < 100000$$),
($$SELECT count(*) FROM k a LEFT JOIN k b ON b.n = a.n AND uuid_extract_timestamp(b.id) < '2026-01-02 00:00+00' WHERE b.n IS NULL$$);
-- (Sequential scans off: a wide window is read faster so, and the hook's range, whose edges
-- are what these windows test, would not be read at all.)
SET enable_seqscan = off;
CREATE TEMP TABLE window_outcomes AS SELECT q, pg_temp.same_without_hook(q) AS outcome FROM windows;
RESET enable_seqscan;
SELECT outcome AS same_rows_as_plain, count(*) FROM window_outcomes GROUP BY 1 ORDER BY 1;
SELECT q AS hook_idle FROM window_outcomes WHERE outcome = 'same rows, hook idle';

-- Ordered reads from the primary key, in the NULLS placement it gives (the time is NULL only for
-- a NULL key); another placement is sorted, as without the hook (the two orders 'hook idle').
SELECT pg_temp.plan('SELECT id FROM k ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20') AS latest_20,
       pg_temp.plan('SELECT n FROM k ORDER BY uuid_v7_to_timestamptz(id) LIMIT 20') AS oldest_20;
SELECT pg_temp.plan($$SELECT n FROM k WHERE uuid_extract_timestamp(id) < '2026-02-01 00:00+00'
                      ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50$$) AS keyset_page;
CREATE TEMP TABLE orders (q text);
INSERT INTO orders VALUES
('SELECT uuid_extract_timestamp(id) FROM k ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20'),
('SELECT uuid_extract_timestamp(id) FROM k ORDER BY uuid_extract_timestamp(id) LIMIT 20'),
('SELECT uuid_extract_timestamp(id) FROM k ORDER BY uuid_extract_timestamp(id) NULLS FIRST LIMIT 20'),
('SELECT uuid_ext_timestamp(id) FROM k ORDER BY uuid_ext_timestamp(id) DESC NULLS LAST LIMIT 20'),
($$SELECT uuid_extract_timestamp(id) FROM k WHERE uuid_extract_timestamp(id) < '2026-02-01 00:00+00' ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50$$);
SELECT pg_temp.same_without_hook(q) AS same_order_as_plain, count(*) FROM orders GROUP BY 1 ORDER BY 1;

-- With the weaker CHECK, a value of another variant (version nibble 7, no time) is allowed:
-- the predicate stays (a Filter), the order is sorted, and that value is where time puts it.
CREATE TABLE kv (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7), n int);
INSERT INTO kv SELECT id, n FROM k;
INSERT INTO kv VALUES ('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f', -1);
VACUUM ANALYZE kv;
SELECT pg_temp.plan($$SELECT count(*) FROM kv WHERE uuid_extract_timestamp(id) >= '2026-02-01 00:00+00'
                                                AND uuid_extract_timestamp(id) < '2026-02-02 00:00+00'$$) AS version_check_window;
SELECT pg_temp.plan('SELECT id FROM kv ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20') AS version_check_order;
SELECT n FROM kv ORDER BY uuid_extract_timestamp(id) DESC LIMIT 1;   -- NULL time first in DESC

-- A nullable column with the exact CHECK: NULL keys have NULL times, read from the index in the
-- placement it gives (the NULLs reached), sorted in the other (the two 'hook idle').
CREATE TABLE kn (id uuid CHECK (uuid_is_v7(id)), n int);
INSERT INTO kn SELECT CASE WHEN n % 10 = 0 THEN NULL ELSE id END, n FROM k WHERE n < 5000;
CREATE INDEX ON kn (id);
VACUUM ANALYZE kn;
SELECT pg_temp.plan('SELECT n FROM kn ORDER BY uuid_extract_timestamp(id) NULLS FIRST LIMIT 5') AS nullable_order;
SELECT pg_temp.same_without_hook(q) AS same_as_plain, count(*)
FROM unnest(ARRAY['SELECT uuid_extract_timestamp(id) FROM kn ORDER BY uuid_extract_timestamp(id) LIMIT 5000',
                  'SELECT uuid_extract_timestamp(id) FROM kn ORDER BY uuid_extract_timestamp(id) DESC LIMIT 600',
                  'SELECT uuid_extract_timestamp(id) FROM kn ORDER BY uuid_extract_timestamp(id) NULLS FIRST LIMIT 600',
                  'SELECT uuid_extract_timestamp(id) FROM kn ORDER BY uuid_extract_timestamp(id) DESC NULLS LAST LIMIT 5000',
                  $$SELECT count(*) FROM kn WHERE uuid_extract_timestamp(id) < '2026-01-02 00:00+00'$$]) q GROUP BY 1 ORDER BY 1;
-- FETCH FIRST ... WITH TIES takes every row of the last row's millisecond (found by review:
-- with the key's equality as the ties it returned one of the two).
CREATE TABLE kt (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)));
INSERT INTO kt VALUES ('0190f3a0-0000-7000-8000-000000000001'), ('0190f3a0-0000-7000-8000-000000000002'),
                      ('0190f3a0-0001-7000-8000-000000000001');
SELECT (SELECT count(*) FROM (SELECT id FROM kt ORDER BY uuid_extract_timestamp(id) FETCH FIRST 1 ROW WITH TIES) s) AS asc_ties,
       (SELECT count(*) FROM (SELECT id FROM kt ORDER BY uuid_extract_timestamp(id) DESC FETCH FIRST 1 ROW WITH TIES) s) AS desc_ties;
DROP TABLE k, kv, kn, kt;
