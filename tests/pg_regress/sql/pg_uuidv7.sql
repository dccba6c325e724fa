-- pg_uuidv7 compatibility.
-- The documented example: zero = true leaves only the timestamp.
SELECT uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true) = '018570bb-4a7d-7000-8000-000000000000' AS example;
SELECT uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true) = '018570bb-4a7d-7000-8000-000000000000' AS timestamp_as_utc;
-- Round trips to the millisecond (timestamps are truncated, not rounded).
SELECT uuid_v7_to_timestamptz(uuid_timestamptz_to_v7('2023-01-02 04:26:40.637999+00'))
       = '2023-01-02 04:26:40.637+00' AS truncated_to_ms,
       uuid_v7_to_timestamp(uuid_timestamp_to_v7('1970-01-01 00:00:00')) = '1970-01-01 00:00:00' AS epoch;
-- Without zero, random bits are drawn: two calls differ but share the timestamp.
SELECT a <> b AS differ, uuid_v7_to_timestamptz(a) = uuid_v7_to_timestamptz(b) AS same_ms,
       get_byte(uuid_send(a), 6) >> 4 = 7 AND get_byte(uuid_send(a), 8) >> 6 = 2 AS v7_bits
FROM (SELECT uuid_timestamptz_to_v7(now()) a, uuid_timestamptz_to_v7(now()) b) t;
-- Range bounds: the zero-filled v7 of a time sorts at or before every v7 generated in that ms
-- or later, and the zero-filled v7 of the next ms after every v7 generated before it.
SELECT uuid_timestamptz_to_v7(t, true) <= u AS at_or_above_own_ms_bound,
       u < uuid_timestamptz_to_v7(clock_timestamp() + interval '1 ms', true) AS below_next_ms_bound
FROM (SELECT clock_timestamp() AS t) c, LATERAL (SELECT uuid_generate_v7() AS u) g;
-- uuid_v7_lower_bound() is that zero-filled v7 (rounded up to the next ms), but IMMUTABLE, so a
-- range on the primary key is an index range scan. (uuid_timestamptz_to_v7 is VOLATILE: it
-- draws random bits unless zero = true, so a predicate using it is a sequential scan.)
SELECT uuid_v7_lower_bound('2023-01-02 04:26:40.637+00') = uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true)
       AS same_as_zero_v7,
       uuid_v7_lower_bound('2023-01-02 04:26:40.6365+00') = uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true)
       AS rounded_up,
       uuid_v7_upper_bound('2023-01-02 04:26:40.637+00') = uuid_timestamptz_to_v7('2023-01-02 04:26:40.638+00', true)
       AS upper_is_next_ms;
CREATE TEMP TABLE ev (id uuid PRIMARY KEY, minute int);
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2026-01-01 00:00:00+00'::timestamptz + i * interval '1 minute'), i
FROM generate_series(0, 99999) i;
ANALYZE ev;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ev WHERE id >= uuid_v7_lower_bound('2026-01-10 00:00+00') AND id < uuid_v7_lower_bound('2026-01-11 00:00+00');
-- Exactly the rows of that day (minutes 12960 .. 14399), and BETWEEN-like with the upper bound.
SELECT count(*) AS rows, min(minute) AS first_minute, max(minute) AS last_minute
FROM ev WHERE id >= uuid_v7_lower_bound('2026-01-10 00:00+00') AND id < uuid_v7_lower_bound('2026-01-11 00:00+00');
SELECT count(*) AS rows, max(minute) AS last_minute
FROM ev WHERE id >= uuid_v7_lower_bound('2026-01-10 00:00+00') AND id < uuid_v7_upper_bound('2026-01-11 00:00+00');
RESET enable_bitmapscan;
-- Extractors are NULL for other versions.
SELECT uuid_v7_to_timestamptz('c232ab00-9414-11ec-b3c8-9f6bdeced846') IS NULL AS v1_is_null,
       uuid_v7_to_timestamp(uuid_nil()) IS NULL AS nil_is_null;
-- The last millisecond of the 48-bit field (year 10889).
SET timezone = 'UTC';
SELECT uuid_v7_to_timestamptz('ffffffff-ffff-7fff-bfff-ffffffffffff') AS last_v7_ms_utc;
RESET timezone;
