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
-- Range bounds: the zero-filled v7 of a time sorts before every v7 generated in that ms or later.
SELECT uuid_timestamptz_to_v7(now() - interval '1 second', true) < uuid_generate_v7() AS lower_bound;
-- Extractors are NULL for other versions.
SELECT uuid_v7_to_timestamptz('c232ab00-9414-11ec-b3c8-9f6bdeced846') IS NULL AS v1_is_null,
       uuid_v7_to_timestamp(uuid_nil()) IS NULL AS nil_is_null;
-- The last millisecond of the 48-bit field (year 10889).
SET timezone = 'UTC';
SELECT uuid_v7_to_timestamptz('ffffffff-ffff-7fff-bfff-ffffffffffff') AS last_v7_ms_utc;
RESET timezone;
