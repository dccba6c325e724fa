-- The SQL edition (schema s) against uuid_ext (schema n), in one database: makes the inputs
-- (t.uuids, t.times, t.cases), then compares (compare.sql) every deterministic function on
-- them, and the outcome (value, or SQLSTATE, message, DETAIL and HINT) of every kind of bad
-- input. Prints one "ok - …" / "not ok - …" line per comparison, with the first differing
-- inputs when there are any. Run by tests/lifecycle/sql_edition.sh, which runs compare.sql
-- again in sessions whose settings differ.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
SET TimeZone = 'UTC';

\ir lib.sql

-- ---- inputs -------------------------------------------------------------------------------
-- 40,000 random UUIDs of every version (0-15) and variant class (about 600 of each of the 64),
-- plus the values at the edges.
DROP TABLE IF EXISTS t.uuids;
CREATE TABLE t.uuids AS
SELECT pg_catalog.encode(pg_catalog.set_byte(pg_catalog.set_byte(b, 6, (pg_catalog.get_byte(b, 6) & 15) | ((g % 16) << 4)),
                         8, (pg_catalog.get_byte(b, 8) & (ARRAY[127, 63, 31, 31])[(g / 16) % 4 + 1])
                            | (ARRAY[0, 128, 192, 224])[(g / 16) % 4 + 1]), 'hex')::uuid AS x
FROM (SELECT g, pg_catalog.uuid_send(gen_random_uuid()) AS b FROM generate_series(0, 39999) g) r;
INSERT INTO t.uuids VALUES
    ('00000000-0000-0000-0000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
    -- RFC 9562 Appendix A and B
    ('C232AB00-9414-11EC-B3C8-9F6BDECED846'), ('000003E8-9414-21EC-B200-9F6BDECED846'),
    ('5df41881-3aed-3515-88a7-2f4a814cf09e'), ('919108f7-52d1-4320-9bac-f847db4148a8'),
    ('2ed6657d-e927-568b-95e1-2665a8aea6a2'), ('1EC9414C-232A-6B00-B3C8-9F6BDECED846'),
    ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'), ('2489E9AD-2EE2-8E00-8EC9-32D5F69181C0'),
    ('5c146b14-3c52-8afd-938a-375d0df1fbf6'),
    -- v7: the first and last millisecond, every variant class
    ('00000000-0000-7000-8000-000000000000'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
    ('ffffffff-ffff-7fff-7fff-ffffffffffff'), ('ffffffff-ffff-7fff-cfff-ffffffffffff'),
    ('ffffffff-ffff-7fff-ffff-ffffffffffff'), ('00000000-0001-7000-8000-000000000000'),
    -- v1 and v6: Gregorian time 0, the last 100 ns, around 1970
    ('00000000-0000-1000-8000-000000000000'), ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
    ('00000000-0000-6000-8000-000000000000'), ('ffffffff-ffff-6fff-bfff-ffffffffffff'),
    ('13813fff-1dd2-11b2-8000-000000000000'), ('13814000-1dd2-11b2-8000-000000000000'),
    ('13814001-1dd2-11b2-8000-000000000000'), ('1b21dd21-3813-6fff-8000-000000000000'),
    ('1b21dd21-3814-6000-8000-000000000000'), ('1b21dd21-3814-6001-8000-000000000000');
-- v1, v6 and v7 of the RFC variant at random times, microsecond and millisecond edges
INSERT INTO t.uuids
SELECT n.uuid_timestamptz_to_v7(ts, g % 2 = 0) FROM (
    SELECT g, timestamptz '1970-01-01 00:00:00+00' + (random() * 280000000000000) * interval '1 millisecond' AS ts
    FROM generate_series(1, 2000) g) r
UNION ALL
SELECT n.uuid_v6_to_v1(u) FROM (SELECT n.uuid_time_lower_bound(timestamptz '1582-10-15 00:00:00+00' + random() * interval '3600 years') AS u
                                FROM generate_series(1, 2000)) r WHERE n.uuid_extract_version(u) = 6
UNION ALL
SELECT n.uuid_time_upper_bound(timestamptz '1582-10-15 00:00:00+00' + random() * interval '3600 years') FROM generate_series(1, 2000);
ANALYZE t.uuids;

-- Timestamps at every edge the native tests use.
DROP TABLE IF EXISTS t.times;
CREATE TABLE t.times (ts timestamptz);
INSERT INTO t.times VALUES ('-infinity'), ('infinity'), ('4713-01-01 00:00:00+00 BC'), ('0001-01-01 00:00:00+00'),
    ('1582-10-14 23:59:59.999999+00'), ('1582-10-15 00:00:00+00'), ('1582-10-15 00:00:00.000001+00'),
    ('1969-12-31 23:59:59.999+00'), ('1969-12-31 23:59:59.999999+00'), ('1970-01-01 00:00:00+00'),
    ('1970-01-01 00:00:00.000001+00'), ('1970-01-01 00:00:00.001+00'), ('1970-01-01 00:00:00.000999+00'),
    ('2022-02-22 19:22:22+00'), ('2022-02-22 19:22:22.000001+00'), ('2022-02-22 19:22:21.999999+00'),
    ('5236-03-31 21:21:00.684697+00'), ('5236-03-31 21:21:00.684698+00'), ('5236-03-31 21:21:00.6847+00'),
    ('10889-08-02 05:31:50.654999+00'), ('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.655001+00'),
    ('10889-08-02 05:31:50.656+00'), ('294276-12-31 23:59:59.999999+00');
INSERT INTO t.times
SELECT timestamptz '1500-01-01 00:00:00+00' + random() * interval '9500 years' FROM generate_series(1, 3000)
UNION ALL
SELECT date_trunc('millisecond', timestamptz '1970-01-01 00:00:00+00' + random() * interval '100 years') + d * interval '1 microsecond'
FROM generate_series(1, 300), unnest(ARRAY[-1, 0, 1]) d;

-- ---- bad input: outcomes --------------------------------------------------------------------
-- Statements with %s for the schema; each compared by its outcome.
DROP TABLE IF EXISTS t.cases;
-- A nondeterministic collation needs ICU, which some builds lack (PyPI's 18).
DO $$ BEGIN
    CREATE COLLATION IF NOT EXISTS t.ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;
CREATE TABLE t.cases (q text, mutated boolean NOT NULL DEFAULT false);
-- Text that is almost a form: each encoding of some UUIDs, mutated.
INSERT INTO t.cases
SELECT format('SELECT %%s.uuid_decode(%L, %L)', m, f), true
FROM (SELECT x FROM t.uuids ORDER BY random() LIMIT 400) u,
     unnest('{hex,base32hex,base64url,crockford}'::text[]) f,
     LATERAL (SELECT n.uuid_encode(x, f) AS e) e,
     LATERAL (SELECT i FROM generate_series(1, 5) i) k,
     LATERAL (SELECT (ARRAY[' ', E'\n', E'\t', '=', '==', '======', 'é', '-', '_', '+', '/', 'I', 'L', 'O', 'U', 'W', 'Z', 'z', '8', '0', E'\r', E'\x0c', 'ß', '😀'])[1 + floor(random() * 24)::int] AS c,
                     1 + floor(random() * (length(e) + 1))::int AS p, floor(random() * 5)::int AS how) r,
     LATERAL (SELECT CASE how WHEN 0 THEN overlay(e PLACING c FROM p FOR 0)        -- insert
                              WHEN 1 THEN overlay(e PLACING c FROM p FOR 1)        -- replace
                              WHEN 2 THEN overlay(e PLACING '' FROM p FOR 1)       -- delete
                              WHEN 3 THEN e || c                                   -- append
                              ELSE lower(overlay(e PLACING c || c FROM p FOR 0)) END AS m) mm;
-- Hand-picked ones, for every text function.
INSERT INTO t.cases (q) VALUES
    ('SELECT %s.uuid_decode(''017f22e279b07cc398c4dc0c0c07398f'', ''base64'')'),
    ('SELECT %s.uuid_decode(''017f22e279b07cc398c4dc0c0c07398f'', ''he' || chr(383) || ''')'),
    ('SELECT %s.uuid_decode(''x'', ''' || repeat('é', 80) || ''')'),
    ('SELECT %s.uuid_decode(''x'', '' hex'')'),
    ('SELECT %s.uuid_decode(''x'', '''')'),
    ('SELECT %s.uuid_from_bytea(''''::bytea)'),
    ('SELECT %s.uuid_from_bytea(pg_catalog.decode(''00112233445566778899aabbccddee'', ''hex''))'),
    ('SELECT %s.uuid_from_bytea(pg_catalog.decode(''00112233445566778899aabbccddeeff00'', ''hex''))'),
    ('SELECT %s.uuid_encode(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'', ''ulid'')'),
    ('SELECT %s.uuid_decode(''01 7f22e279b07cc398c4dc0c0c07398f'', ''hex'')'),
    ('SELECT %s.uuid_decode(''0 17f22e279b07cc398c4dc0c0c07398f'', ''hex'')'),
    ('SELECT %s.uuid_decode(''05VI5OJPM1UC7664RG60O1PPHS======'', ''base32hex'')'),
    ('SELECT %s.uuid_decode(''05VI5OJPM1UC7664RG60O1PPHS====='', ''base32hex'')'),
    ('SELECT %s.uuid_decode(''05VI5OJPM1UC7664RG60O1PPHS='', ''base32hex'')'),
    ('SELECT %s.uuid_decode(''05VI5OJPM1UC7664RG60O1PP=HS'', ''base32hex'')'),
    ('SELECT %s.uuid_decode(''05VI5OJPM1UC7664RG60O1PPHT'', ''base32hex'')'),
    ('SELECT %s.uuid_decode(''AX8i4nmwfMOYxNwMDAc5jx'', ''base64url'')'),
    ('SELECT %s.uuid_decode(''AX8i4nmwfMOYxNwMDAc5jw=='', ''base64url'')'),
    ('SELECT %s.uuid_decode(''AX8i4nmwfMOYxNwMDAc5jw='', ''base64url'')'),
    ('SELECT %s.uuid_decode(''8ZZZZZZZZZZZZZZZZZZZZZZZZZ'', ''crockford'')'),
    ('SELECT %s.uuid_decode(''7ZZZZZZZZZZZZZZZZZZZZZZZZZ'', ''crockford'')'),
    ('SELECT %s.uuid_decode('' 01ARZ3NDEKTSV4RRFFQ69G5FA'', ''crockford'')'),
    ('SELECT %s.uuid_decode(''01arz3ndektsv4rrffq69g5fav'', ''CROCKFORD'')'),
    ('SELECT %s.uuid_decode('''', ''base64url'')'),
    ('SELECT %s.uuid_decode(' || quote_literal(repeat('x', 99) || 'é' || 'yyy') || ', ''hex'')'),
    ('SELECT %s.uuid_decode(' || quote_literal(repeat('x', 98) || 'é' || 'yyy') || ', ''hex'')'),
    ('SELECT %s.uuid_decode(' || quote_literal(repeat('x', 100)) || ', ''hex'')'),
    ('SELECT %s.uuid_decode(' || quote_literal(repeat('x', 101)) || ', ''hex'')'),
    ('SELECT %s.uuid_decode(' || quote_literal(repeat('😀', 30)) || ', ''crockford'')'),
    -- Case folded without the locale: in a Turkish collation upper('i') is 'İ' and lower('I')
    -- 'ı' (the collation exists where the server has ICU; elsewhere both sides say it does not).
    ('SELECT %s.uuid_decode(''01arz3ndektsv4rrffq69g5fav'' COLLATE "tr-x-icu", ''crockford'')'),
    ('SELECT %s.uuid_decode(''01arz3ndektsv4rrffq69g5fiv'' COLLATE "tr-x-icu", ''crockford'')'),
    ('SELECT %s.uuid_decode(''017f22e279b07cc398c4dc0c0c07398f'', ''HEX'' COLLATE "tr-x-icu")'),
    ('SELECT %s.uuid_from_urn(''URN:UUID:017F22E2-79B0-7CC3-98C4-DC0C0C07398F'' COLLATE "tr-x-icu")'),
    ('SELECT %s.uuid_from_typeid(''user_01arz3ndektsv4rrffq69g5fav'' COLLATE "tr-x-icu", ''user'')'),
    -- A nondeterministic collation (case-insensitive: 'HEX' = 'hex' under it) on every text
    -- argument: the same answers as under C, and a case it would call equal still refused.
    ('SELECT %s.uuid_decode(''017F22E279B07CC398C4DC0C0C07398F'' COLLATE t.ci, ''HEX'' COLLATE t.ci)'),
    ('SELECT %s.uuid_decode(''01arz3ndektsv4rrffq69g5fiv'' COLLATE t.ci, ''crockford'')'),
    ('SELECT %s.uuid_decode(''01ARZ3NDEKTSV4RRFFQ69G5FAV'' COLLATE t.ci, ''Crockford'' COLLATE t.ci)'),
    ('SELECT %s.uuid_decode(''AX8i4nmwfMOYxNwMDAc5jw'' COLLATE t.ci, ''base64url'')'),
    ('SELECT %s.uuid_decode(''0' || repeat(' ', 3) || '17f22e279b07cc398c4dc0c0c07398f'' COLLATE t.ci, ''hex'')'),
    ('SELECT %s.uuid_encode(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'', ''BASE32HEX'' COLLATE t.ci)'),
    ('SELECT %s.uuid_encode(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'', ''hexa'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_urn(''URN:UUID:017F22E2-79B0-7CC3-98C4-DC0C0C07398F'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398g'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_typeid(''User_01h455vb4pex5vsknk084sn02q'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_typeid(''user_01H455VB4PEX5VSKNK084SN02Q'' COLLATE t.ci)'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'' COLLATE t.ci, ''user'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'', ''USER'' COLLATE t.ci)'),
    ('SELECT %s.uuid_typeid_prefix(''a_b_01h455vb4pex5vsknk084sn02q'' COLLATE t.ci)'),
    ('SELECT %s.uuid_to_typeid(''user'' COLLATE t.ci, ''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')'),
    ('SELECT %s.uuid_to_typeid(''User'' COLLATE t.ci, ''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')'),
    ('SELECT %s.uuid_generate_v5(''6ba7b810-9dad-11d1-80b4-00c04fd430c8'', ''www.Example.com'' COLLATE t.ci)'),
    -- Long text: the same error, in time linear in its length.
    ('SELECT %s.uuid_decode(repeat(''0'', 1000000), ''hex'')'),
    ('SELECT %s.uuid_decode(repeat(''é'', 300000), ''crockford'')'),
    ('SELECT %s.uuid_from_urn(repeat(''u'', 1000000))'),
    ('SELECT %s.uuid_from_typeid(repeat(''a'', 1000000))'),
    ('SELECT %s.uuid_generate_v3(''6ba7b810-9dad-11d1-80b4-00c04fd430c8''::uuid, repeat(''x'', 1000000)) IS NOT NULL'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')'),
    ('SELECT %s.uuid_from_urn(''URN:UUID:017F22E2-79B0-7CC3-98C4-DC0C0C07398F'')'),
    ('SELECT %s.uuid_from_urn(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}'')'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:017f22e279b07cc398c4dc0c0c07398f'')'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f '')'),
    ('SELECT %s.uuid_from_urn(''urn:uuıd:017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')'),
    ('SELECT %s.uuid_from_urn(''urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398g'')'),
    ('SELECT %s.uuid_from_urn(' || quote_literal('urn:uuid:' || repeat('é', 60)) || ')'),
    ('SELECT %s.uuid_to_typeid(''User'', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(''_user'', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(''user_'', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(''é'', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(' || quote_literal(repeat('a', 64)) || ', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(' || quote_literal(repeat('a', 63)) || ', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_to_typeid(' || quote_literal(repeat('A', 64)) || ', ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid(''_01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid(''User_01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid(''user__01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid(''user_01H455VB4PEX5VSKNK084SN02Q'')'),
    ('SELECT %s.uuid_from_typeid(''user_81h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02qq'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn0éq'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn0iq'')'),
    ('SELECT %s.uuid_from_typeid(''01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_from_typeid('''')'),
    ('SELECT %s.uuid_from_typeid(''_'')'),
    ('SELECT %s.uuid_from_typeid(' || quote_literal(repeat('a', 64) || '_01h455vb4pex5vsknk084sn02q') || ')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'', ''user'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'', ''post'')'),
    ('SELECT %s.uuid_from_typeid(''user_01h455vb4pex5vsknk084sn02q'', ''é'')'),
    ('SELECT %s.uuid_from_typeid(''01h455vb4pex5vsknk084sn02q'', '''')'),
    ('SELECT %s.uuid_from_typeid(''01h455vb4pex5vsknk084sn02q'', ''user'')'),
    ('SELECT %s.uuid_typeid_prefix(''user_01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_typeid_prefix(''01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_typeid_prefix(''a_b_01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_typeid_prefix(''user-01h455vb4pex5vsknk084sn02q'')'),
    ('SELECT %s.uuid_v7_to_public(''018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'', pg_catalog.decode(''0123456789abcdeffedcba98765432'', ''hex''))'),
    ('SELECT %s.uuid_v7_from_public(''2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'', pg_catalog.decode(''0123456789abcdeffedcba9876543210ff'', ''hex''))'),
    ('SELECT %s.uuid_v7_from_public(''00000000-0000-0000-0000-000000000000''::uuid, pg_catalog.decode('''', ''hex''))'),
    ('SELECT %s.uuid_v7_to_public(''00000000-0000-0000-0000-000000000000''::uuid, pg_catalog.decode(''0123456789abcdeffedcba9876543210'', ''hex''))'),
    ('SELECT %s.uuid_v7_to_public(NULL, pg_catalog.decode(''0123456789abcdeffedcba9876543210'', ''hex''))'),
    ('SELECT %s.uuid_v7_from_public(''2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'', NULL)'),
    ('SELECT %s.uuid_generate_v8(pg_catalog.decode(''00'', ''hex''))'),
    ('SELECT %s.uuid_generate_v8(pg_catalog.decode('''', ''hex''))'),
    ('SELECT %s.uuid_generate_v8(pg_catalog.decode(''00112233445566778899aabbccddeeff00'', ''hex''))'),
    ('SELECT count(*) FROM %s.uuid_generate_v7_batch(-1)'),
    ('SELECT count(*) FROM %s.uuid_generate_v7_batch(0)'),
    ('SELECT %s.uuid_generate_v7(interval ''-60 years'')'),
    ('SELECT %s.uuid_generate_v7(interval ''9000 years'')'),
    -- (past year 6429, where a v7 tick times 65536 leaves int8)
    ('SELECT %s.uuid_generate_v7(interval ''8000 years'')'),
    ('SELECT %s.uuid_generate_v7(interval ''300000 years'')'),
    ('SELECT %s.uuidv7(interval ''-300000 years'')'),
    ('SELECT %s.uuid_timestamptz_to_v7(''infinity'')'),
    ('SELECT %s.uuid_timestamptz_to_v7(''-infinity'', true)'),
    ('SELECT %s.uuid_timestamp_to_v7(''1969-12-31 23:59:59.999'')'),
    ('SELECT %s.uuid_timestamp_to_v7(''10889-08-02 05:31:50.655'', true)'),
    ('SELECT %s.uuid_timestamp_to_v7(''10889-08-02 05:31:50.656'', true)'),
    ('SELECT %s.uuid_encode(NULL, ''hex'')'),
    ('SELECT %s.uuid_decode(NULL, ''hex'')'),
    ('SELECT %s.uuid_decode(''x'', NULL)'),
    ('SELECT %s.uuid_extract_timestamp(NULL)'),
    ('SELECT %s.uuid_time_cmp(NULL, ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_generate_v5(NULL, ''x'')'),
    ('SELECT %s.uuid_generate_v3(''00000000-0000-0000-0000-000000000000''::uuid, NULL)'),
    ('SELECT %s.uuid_to_typeid(NULL, ''00000000-0000-0000-0000-000000000000''::uuid)'),
    ('SELECT %s.uuid_v7_lower_bound(NULL)'),
    ('SELECT %s.uuid_timestamptz_to_v7(NULL)'),
    ('SELECT %s.uuid_timestamptz_to_v7(now(), NULL)'),
    ('SELECT count(*) FROM %s.uuid_generate_v7_batch(NULL)'),
    ('SELECT %s.uuid_generate_v7(NULL::interval)');
-- PostgreSQL 17 and later have infinite intervals.
DO $$ BEGIN
    IF current_setting('server_version_num')::int >= 170000 THEN
        INSERT INTO t.cases VALUES ('SELECT %s.uuid_generate_v7(interval ''infinity'')'), ('SELECT %s.uuidv7(interval ''-infinity'')');
    END IF;
END $$;

-- A build without ICU has neither collation of the cases that name one: those are skipped,
-- and said so (they would fail alike in both editions, before reaching either).
CREATE TEMP TABLE missing_collations AS
SELECT c FROM unnest(ARRAY['"tr-x-icu"', 't.ci']) c WHERE to_regcollation(c) IS NULL;
SELECT 'skipped - ' || count(*) || ' cases under ' || string_agg(DISTINCT m.c, ', ')
       || ', which this PostgreSQL lacks (built without ICU)'
FROM t.cases JOIN missing_collations m ON strpos(q, 'COLLATE ' || m.c) > 0
HAVING count(*) > 0;
DELETE FROM t.cases USING missing_collations m WHERE strpos(q, 'COLLATE ' || m.c) > 0;

\ir compare.sql
