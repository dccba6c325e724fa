-- uuid_time_ops: v1, v6 and v7 ordered by the time inside them (sortsupport, abbreviated keys).
SELECT setseed(0.5);

-- 200,000 values: v7 on exact milliseconds, v6 and v1 between them (100-ns offsets 1..9999),
-- and v4 (no timestamp). Each value's reference time key is computed here independently,
-- in 100-ns Gregorian ticks; the rows are stored in random order.
CREATE TABLE tord (u uuid, tick bigint);
INSERT INTO tord
SELECT CASE k
         WHEN 0 THEN uuid_timestamptz_to_v7('2022-02-22 19:22:22+00'::timestamptz + i * interval '1 ms')
         WHEN 1 THEN v6
         WHEN 2 THEN uuid_v6_to_v1(v6)
         ELSE uuid_generate_v4()
       END,
       CASE WHEN k = 0 THEN t0 + i * 10000 WHEN k IN (1, 2) THEN t END
FROM (SELECT i, i % 4 AS k, t0, t,
             (lpad(to_hex(t >> 12), 12, '0') || '6' || lpad(to_hex(t & 4095), 3, '0')
              || to_hex(32768 + (random() * 16383)::int)
              || lpad(to_hex((random() * 140737488355327)::bigint), 12, '0'))::uuid AS v6
      FROM (SELECT i, x'1EC9414C232AB00'::bigint AS t0,
                   x'1EC9414C232AB00'::bigint + i * 10000 + 1 + (random() * 9998)::int AS t
            FROM generate_series(1, 200000) i) g) s
ORDER BY random();
SELECT count(*) AS n, count(DISTINCT u) AS distinct_values,
       count(*) FILTER (WHERE uuid_extract_version(u) = 1) AS v1,
       count(*) FILTER (WHERE uuid_extract_version(u) = 6) AS v6,
       count(*) FILTER (WHERE uuid_extract_version(u) = 7) AS v7
FROM tord;

-- Reference order: by tick, then the untimed block in byte order.
CREATE TEMP TABLE ref AS
SELECT u, row_number() OVER (ORDER BY tick NULLS LAST, u) AS pos FROM tord;

-- Rows whose position in a query's output differs from the reference position.
CREATE FUNCTION pg_temp.out_of_place(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM (SELECT u, row_number() OVER () AS pos FROM (%s) s) i
                    JOIN ref USING (u) WHERE i.pos <> ref.pos', q) INTO r;
    RETURN r;
END $$;

CREATE INDEX tord_time_idx ON tord (u uuid_time_ops);
CREATE EXTENSION IF NOT EXISTS amcheck;
SELECT bt_index_check('tord_time_idx', true), bt_index_parent_check('tord_time_idx', true);

-- Index scan order equals the reference order.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT u FROM tord ORDER BY u USING <|;
SELECT pg_temp.out_of_place('SELECT u FROM tord ORDER BY u USING <|') AS rows_out_of_place;
-- Backwards too (compared with the reverse of the reference).
SELECT count(*) AS rows_out_of_place_desc
FROM (SELECT u, row_number() OVER () AS pos FROM (SELECT u FROM tord ORDER BY u USING >|) s) i
JOIN ref USING (u) WHERE 200001 - i.pos <> ref.pos;

-- A full sort (abbreviated keys) and a bounded sort (LIMIT) agree with the reference as well.
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT u FROM tord ORDER BY u USING <|;
SELECT pg_temp.out_of_place('SELECT u FROM tord ORDER BY u USING <|') AS sorted_out_of_place;
SELECT pg_temp.out_of_place('SELECT u FROM tord ORDER BY u USING <| LIMIT 1000') AS top_n_out_of_place;
RESET enable_indexscan;
RESET enable_indexonlyscan;

-- Range predicates: [t0, t1) by uuid_time_lower_bound selects exactly the timed values in it.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM tord
WHERE u >=| uuid_time_lower_bound('2022-02-22 19:23:00+00') AND u <| uuid_time_lower_bound('2022-02-22 19:24:00.5+00');
-- The rows themselves, not just their number: index range vs. the reference ticks.
-- 19:23:00 is 38 000 000 000 ns = 380 000 000 ticks after t0 (19:22:22); 19:24:00.5, 985 000 000.
CREATE FUNCTION pg_temp.range_vs_ticks(upper_bound text, end_tick bigint,
                                       OUT rows_in_range bigint, OUT rows_differing bigint)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$
        SELECT count(*), count(*) FILTER (WHERE i.u IS NULL OR r.u IS NULL)
        FROM (SELECT u FROM tord WHERE u >=| uuid_time_lower_bound('2022-02-22 19:23:00+00')
                                   AND u <| %s('2022-02-22 19:24:00.5+00')) i
        FULL JOIN (SELECT u FROM tord WHERE tick >= x'1EC9414C232AB00'::bigint + 380000000
                                        AND tick < x'1EC9414C232AB00'::bigint + %s) r USING (u)$q$,
        upper_bound, end_tick)
    INTO rows_in_range, rows_differing;
END $$;
SELECT * FROM pg_temp.range_vs_ticks('uuid_time_lower_bound', 985000000);
-- The upper bound closes the range at the microsecond: time <= 19:24:00.5 also takes the ticks
-- of 19:24:00.500000 .. 19:24:00.5000009 (extractors read times to the microsecond).
SELECT * FROM pg_temp.range_vs_ticks('uuid_time_upper_bound', 985000010);
RESET enable_seqscan;

-- Equality is uuid equality: a UNIQUE index with this opclass rejects duplicates.
CREATE UNIQUE INDEX tord_time_uniq ON tord (u uuid_time_ops);
INSERT INTO tord VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846', NULL);
INSERT INTO tord VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846', NULL);

-- The RFC vectors: A.6 (v7) < A.5 (v6) < A.1 (v1), all at 2022-02-22 19:22:22 UTC;
-- in byte order (uuid_ops) v1's time_low puts it last, v7's Unix time first.
SELECT v FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid),
                      ('1ec9414c-232a-6b00-b3c8-9f6bdeced846'::uuid),
                      ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid),
                      ('00000000-0000-4000-8000-000000000000'::uuid)) t(v)
ORDER BY v USING <|;
-- An earlier v1 whose time_low is larger sorts first here, last in byte order.
SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid >| 'ffffffff-9413-11ec-b3c8-9f6bdeced846' AS later_than_v1,
       '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid < 'ffffffff-9413-11ec-b3c8-9f6bdeced846' AS bytewise_less;

DROP TABLE tord;
