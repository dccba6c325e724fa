-- Per-backend monotonic v7 (RFC 9562 §6.2).
SHOW uuid_ext.v7_method;

-- A million back-to-back values in one statement: strictly increasing, and each value's
-- embedded time (read with its sub-millisecond fraction) at most 1 ms ahead of the clock read
-- right after it, in the same row. (A method that drifts ahead under load, like 'pg18' at more
-- than ~4 million values per second, fails this only where values come that fast: not in this
-- debug build, about 0.3 million per second here; the core's unit test
-- pg18_steps_245_ns_and_runs_ahead_under_bursts shows the drift with a frozen clock.)
SELECT count(*) AS n,
       count(*) FILTER (WHERE u <= prev) AS not_increasing,
       count(*) FILTER (WHERE uuid_ext_timestamp_subms(u) > t + interval '1 ms') AS more_than_1ms_ahead
FROM (SELECT u, t, lag(u) OVER () AS prev
      FROM (SELECT uuid_generate_v7() AS u, clock_timestamp() AS t FROM generate_series(1, 1000000)) s) t;

-- RFC 9562 §6.2 counter seeding: the 14-bit counter (top of rand_b) starts every new tick at
-- a random value with its top (guard) bit clear. A constant start (0.1.0 started at 0) gives
-- a handful of distinct counters here, not thousands.
SELECT count(DISTINCT (get_byte(b, 8) & 63) * 256 + get_byte(b, 9)) > 1000 AS counters_random,
       bool_and(get_byte(b, 8) & 32 = 0) AS guard_bit_clear
FROM (SELECT uuid_send(uuid_generate_v7()) AS b FROM generate_series(1, 2000)) s;

-- Every method is strictly increasing within the backend, except 'random'.
CREATE FUNCTION pg_temp.violations(method text, n int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r bigint;
BEGIN
    PERFORM set_config('uuid_ext.v7_method', method, true);
    SELECT count(*) FILTER (WHERE u <= prev) INTO r
    FROM (SELECT u, lag(u) OVER () AS prev
          FROM (SELECT uuid_generate_v7() AS u FROM generate_series(1, n)) s) t;
    RETURN r;
END $$;
SELECT m, pg_temp.violations(m, 200000) AS not_increasing
FROM unnest(ARRAY['default', 'pg18', 'counter']) m;

-- 'random' keeps the version/variant bits and millisecond time, nothing else.
SET uuid_ext.v7_method = 'random';
SELECT count(DISTINCT u) AS distinct_values,
       bool_and(get_byte(uuid_send(u), 6) >> 4 = 7 AND get_byte(uuid_send(u), 8) >> 6 = 2) AS bits,
       bool_and(abs(extract(epoch FROM uuid_extract_timestamp(u) - clock_timestamp())) < 60) AS near_now
FROM (SELECT uuid_generate_v7() AS u FROM generate_series(1, 10000)) s;
RESET uuid_ext.v7_method;
SET uuid_ext.v7_method = 'no_such_method';

-- The clock jumps back by 10 seconds: values keep increasing and nothing repeats.
CREATE TEMP TABLE jump (phase int, n bigserial, u uuid);
INSERT INTO jump (phase, u) SELECT 1, uuid_generate_v7() FROM generate_series(1, 1000);
SET uuid_ext.clock_offset_ms = -10000;
INSERT INTO jump (phase, u) SELECT 2, uuid_generate_v7() FROM generate_series(1, 100000);
RESET uuid_ext.clock_offset_ms;
INSERT INTO jump (phase, u) SELECT 3, uuid_generate_v7() FROM generate_series(1, 1000);
SELECT count(*) AS n, count(DISTINCT u) = count(*) AS all_distinct,
       count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM jump) t;
-- While the clock was behind, the embedded time stayed at the last value's time.
SELECT min(uuid_extract_timestamp(u)) >= (SELECT max(uuid_extract_timestamp(u)) FROM jump WHERE phase = 1)
       AS held_last_time
FROM jump WHERE phase = 2;

-- The same for v1/v6: a clock regression increments the clock sequence (RFC 9562 §6.3).
CREATE TEMP TABLE greg (phase int, u uuid);
INSERT INTO greg SELECT 1, uuid_generate_v6() FROM generate_series(1, 1000);
SET uuid_ext.clock_offset_ms = -10000;
INSERT INTO greg SELECT 2, uuid_generate_v6() FROM generate_series(1, 1000);
RESET uuid_ext.clock_offset_ms;
SELECT count(DISTINCT u) AS distinct_values,
       count(DISTINCT uuid_ext_clock_seq(u)) AS clock_seqs
FROM greg;

-- Cluster scope (this server preloads the library): strictly increasing here too, shift and
-- batch included, with version/variant bits intact.
SET uuid_ext.v7_scope = 'cluster';
SELECT count(*) AS n, count(*) FILTER (WHERE u <= prev) AS not_increasing,
       bool_and(get_byte(uuid_send(u), 6) >> 4 = 7 AND get_byte(uuid_send(u), 8) >> 6 = 2) AS bits,
       count(*) FILTER (WHERE uuid_ext_timestamp_subms(u) > t + interval '1 ms') AS more_than_1ms_ahead
FROM (SELECT u, t, lag(u) OVER () AS prev
      FROM (SELECT uuid_generate_v7() AS u, clock_timestamp() AS t FROM generate_series(1, 1000000)) s) t;
SELECT count(*) FILTER (WHERE u <= prev) AS batch_not_increasing
FROM (SELECT u, lag(u) OVER () AS prev FROM uuid_generate_v7_batch(10000) u) t;
SELECT abs(extract(epoch FROM uuid_extract_timestamp(uuid_generate_v7('-1 hour')) - (now() - interval '1 hour'))) < 60
       AS shifted;
-- The test clock is confined to this session: under cluster scope the shared position follows
-- the wall clock alone, so a superuser's offset can never push every other session's keys ahead.
SET uuid_ext.clock_offset_ms = 2073600000;  -- 24 days
SELECT uuid_extract_timestamp(u) BETWEEN t - interval '1 ms' AND clock_timestamp() AS cluster_at_wall_clock
FROM (SELECT clock_timestamp() AS t) c, LATERAL (SELECT uuid_generate_v7() AS u) g;
RESET uuid_ext.v7_scope;
-- (Under backend scope the offset applies, to this session's values only.)
SELECT uuid_extract_timestamp(uuid_generate_v7()) > now() + interval '23 days' AS backend_follows_offset;
RESET uuid_ext.clock_offset_ms;

-- Only a superuser may move the clock or choose the scope.
CREATE ROLE uuid_ext_regress_user;
SET ROLE uuid_ext_regress_user;
SET uuid_ext.clock_offset_ms = -10000;
SET uuid_ext.v7_scope = 'cluster';
RESET ROLE;
DROP ROLE uuid_ext_regress_user;
