-- Non-UTF-8 databases (LATIN1, SQL_ASCII): name-based UUIDs hash the text's bytes in the
-- database encoding, exactly as uuid-ossp does there, and text input never raises an internal
-- error (XX000). The names are written here as bytes, so the file's own encoding plays no part.
CREATE DATABASE uuid_ext_latin1 ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';
CREATE DATABASE uuid_ext_sql_ascii ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';

\c uuid_ext_latin1
SET client_encoding = 'LATIN1';
CREATE EXTENSION uuid_ext;
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
SHOW server_encoding;
-- 'café' and 'Ærø' in LATIN1 (é = e9, Æ = c6, ø = f8), and the empty name.
CREATE TEMP TABLE names AS
SELECT convert_from(b, 'LATIN1') AS name, b FROM (VALUES ('\x636166e9'::bytea), ('\xc672f8'), ('\x')) t(b);
SELECT b AS name_bytes,
       uuid_generate_v3(uuid_ns_dns(), name) = ossp.uuid_generate_v3(ossp.uuid_ns_dns(), name) AS v3_as_ossp,
       uuid_generate_v5(uuid_ns_url(), name) = ossp.uuid_generate_v5(ossp.uuid_ns_url(), name) AS v5_as_ossp,
       -- v3 by hand: MD5 of namespace and name bytes, version 3 and variant bits set (RFC 9562 §5.3).
       uuid_send(uuid_generate_v3(uuid_ns_dns(), name)) = set_byte(set_byte(
           decode(md5(uuid_send(uuid_ns_dns()) || b), 'hex'), 6,
           (get_byte(decode(md5(uuid_send(uuid_ns_dns()) || b), 'hex'), 6) & 15) | 48), 8,
           (get_byte(decode(md5(uuid_send(uuid_ns_dns()) || b), 'hex'), 8) & 63) | 128) AS v3_by_hand,
       uuid_extract_version(uuid_generate_v8(uuid_ns_dns(), name)) AS v8
FROM names;
-- Not the hash of the UTF-8 spelling: the bytes are the database's.
SELECT uuid_generate_v5(uuid_ns_dns(), convert_from('\x636166e9', 'LATIN1'))
       <> uuid_generate_v5(uuid_ns_dns(), convert_from('\x636166c3a9', 'LATIN1')) AS latin1_not_utf8;
-- URN input: a non-ASCII byte is an ordinary syntax error (22P02), shown escaped.
SELECT uuid_from_urn(convert_from('\x75726e3a757569643ae9', 'LATIN1'));
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_from_urn(convert_from('\x55524e3a757569643a', 'LATIN1') || 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6')
       = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' AS urn_parsed;
-- Text forms: a LATIN1 character (NBSP a0, £ a3, ° b0, © a9, µ b5: bytes that UTF-8 uses only
-- inside a character) is a symbol outside the alphabet, never skipped.
CREATE FUNCTION pg_temp.sqlstate_of(t text, f text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM uuid_decode(t, f);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
SELECT f, pg_temp.sqlstate_of(convert_from(b, 'LATIN1'), f) AS sqlstate
FROM (VALUES ('base32hex', '\x3035564935a34f4a504d31554337363634524736304f31505048b053b5'::bytea),
             ('hex', '\xa0303137663232653237396230376363333938633464633063306330373339386680'),
             ('base64url', '\x4158386934bf6e6d77664d4f59784e774d44416335a96a77'),
             ('crockford', '\x3031465748453459444746'
                           '4b3153484836573147363045454343e9')) t(f, b);
-- TypeID: a LATIN1 byte in the suffix is the suffix's fault; in the prefix, the prefix's.
SELECT uuid_from_typeid(convert_from('\x757365725f377a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7ae9', 'LATIN1'));
SELECT uuid_from_typeid(convert_from('\x75e9725f3031683435357662347065783576736b6e6b303834736e303271', 'LATIN1'));
SELECT uuid_to_typeid(convert_from('\x75e972', 'LATIN1'), uuid_nil());
\echo :LAST_ERROR_SQLSTATE
-- The server-assigned key trigger on a table and a column whose names are not UTF-8 (é = e9).
SELECT format('CREATE TABLE %I (%I uuid, n int)', convert_from('\x746162e9', 'LATIN1'), convert_from('\x636ce9', 'LATIN1')) AS ddl \gset
:ddl;
SELECT format('CREATE TRIGGER k BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION uuid_ext_server_assigned(%L)',
              convert_from('\x746162e9', 'LATIN1'), convert_from('\x636ce9', 'LATIN1')) AS ddl \gset
:ddl;
SELECT format('INSERT INTO %I (n) VALUES (1), (2)', convert_from('\x746162e9', 'LATIN1')) AS dml \gset
:dml;
SELECT format('SELECT count(*) AS assigned, bool_and(uuid_extract_version(%I) = 7) AS v7 FROM %I',
              convert_from('\x636ce9', 'LATIN1'), convert_from('\x746162e9', 'LATIN1')) AS q \gset
:q;
SELECT format('INSERT INTO %I VALUES (uuid_nil(), 3)', convert_from('\x746162e9', 'LATIN1')) AS dml \gset
:dml;
\echo :LAST_ERROR_SQLSTATE

\c uuid_ext_sql_ascii
CREATE EXTENSION uuid_ext;
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
SHOW server_encoding;
-- SQL_ASCII stores any byte as given: e9 alone is not UTF-8.
CREATE TEMP TABLE names AS
SELECT convert_from(b, 'SQL_ASCII') AS name, b FROM (VALUES ('\x636166e9'::bytea), ('\xff'), ('\x636166c3a9')) t(b);
SELECT b AS name_bytes,
       uuid_generate_v3(uuid_ns_oid(), name) = ossp.uuid_generate_v3(ossp.uuid_ns_oid(), name) AS v3_as_ossp,
       uuid_generate_v5(uuid_ns_x500(), name) = ossp.uuid_generate_v5(ossp.uuid_ns_x500(), name) AS v5_as_ossp,
       uuid_extract_version(uuid_generate_v8(uuid_ns_dns(), name)) AS v8
FROM names;
SELECT uuid_from_urn(convert_from('\x75726e3a757569643ae9', 'SQL_ASCII'));
\echo :LAST_ERROR_SQLSTATE

\c postgres
DROP DATABASE uuid_ext_latin1;
DROP DATABASE uuid_ext_sql_ascii;
