-- Ordered reads by time: ORDER BY uuid_ext_timestamp(id) [DESC] LIMIT n, and keyset pages,
-- read in order from a uuid_time_ops index instead of sorting the table. The order is the
-- one PostgreSQL gives without the hook, except among rows whose times tie.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';
CREATE FUNCTION pg_temp.plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    out text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Sort|Index|Seq Scan' THEN
            out := out || regexp_replace(line, '^\s*(->\s*)?', '') || '; ';
        END IF;
    END LOOP;
    RETURN out;
END $$;
-- The query's times, in its order; and the same with the hook off.
CREATE FUNCTION pg_temp.times(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    out text := '';
BEGIN
    FOR r IN EXECUTE q LOOP
        out := out || coalesce(uuid_ext_timestamp(r.id)::text, 'NULL') || ',';
    END LOOP;
    RETURN md5(out);
END $$;
CREATE FUNCTION pg_temp.same_as_plain(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    hooked text := pg_temp.times(q);
    plain text;
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', 'off', true);
    plain := pg_temp.times(q);
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN hooked = plain;
END $$;

-- Mixed versions over a year: v7 every hour, v1 and v6 of times in between (made from v7's
-- times through the clock-free conversions), v4 (no time), NULL, and ties (two v7 of one ms).
CREATE TABLE ev (id uuid, n int);
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2026-01-01 00:00+00'::timestamptz + i * interval '1 hour'), i
FROM generate_series(0, 8759) i;
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2026-06-01 12:00+00'), -1;
INSERT INTO ev SELECT '00000000-9414-11ec-b3c8-9f6bdeced846', -2;                 -- v1, 2022-02-22
INSERT INTO ev SELECT uuid_v1_to_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846'), -3;   -- v6, 2022-02-22
INSERT INTO ev SELECT gen_random_uuid(), -4 FROM generate_series(1, 50);
INSERT INTO ev VALUES (NULL, -5), (NULL, -6);
CREATE INDEX ev_time ON ev (id uuid_time_ops);
ANALYZE ev;

SELECT pg_temp.plan('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) LIMIT 20') AS oldest_20,
       pg_temp.plan('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20') AS latest_20;
SELECT pg_temp.plan($$SELECT id, n FROM ev WHERE uuid_ext_timestamp(id) < '2026-09-01 00:00+00'
                      ORDER BY uuid_ext_timestamp(id) DESC LIMIT 50$$) AS keyset_page;
-- The extractor's value, when selected, is still the output column (NULL here: the first rows
-- have no time). The 52 rows without one (two NULL keys, 50 v4) tie, so which come first in what
-- order is not the query's to say; the index gives the two NULL keys first, in an order
-- PostgreSQL 19 reverses, so the three rows are shown in an order of their own.
SELECT * FROM (SELECT uuid_ext_timestamp(id) AS ts, n FROM ev ORDER BY uuid_ext_timestamp(id) DESC NULLS FIRST LIMIT 3) s
ORDER BY ts DESC NULLS FIRST, n;
SELECT uuid_ext_timestamp(id) AS ts, n FROM ev WHERE id IS NOT NULL ORDER BY 1 LIMIT 3;

-- Same times in the same order as without the hook, for every shape.
CREATE TEMP TABLE shapes (q text);
INSERT INTO shapes VALUES
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) LIMIT 20'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 20'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) ASC NULLS LAST LIMIT 100'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC NULLS FIRST LIMIT 100'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id)'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC'),
($$SELECT id FROM ev WHERE uuid_ext_timestamp(id) < '2026-09-01 00:00+00' ORDER BY uuid_ext_timestamp(id) DESC LIMIT 50$$),
($$SELECT id FROM ev WHERE uuid_ext_timestamp(id) >= '2026-06-01 11:00+00' ORDER BY uuid_ext_timestamp(id) LIMIT 5$$),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) NULLS FIRST LIMIT 20'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC NULLS LAST LIMIT 20'),
('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id), n DESC LIMIT 20'),
('SELECT id FROM ev ORDER BY uuid_extract_timestamp(id) LIMIT 20'),
('SELECT id FROM (SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC LIMIT 30) s ORDER BY uuid_ext_timestamp(id) LIMIT 10');
SELECT count(*) AS shapes, count(*) FILTER (WHERE pg_temp.same_as_plain(q)) AS same_order_as_without_hook,
       count(*) FILTER (WHERE pg_temp.hook_acted(q)) AS read_by_the_hook
FROM shapes;
SELECT q AS sorted_as_without_the_hook FROM shapes WHERE NOT pg_temp.hook_acted(q);
-- (The comparison sees order: the v1 and the v6 of 2022-02-22 differ by microseconds, and
-- reversing the order of the first rows is noticed.)
SELECT pg_temp.times('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) LIMIT 2')
     = pg_temp.times('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) DESC NULLS LAST LIMIT 2') AS reversed_looks_same;

-- Sorted as PostgreSQL sorts: another NULLS placement (NULL times would otherwise land among
-- the v4s), another extractor (uuid_extract_timestamp reads no v6), and the plain byte order
-- of a uuid_ops key. A second sort key orders ties: the index gives the first, and PostgreSQL
-- sorts each run of equal times (an incremental sort).
SELECT pg_temp.plan('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id) NULLS FIRST LIMIT 20') AS nulls_first,
       pg_temp.plan('SELECT id FROM ev ORDER BY uuid_ext_timestamp(id), n DESC LIMIT 20') AS second_key,
       pg_temp.plan('SELECT id FROM ev ORDER BY uuid_extract_timestamp(id) LIMIT 20') AS other_extractor;
-- The rows with tied times at the LIMIT edge are the only freedom: the two v7 of 12:00.
SELECT n FROM ev WHERE uuid_ext_timestamp(id) = '2026-06-01 12:00+00' ORDER BY n;
-- FETCH FIRST ... WITH TIES takes every row tied in time with the last (found by review: with
-- the key's equality as the ties, one of the two rows of 12:00 was returned).
SELECT count(*) AS with_ties
FROM (SELECT id FROM ev WHERE uuid_ext_timestamp(id) >= '2026-06-01 12:00+00'
      ORDER BY uuid_ext_timestamp(id) FETCH FIRST 1 ROW WITH TIES) s;
DROP TABLE ev;
