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
