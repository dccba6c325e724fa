-- PostgreSQL 18's answers on every major (14-18) for uuidv4(), uuidv7(), uuidv7(interval),
-- uuid_extract_version() and uuid_extract_timestamp(), after the README's set-up: on 17,
-- search_path lists pg_catalog after the extension's schema (17's built-in
-- uuid_extract_timestamp() reads version 1 only). The values below are PostgreSQL 18's
-- (RFC 9562 Appendix A: A.1 v1, A.5 v6, A.6 v7 all stand for 2022-02-22 19:22:22 UTC).
SET search_path = public, pg_catalog;
SET timezone = 'UTC';

CREATE TEMP TABLE samples (label text, u uuid);
INSERT INTO samples VALUES
    ('v1 (A.1)', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'),
    ('v1, 100-ns ticks', 'c232ab07-9414-11ec-b3c8-9f6bdeced846'),
    ('v1, last 60-bit time', 'ffffffff-ffff-1fff-bfff-ffffffffffff'),
    ('v6 (A.5)', '1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
    ('v7 (A.6)', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
    ('v7, last ms', 'ffffffff-ffff-7fff-bfff-ffffffffffff'),
    ('v4 (A.3)', '919108f7-52d1-4320-9bac-f847db4148a8'),
    ('Nil', '00000000-0000-0000-0000-000000000000'),
    ('Max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('v1 bits, NCS variant', 'c232ab00-9414-11ec-33c8-9f6bdeced846'),
    ('v7 bits, Microsoft variant', '017f22e2-79b0-7cc3-d8c4-dc0c0c07398f'),
    ('v7 bits, Future variant', '017f22e2-79b0-7cc3-f8c4-dc0c0c07398f'),
    ('NULL', NULL);
SELECT label, uuid_extract_version(u) AS version, uuid_extract_timestamp(u) AS timestamp FROM samples;

-- On 18 the same answers come from the built-ins; on every major, from uuid_ext's own
-- functions called by their schema (as a dump from an older major calls them).
CREATE FUNCTION pg_temp.differing_from(schema text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM samples
                    WHERE %1$I.uuid_extract_version(u) IS DISTINCT FROM uuid_extract_version(u)
                       OR %1$I.uuid_extract_timestamp(u) IS DISTINCT FROM uuid_extract_timestamp(u)', schema) INTO r;
    RETURN r;
END $$;
SELECT pg_temp.differing_from('public') AS extension_differs,
       CASE WHEN current_setting('server_version_num')::int >= 180000
            THEN pg_temp.differing_from('pg_catalog') ELSE 0 END AS built_in_differs;

-- Generators: version and variant bits, increasing, timestamps at the clock or shifted.
SELECT uuid_extract_version(uuidv4()) AS v4, uuid_extract_version(uuidv7()) AS v7,
       uuid_extract_version(uuidv7('-1 hour')) AS v7_shifted,
       get_byte(uuid_send(uuidv4()), 8) >> 6 = 2 AND get_byte(uuid_send(uuidv7()), 8) >> 6 = 2 AS rfc_variant,
       uuidv7() < uuidv7() AS increasing, uuidv4() <> uuidv4() AS random,
       uuidv7(NULL) IS NULL AS null_shift;
SELECT uuid_extract_timestamp(u) BETWEEN t - interval '1 ms' AND clock_timestamp() AS at_the_clock,
       uuid_extract_timestamp(s) BETWEEN t - interval '1 day 1 ms' AND clock_timestamp() - interval '1 day'
         AS shifted_one_day
FROM (SELECT clock_timestamp() AS t) c, LATERAL (SELECT uuidv7() AS u, uuidv7('-1 day') AS s) g;

-- Errors by SQLSTATE (22008 on 18). PostgreSQL 14, 15 and 16 have no infinite intervals: the
-- literal itself fails (22007) before any function runs.
CREATE FUNCTION pg_temp.sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
SELECT q, pg_temp.sqlstate(q) FROM (VALUES
    ($$SELECT uuidv7('10000 years')$$),
    ($$SELECT uuidv7('-100 years')$$),
    ($$SELECT uuidv7('178000000 years')$$),
    ($$SELECT uuidv7('-2147483647 days')$$)
) t(q);
SELECT q, pg_temp.sqlstate(q) = CASE WHEN current_setting('server_version_num')::int < 170000
                                     THEN '22007' ELSE '22008' END AS sqlstate_as_documented
FROM (VALUES ($$SELECT uuidv7('infinity')$$), ($$SELECT uuidv7('-infinity')$$),
             ($$SELECT uuid_generate_v7('infinity')$$)) t(q);
