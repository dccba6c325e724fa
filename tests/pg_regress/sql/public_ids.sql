-- Public IDs (docs/PUBLIC_IDS.md): a v7's face that looks like a random v4, and back, with
-- uuidv47's construction; the key from a file only the server reads, or as an argument.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all
SET timezone = 'UTC';

-- 1. uuidv47's published example: key k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210.
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\x0123456789abcdeffedcba9876543210')
       = '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f' AS published_face,
       uuid_v7_from_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\x0123456789abcdeffedcba9876543210')
       = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f' AS published_v7;

-- 2. 200,000 v7s, each back from its face: random times, every millisecond edge (the first
-- and last of the v7 range, ms 0 and 2^48 - 1), counters of the default method, all-zero and
-- all-one random bits. Every face is a v4 of the RFC 9562 variant, with the v7's random bits.
CREATE TEMP TABLE v7s AS
SELECT uuid_generate_v7() AS id FROM generate_series(1, 80000)
UNION ALL SELECT id FROM uuid_generate_v7_batch(80000) id
UNION ALL SELECT uuid_timestamptz_to_v7('1970-01-01 00:00:00+00'::timestamptz + random() * interval '8000 years')
          FROM generate_series(1, 39990)
UNION ALL VALUES ('00000000-0000-7000-8000-000000000000'::uuid), ('00000000-0000-7fff-bfff-ffffffffffff'),
          ('ffffffff-ffff-7000-8000-000000000000'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
          ('00000000-0001-7000-8000-000000000000'), ('00000000-0000-7000-8000-000000000001'),
          ('7fffffff-ffff-7abc-9def-0123456789ab'), ('80000000-0000-7abc-9def-0123456789ab'),
          ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'), ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT count(*) AS v7s,
       count(*) FILTER (WHERE uuid_v7_from_public(uuid_v7_to_public(id, k), k) = id) AS back,
       count(*) FILTER (WHERE uuid_extract_version(uuid_v7_to_public(id, k)) = 4
                          AND uuid_ext_variant(uuid_v7_to_public(id, k)) = 'RFC 9562') AS v4_faces,
       count(*) FILTER (WHERE right(uuid_v7_to_public(id, k)::text, 17) = right(id::text, 17)
                          AND substr(uuid_v7_to_public(id, k)::text, 16, 3) = substr(id::text, 16, 3)) AS random_bits_kept,
       count(DISTINCT uuid_v7_to_public(id, k)) = count(DISTINCT id) AS one_face_each
FROM v7s, (VALUES ('\x000102030405060708090a0b0c0d0e0f'::bytea)) key(k);
-- Another key gives another face, and a face read with the wrong key another, plausible, v7.
SELECT uuid_v7_to_public(id, '\x000102030405060708090a0b0c0d0e0f') <> uuid_v7_to_public(id, '\x0f0e0d0c0b0a09080706050403020100') AS keyed,
       uuid_extract_version(uuid_v7_from_public(uuid_v7_to_public(id, '\x000102030405060708090a0b0c0d0e0f'), '\x0f0e0d0c0b0a09080706050403020100')) AS wrong_key_still_v7
FROM (VALUES ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'::uuid)) v(id);

-- 3. NULL where uuid_ext gives NULL (as uuid_v1_to_v6): a UUID that is not a v7 (to) or not a
-- v4 (from), of the RFC 9562 variant; STRICT for NULL input.
SELECT uuid_v7_to_public(x, '\x000102030405060708090a0b0c0d0e0f') AS to_public,
       uuid_v7_from_public(x, '\x000102030405060708090a0b0c0d0e0f') AS from_public
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('018f2d9f-9a2a-7def-0c3f-7b1a2c4d5e6f'), ('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
             ('919108f7-52d1-4320-cbac-f847db4148a8'), (NULL)) v(x);
-- A key that is not 16 bytes: 22023, and the message shows no key.
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\x0123456789abcdeffedcba98765432')$q$);
SELECT pg_temp.err($q$SELECT uuid_v7_from_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\x')$q$);

-- 4. The server's key. Without it: 55000, with how to set it.
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);
-- A superuser writes the key file, readable by the server's user alone, and names it.
SELECT current_setting('data_directory') || '/uuid_ext_public_ids.keys' AS key_file \gset
\set write_keys 'umask 077 && cat > ' :key_file
\set chmod_644 'chmod 644 ' :key_file
\set remove 'rm ' :key_file
COPY (VALUES ('# the key faces are made with first'), ('0123456789abcdeffedcba9876543210')) TO PROGRAM :'write_keys';
ALTER SYSTEM SET uuid_ext.public_id_key_file = :'key_file';
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') = '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f' AS face,
       uuid_v7_from_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f') = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f' AS v7,
       uuid_v7_from_public_all('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f') = '{018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f}' AS all_keys,
       uuid_v7_to_public(uuid_nil()) IS NULL AND uuid_v7_from_public_all(uuid_nil()) IS NULL AS null_for_others;
-- The short forms work on faces as on any UUID: what an API shows.
SELECT uuid_to_typeid('user', uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) AS api_id,
       uuid_v7_from_public(uuid_from_typeid(uuid_to_typeid('user', uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')), 'user'))
       = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f' AS back_from_api;

-- 5. Three roles: an application maps both ways without being able to read the key anywhere;
-- a role without EXECUTE gets 42501 (PUBLIC has no EXECUTE on the server-key functions).
CREATE ROLE public_ids_app;
CREATE ROLE public_ids_other;
GRANT EXECUTE ON FUNCTION uuid_v7_to_public(uuid), uuid_v7_from_public(uuid), uuid_v7_from_public_all(uuid) TO public_ids_app;
SET ROLE public_ids_app;
SELECT uuid_v7_from_public(uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f' AS app_maps;
-- (PostgreSQL's own messages for these differ between majors: their SQLSTATEs.)
SELECT left(pg_temp.err($q$SHOW uuid_ext.public_id_key_file$q$), 5) AS show;
SELECT left(pg_temp.err($q$SELECT current_setting('uuid_ext.public_id_key_file')$q$), 5) AS current_setting;
SELECT count(*) AS settings_rows_showing_it FROM pg_settings WHERE name = 'uuid_ext.public_id_key_file' AND setting IS NOT NULL;
SELECT pg_temp.err($q$SELECT count(*) AS file_settings_rows FROM pg_file_settings WHERE name = 'uuid_ext.public_id_key_file'$q$);
SELECT pg_temp.err(format('SELECT pg_read_file(%L)', :'key_file'));
SELECT pg_temp.err($q$SET uuid_ext.public_id_key_file = '/tmp/mine'$q$);
RESET ROLE;
SET ROLE public_ids_other;
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);
SELECT pg_temp.err($q$SELECT uuid_v7_from_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f')$q$);
SELECT pg_temp.err($q$SELECT uuid_v7_from_public_all('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f')$q$);
RESET ROLE;

-- 6. Rotation: a new key first, the old one after it. Faces are made with the new key; a face
-- made with the old one is found among the candidates (one per key), as a lookup does:
-- WHERE id = ANY (uuid_v7_from_public_all($1)). The file is read anew when it changes (each
-- backend looks again a second after its last look).
CREATE TEMP TABLE accounts (id uuid PRIMARY KEY);
INSERT INTO accounts VALUES ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
COPY (VALUES ('00112233445566778899aabbccddeeff'), ('0123456789abcdeffedcba9876543210')) TO PROGRAM :'write_keys';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') <> '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f' AS new_key_makes_faces,
       uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') = uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\x00112233445566778899aabbccddeeff') AS with_the_first_key,
       cardinality(uuid_v7_from_public_all('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f')) AS candidates,
       (SELECT count(*) FROM accounts WHERE id = ANY (uuid_v7_from_public_all('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'))) AS old_face_found,
       (SELECT count(*) FROM accounts WHERE id = ANY (uuid_v7_from_public_all(uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')))) AS new_face_found;

-- 7. A key file that is not one: each F0000, naming neither the path nor any content.
COPY (VALUES ('0123456789abcdeffedcba9876543210'), ('not a key: 0123456789abcdef')) TO PROGRAM :'write_keys';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);
COPY (VALUES ('# nothing but comments'), ('')) TO PROGRAM :'write_keys';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);
COPY (VALUES ('0123456789abcdeffedcba9876543210')) TO PROGRAM :'write_keys';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
COPY (SELECT 1) TO PROGRAM :'chmod_644';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);
\set chmod_600 'chmod 600 ' :key_file
COPY (SELECT 1) TO PROGRAM :'chmod_600';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') = '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f' AS fixed;
COPY (SELECT 1) TO PROGRAM :'remove';
SELECT pg_sleep(1.1);  -- backends look at the file again after a second
SELECT pg_temp.err($q$SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')$q$);

ALTER SYSTEM RESET uuid_ext.public_id_key_file;
SELECT pg_reload_conf();
REVOKE EXECUTE ON FUNCTION uuid_v7_to_public(uuid), uuid_v7_from_public(uuid), uuid_v7_from_public_all(uuid) FROM public_ids_app;
DROP ROLE public_ids_app;
DROP ROLE public_ids_other;
