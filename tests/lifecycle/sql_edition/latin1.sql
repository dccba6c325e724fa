-- The SQL edition (schema s) against uuid_ext (schema n) in a LATIN1 database: names hashed
-- as the bytes of the database encoding, and messages that show non-ASCII input (escaped as
-- \xNN outside UTF-8, at most 100 bytes). Prints "ok - …" / "not ok - …" lines.
\set ON_ERROR_STOP 1
SET client_encoding = 'UTF8';
\ir lib.sql
DROP TABLE IF EXISTS t.latin1_cases;
CREATE TABLE t.latin1_cases (q text);
INSERT INTO t.latin1_cases
SELECT format('SELECT %%s.%s', call)
FROM unnest(ARRAY[
    format('uuid_generate_v3(uuid_nil(), %L)', 'café'),
    format('uuid_generate_v5(uuid_ns_dns(), %L)', 'Ærøskøbing.example'),
    format('uuid_generate_v8(uuid_ns_url(), %L)', 'naïve'),
    format('uuid_decode(%L, ''hex'')', '017f22e279b07cc398c4dc0c0c0739é'),
    format('uuid_decode(%L, ''crockford'')', repeat('ü', 120)),
    format('uuid_decode(%L, ''base32hex'')', 'ÿ' || repeat('x', 99) || 'tail'),
    format('uuid_decode(''x'', %L)', 'hëx'),
    format('uuid_from_urn(%L)', 'urn:uuid:' || repeat('é', 40)),
    format('uuid_to_typeid(%L, uuid_nil())', 'ñame'),
    format('uuid_from_typeid(%L)', 'usér_01h455vb4pex5vsknk084sn02q'),
    format('uuid_from_typeid(%L, %L)', 'user_01h455vb4pex5vsknk084sn02q', 'ùser'),
    format('uuid_typeid_prefix(%L)', 'user_01h455vb4pex5vsknk084sn0ßq')
]) call;
SELECT t.report('LATIN1 database: name-based values and messages with non-ASCII input', count(*),
                array_agg(q || ': ' || a || ' / ' || b) FILTER (WHERE a IS DISTINCT FROM b))
FROM (SELECT q, t.outcome(format(q, 'n')) a, t.outcome(format(q, 's')) b FROM t.latin1_cases) c;
