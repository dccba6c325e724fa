-- RFC 9562 Appendix A/B vectors through SQL (ground truth from the RFC text).
-- A.2 (v3) and A.4 (v5): DNS namespace, name "www.example.com".
SELECT uuid_generate_v3(uuid_ns_dns(), 'www.example.com') = '5df41881-3aed-3515-88a7-2f4a814cf09e' AS a2_v3,
       uuid_generate_v5(uuid_ns_dns(), 'www.example.com') = '2ed6657d-e927-568b-95e1-2665a8aea6a2' AS a4_v5;
-- B.2 (v8, SHA-256), with erratum EID 7929 applied.
SELECT uuid_generate_v8(uuid_ns_dns(), 'www.example.com') = '5c146b14-3c52-8afd-938a-375d0df1fbf6' AS b2_v8;
-- Custom v8 keeps the 122 given bits: A.3's random bytes, with version 8 in place of 4.
SELECT uuid_generate_v8('\x919108f752d133205bacf847db4148a8'::bytea) = '919108f7-52d1-8320-9bac-f847db4148a8' AS v8_custom;
-- B.1 (v8 time-based) is custom bytes: the whole value is reproduced from its bytes.
SELECT uuid_generate_v8('\x2489e9ad2ee20e000ec932d5f69181c0'::bytea) = '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0' AS b1_v8;
-- A.1 (v1) <-> A.5 (v6), losslessly.
SELECT uuid_v1_to_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846') = '1ec9414c-232a-6b00-b3c8-9f6bdeced846' AS a1_to_a5,
       uuid_v6_to_v1('1ec9414c-232a-6b00-b3c8-9f6bdeced846') = 'c232ab00-9414-11ec-b3c8-9f6bdeced846' AS a5_to_a1;
-- A.1, A.5 and A.6 all denote 2022-02-22 19:22:22 UTC (core's extractor knows no v6: NULL).
SELECT v, uuid_ext_timestamp(v::uuid) = '2022-02-22 19:22:22+00' AS ext_timestamp,
       uuid_extract_timestamp(v::uuid) = '2022-02-22 19:22:22+00' AS core_compatible
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) t(v);
-- Fields of A.1/A.5: clock_seq 0x33C8, node 9F6BDECED846.
SELECT uuid_ext_clock_seq('c232ab00-9414-11ec-b3c8-9f6bdeced846') = x'33c8'::int AS a1_clock_seq,
       uuid_ext_clock_seq('1ec9414c-232a-6b00-b3c8-9f6bdeced846') = x'33c8'::int AS a5_clock_seq,
       uuid_ext_node('c232ab00-9414-11ec-b3c8-9f6bdeced846') = '\x9f6bdeced846'::bytea AS a1_node,
       uuid_ext_node('1ec9414c-232a-6b00-b3c8-9f6bdeced846') = '\x9f6bdeced846'::bytea AS a5_node;
-- Versions and variants of the vectors.
SELECT v, uuid_extract_version(v::uuid) AS version, uuid_ext_variant(v::uuid) AS variant
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'), ('5df41881-3aed-3515-88a7-2f4a814cf09e'),
             ('919108f7-52d1-4320-9bac-f847db4148a8'), ('2ed6657d-e927-568b-95e1-2665a8aea6a2'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846'), ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
             ('2489e9ad-2ee2-8e00-8ec9-32d5f69181c0'), ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('00000000-0000-4000-c000-000000000000')) t(v);
-- URN text out and in (RFC 4122 §3 example value).
SELECT uuid_to_urn('f81d4fae-7dec-11d0-a765-00a0c91e6bf6') AS urn,
       uuid_from_urn('URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6') = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' AS from_urn;

-- RFC 4530 §2.2/§2.3: uuidMatch is equality of all 16 octets and uuidOrderingMatch orders by
-- the octets as unsigned integers, most significant first. PostgreSQL's own = and uuid_ops
-- are exactly that (uuid_ext adds nothing): octet order, not a numeric order of any field,
-- and unsigned octets.
SELECT '00000000-0000-0000-0000-0000000000ff'::uuid < '00000000-0000-0000-0000-000000000100' AS octet_order,
       '80000000-0000-0000-0000-000000000000'::uuid > '7fffffff-ffff-ffff-ffff-ffffffffffff' AS unsigned_octets,
       '0123ABCD-0000-0000-0000-000000000000'::uuid = '{0123abcd-0000-0000-0000-000000000000}' AS match_ignores_spelling,
       'ffffffff-ffff-ffff-ffff-fffffffffffe'::uuid <> 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS last_octet_counts;

-- The edges of each timestamp field (RFC 9562 §5.1, §5.6, §5.7): the Gregorian epoch
-- 1582-10-15 for 60-bit tick 0, the last tick 2^60 - 1 (5236-03-31 21:21:00.6846975, to the
-- microsecond), a tick before the Unix epoch (1900-01-01 is tick 0x163A32F3C230000), and the
-- Unix epoch for v7's millisecond 0.
SELECT uuid_extract_timestamp('00000000-0000-1000-8000-000000000000') = '1582-10-15 00:00:00+00' AS v1_tick_0,
       uuid_extract_timestamp('ffffffff-ffff-1fff-8000-000000000000') = '5236-03-31 21:21:00.684697+00' AS v1_last_tick,
       uuid_extract_timestamp('3c230000-a32f-1163-8000-000000000000') = '1900-01-01 00:00:00+00' AS v1_1900,
       uuid_ext_timestamp('00000000-0000-6000-8000-000000000000') = '1582-10-15 00:00:00+00' AS v6_tick_0,
       uuid_ext_timestamp('ffffffff-ffff-6fff-8000-000000000000') = '5236-03-31 21:21:00.684697+00' AS v6_last_tick,
       uuid_extract_timestamp('00000000-0000-7000-8000-000000000000') = '1970-01-01 00:00:00+00' AS v7_ms_0,
       uuid_v7_to_timestamptz('00000000-0000-7000-8000-000000000000') = '1970-01-01 00:00:00+00' AS v7_to_timestamptz_ms_0;
