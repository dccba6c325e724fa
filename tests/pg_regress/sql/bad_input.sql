-- Bad input: a specific SQLSTATE (never XX000) or NULL, and the server keeps running.
-- Each error is shown with its DETAIL, so a Rust backtrace there (pgrx adds one whenever
-- RUST_BACKTRACE is set in the server's environment, as it is in the test runs) fails the test.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all

-- NULL in, NULL out (STRICT).
SELECT uuid_generate_v3(NULL, 'x') IS NULL AS v3_ns, uuid_generate_v5(uuid_ns_dns(), NULL) IS NULL AS v5_name,
       uuid_generate_v8(NULL::bytea) IS NULL AS v8_bytes, uuid_generate_v8(NULL, 'x') IS NULL AS v8_ns,
       uuid_generate_v7(NULL::interval) IS NULL AS v7_shift, uuid_generate_v2(NULL, 1) IS NULL AS v2,
       uuid_extract_timestamp(NULL) IS NULL AS extract_ts, uuid_extract_version(NULL) IS NULL AS extract_ver,
       uuid_ext_timestamp(NULL) IS NULL AS ext_ts, uuid_ext_variant(NULL) IS NULL AS variant,
       uuid_v1_to_v6(NULL) IS NULL AS to_v6, uuid_from_urn(NULL) IS NULL AS from_urn,
       uuid_timestamptz_to_v7(NULL) IS NULL AS ts_to_v7, uuid_timestamptz_to_v7(now(), NULL) IS NULL AS zero_null,
       uuid_to_bytea(NULL) IS NULL AS to_bytea, uuid_from_bytea(NULL) IS NULL AS from_bytea;

-- Timestamps outside a field's range.
SELECT q, pg_temp.err(q) FROM (VALUES
    ($$SELECT uuid_timestamptz_to_v7('infinity')$$),
    ($$SELECT uuid_timestamptz_to_v7('-infinity')$$),
    ($$SELECT uuid_timestamp_to_v7('infinity')$$),
    ($$SELECT uuid_timestamptz_to_v7('1969-12-31 23:59:59.999+00')$$),
    ($$SELECT uuid_timestamptz_to_v7('10889-08-02 05:31:50.656+00')$$),
    ($$SELECT uuid_timestamptz_to_v7('10889-08-02 05:31:50.655+00', true)$$),
    ($$SELECT uuid_generate_v7('-100 years')$$),
    ($$SELECT uuid_generate_v7('10000 years')$$),
    ($$SELECT uuid_generate_v7('100000 years')$$),
    ($$SELECT uuid_generate_v7('300000 years')$$),
    ($$SELECT uuid_generate_v7('178000000 years')$$),
    ($$SELECT uuid_generate_v7('2147483647 days')$$),
    ($$SELECT uuid_generate_v7('-2147483647 days')$$),
    ($$SELECT uuid_generate_v7('-1 day') IS NOT NULL$$)
) t(q);

-- Range bounds accept every timestamp: -infinity/infinity bound like the finite extremes
-- (before every timed value; after all of them: Nil, the first untimed value in uuid_time_ops,
-- and Max, which no v7 reaches, in byte order).
SELECT uuid_time_lower_bound('-infinity') = uuid_time_lower_bound('1000-01-01') AS time_minus_inf,
       uuid_time_lower_bound('infinity') = uuid_time_lower_bound('20000-01-01') AS time_plus_inf,
       uuid_time_upper_bound('infinity') = uuid_nil() AS time_upper_inf,
       uuid_v7_lower_bound('-infinity') = uuid_v7_lower_bound('1900-01-01') AS v7_minus_inf,
       uuid_v7_lower_bound('infinity') = uuid_max() AS v7_plus_inf,
       uuid_v7_upper_bound('infinity') = uuid_max() AS v7_upper_inf;

-- Wrong-length bytea for v8 and uuid_from_bytea (22P03, as 19's bytea::uuid); v2 fields out of range.
SELECT q, pg_temp.err(q) FROM (VALUES
    ($$SELECT uuid_generate_v8(''::bytea)$$),
    ($$SELECT uuid_generate_v8('\x00112233445566778899aabbccddee'::bytea)$$),
    ($$SELECT uuid_generate_v8('\x00112233445566778899aabbccddeeff00'::bytea)$$),
    ($$SELECT uuid_from_bytea(''::bytea)$$),
    ($$SELECT uuid_from_bytea('\x00112233445566778899aabbccddee'::bytea)$$),
    ($$SELECT uuid_from_bytea(repeat('x', 100000)::bytea)$$),
    ($$SELECT uuid_generate_v2(256, 0)$$),
    ($$SELECT uuid_generate_v2(-1, 0)$$),
    ($$SELECT uuid_generate_v2(0, 4294967296)$$),
    ($$SELECT uuid_generate_v2(0, -1)$$),
    ($$SELECT count(*) FROM uuid_generate_v7_batch(-1)$$)
) t(q);

-- Names: empty and 1 MB are fine (hashing has no length limit).
SELECT uuid_generate_v5(uuid_ns_url(), '') <> uuid_generate_v5(uuid_ns_dns(), '') AS empty_name,
       uuid_extract_version(uuid_generate_v3(uuid_ns_oid(), repeat('x', 1048576))) AS v3_of_1mb,
       uuid_extract_version(uuid_generate_v8(uuid_ns_x500(), repeat('y', 1048576))) AS v8_of_1mb;

-- URN input.
SELECT q, pg_temp.err(q) FROM (VALUES
    ($$SELECT uuid_from_urn('')$$),
    ($$SELECT uuid_from_urn('f81d4fae-7dec-11d0-a765-00a0c91e6bf6')$$),
    ($$SELECT uuid_from_urn('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bfX')$$),
    ($$SELECT uuid_from_urn('urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}')$$),
    ($$SELECT uuid_from_urn('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6 ')$$),
    ($$SELECT uuid_from_urn('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bé')$$)
) t(q);

-- Non-RFC variants (NCS, Microsoft, Future) and other versions: every extractor gives NULL.
SELECT v, uuid_extract_version(v) AS version, uuid_extract_timestamp(v) AS core_ts,
       uuid_ext_timestamp(v) AS ts, uuid_ext_timestamp_subms(v) AS subms, uuid_ext_clock_seq(v) AS clock_seq,
       uuid_ext_node(v) AS node, uuid_v1_to_v6(v) AS to_v6, uuid_v6_to_v1(v) AS to_v1,
       uuid_v7_to_timestamptz(v) AS v7_ts, uuid_ext_variant(v) AS variant
FROM (VALUES ('c232ab00-9414-11ec-33c8-9f6bdeced846'::uuid),   -- v1 bits, NCS variant
             ('c232ab00-9414-11ec-d3c8-9f6bdeced846'::uuid),   -- v1 bits, Microsoft variant
             ('017f22e2-79b0-7cc3-f8c4-dc0c0c07398f'::uuid),   -- v7 bits, Future variant
             ('1ec9414c-232a-6b00-03c8-9f6bdeced846'::uuid),   -- v6 bits, NCS variant
             ('919108f7-52d1-4320-9bac-f847db4148a8'::uuid),   -- v4
             (uuid_nil()), (uuid_max())) t(v);

SELECT 'server still running' AS status;
