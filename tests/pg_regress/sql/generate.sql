-- Properties of generated values: version and variant bits, uniqueness, ordering, time.
-- Version nibble and the two variant bits, read straight from the bytes.
CREATE TEMP TABLE gen AS
SELECT 'v1' AS f, 1 AS ver, uuid_generate_v1() AS u FROM generate_series(1, 1000)
UNION ALL SELECT 'v1mc', 1, uuid_generate_v1mc() FROM generate_series(1, 1000)
UNION ALL SELECT 'v2', 2, uuid_generate_v2(0, 1000) FROM generate_series(1, 64)
UNION ALL SELECT 'v4', 4, uuid_generate_v4() FROM generate_series(1, 1000)
UNION ALL SELECT 'uuidv4', 4, uuidv4() FROM generate_series(1, 1000)
UNION ALL SELECT 'v6', 6, uuid_generate_v6() FROM generate_series(1, 1000)
UNION ALL SELECT 'v7', 7, uuid_generate_v7() FROM generate_series(1, 1000)
UNION ALL SELECT 'uuidv7', 7, uuidv7() FROM generate_series(1, 1000)
UNION ALL SELECT 'v7 shift', 7, uuid_generate_v7('-1 day'::interval) FROM generate_series(1, 1000)
UNION ALL SELECT 'v7 batch', 7, uuid_generate_v7_batch(1000);

SELECT f,
       count(*) AS n,
       count(DISTINCT u) = count(*) AS all_distinct,
       bool_and(get_byte(uuid_send(u), 6) >> 4 = ver) AS version_bits,
       bool_and(get_byte(uuid_send(u), 8) >> 6 = 2) AS variant_bits
FROM gen GROUP BY f ORDER BY f;

-- v1mc: the multicast bit (least significant bit of the first node octet, RFC 9562 §6.10) and
-- the locally-administered bit next to it are set, as uuid-ossp sets them, and every value
-- has its own random node.
SELECT bool_and(get_byte(uuid_send(u), 10) & 3 = 3) AS multicast_local,
       count(DISTINCT substr(uuid_send(u), 11)) = count(*) AS node_per_value
FROM gen WHERE f = 'v1mc';
-- v2 (DCE Security): local id in time_low, local domain in clock_seq_low; 64 in a row differ.
SELECT bool_and(substr(uuid_send(u), 1, 4) = '\x000003e8'::bytea) AS local_id_1000,
       bool_and(get_byte(uuid_send(u), 9) = 0) AS domain_person
FROM gen WHERE f = 'v2';

-- v1/v6 from one backend share one random multicast node.
SELECT count(DISTINCT substr(uuid_send(u), 11)) AS nodes,
       bool_and(get_byte(uuid_send(u), 10) & 3 = 3) AS multicast_local
FROM gen WHERE f IN ('v1', 'v6', 'v2');

-- v2 keeps 6 clock-sequence bits per 7.16-minute step: the 64 values above used up this step
-- for domain 0 and id 1000 (unless the step turned meanwhile), so the next value is an error
-- (2200H), never a repeat; another id still has its own 64.
CREATE FUNCTION pg_temp.v2_past_the_limit() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    FOR i IN 1..65 LOOP
        INSERT INTO gen VALUES ('v2 more', 2, uuid_generate_v2(0, 1000));
    END LOOP;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ': ' || SQLERRM || ' | ' || (detail LIKE 'A backend generates at most 64 distinct values %');
END $$;
SELECT pg_temp.v2_past_the_limit() AS v2_65th_value;
SELECT count(*) = 64 AS other_id_has_64 FROM (SELECT DISTINCT uuid_generate_v2(1, 1000) FROM generate_series(1, 64)) s;

-- Time-based values carry the current time.
SELECT f, bool_and(abs(extract(epoch FROM uuid_ext_timestamp(u) - now())) < 60) AS near_now
FROM gen WHERE f IN ('v1', 'v1mc', 'v6', 'v7', 'uuidv7', 'v7 batch') GROUP BY f ORDER BY f;
SELECT bool_and(abs(extract(epoch FROM uuid_ext_timestamp(u) - (now() - interval '1 day'))) < 60)
       AS shifted_one_day_back
FROM gen WHERE f = 'v7 shift';
SELECT abs(extract(epoch FROM uuid_extract_timestamp(uuid_generate_v7()) - clock_timestamp())) < 1
       AS v7_within_a_second;

-- Values generated one after another increase (v7 and v6 byte order is time order).
SELECT f, bool_and(u > prev) AS increasing
FROM (SELECT f, u, lag(u) OVER (PARTITION BY f ORDER BY ord) AS prev
      FROM (SELECT f, u, row_number() OVER () AS ord FROM gen) s) t
WHERE prev IS NOT NULL AND f IN ('v6', 'v7', 'uuidv7', 'v7 batch')
GROUP BY f ORDER BY f;

-- Batch of zero is empty; the batch continues the backend's sequence.
SELECT count(*) AS empty_batch FROM uuid_generate_v7_batch(0);
SELECT (SELECT u FROM gen WHERE f IN ('v7', 'uuidv7', 'v7 batch') ORDER BY u DESC LIMIT 1)
       < (SELECT b FROM uuid_generate_v7_batch(10) b ORDER BY b LIMIT 1) AS batch_after_earlier_values;

-- Constants (RFC 9562 §5.9, §5.10, §6.6).
SELECT uuid_nil() = '00000000-0000-0000-0000-000000000000' AS nil,
       uuid_max() = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS max,
       uuid_ns_dns() = '6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS dns,
       uuid_ns_url() = '6ba7b811-9dad-11d1-80b4-00c04fd430c8' AS url,
       uuid_ns_oid() = '6ba7b812-9dad-11d1-80b4-00c04fd430c8' AS oid,
       uuid_ns_x500() = '6ba7b814-9dad-11d1-80b4-00c04fd430c8' AS x500;
