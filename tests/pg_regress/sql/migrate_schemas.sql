-- uuid_ext_migrate_from() in the schemas real databases have: partitioned and inherited tables
-- (defaults, CHECK constraints with comments, trigger WHEN clauses), and neighbours it must not
-- touch — pgcrypto, which it cannot replace, installed beside uuid-ossp. Each case failed in
-- 0.2.0 (issue 18). In a database of its own, with uuid-ossp moved aside as README says.
SET client_min_messages = warning;
DROP DATABASE IF EXISTS uuid_ext_migrate;
RESET client_min_messages;
CREATE DATABASE uuid_ext_migrate;
\c uuid_ext_migrate
CREATE SCHEMA uuid_ext_retired;
CREATE EXTENSION "uuid-ossp" SCHEMA uuid_ext_retired;
CREATE EXTENSION pgcrypto;
CREATE TABLE ev (id uuid DEFAULT uuid_ext_retired.uuid_generate_v4(), d date NOT NULL,
                 CONSTRAINT ev_not_nil CHECK (id <> uuid_ext_retired.uuid_nil())) PARTITION BY RANGE (d);
COMMENT ON CONSTRAINT ev_not_nil ON ev IS 'no nil keys';
CREATE TABLE ev24 PARTITION OF ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE ev25 PARTITION OF ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01')
    PARTITION BY RANGE (d);
CREATE TABLE ev25h1 PARTITION OF ev25 FOR VALUES FROM ('2025-01-01') TO ('2025-07-01');
ALTER TABLE ev24 ALTER COLUMN id SET DEFAULT uuid_ext_retired.uuid_generate_v1();
CREATE FUNCTION note_nil() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER ev_nil BEFORE INSERT ON ev FOR EACH ROW
    WHEN (NEW.id = uuid_ext_retired.uuid_ns_dns()) EXECUTE FUNCTION note_nil();
CREATE TABLE base (id uuid DEFAULT uuid_ext_retired.uuid_generate_v4(),
                   CONSTRAINT base_not_dns CHECK (id <> uuid_ext_retired.uuid_ns_dns()));
CREATE TABLE derived (extra int) INHERITS (base);
COMMENT ON CONSTRAINT base_not_dns ON derived IS 'inherited, commented';
INSERT INTO ev (d) VALUES ('2024-05-01'), ('2025-02-01');
INSERT INTO derived (extra) VALUES (1);
-- Code that calls pgcrypto by name records no dependency on it.
CREATE FUNCTION h(text) RETURNS boolean LANGUAGE sql AS $$SELECT crypt($1, gen_salt('bf')) LIKE '$2a$%'$$;
CREATE EXTENSION uuid_ext;

-- pgcrypto cannot be replaced: refused, nothing changed, h() still works. (Its list of
-- functions differs between majors, so the DETAIL is checked, not printed.)
DO $$
DECLARE
    state text;
    message text;
    detail text;
    hint text;
BEGIN
    PERFORM uuid_ext_migrate_from('pgcrypto');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    RAISE NOTICE 'SQLSTATE %: %', state, message;
    RAISE NOTICE 'DETAIL names crypt(text, text) and gen_salt(text): %',
        detail ~ 'crypt\(text, text\)' AND detail ~ 'gen_salt\(text\)';
    RAISE NOTICE 'HINT: %', hint;
END $$;
SELECT extname FROM pg_extension ORDER BY 1;
SELECT h('x') AS pgcrypto_still_works;
-- An extension with members that are not functions (a language) is refused the same way (found
-- by review: its members' look-up crashed the server).
SELECT * FROM uuid_ext_migrate_from('plpgsql');

-- uuid-ossp: every object on partitions, sub-partitions and inheritance children re-pointed.
SELECT * FROM uuid_ext_migrate_from('uuid-ossp') ORDER BY 1;
DROP SCHEMA uuid_ext_retired;
SELECT extname FROM pg_extension ORDER BY 1;
SELECT c.relname, a.attname, pg_get_expr(ad.adbin, ad.adrelid) AS default_now
FROM pg_attrdef ad JOIN pg_class c ON c.oid = ad.adrelid
JOIN pg_attribute a ON (a.attrelid, a.attnum) = (ad.adrelid, ad.adnum) ORDER BY 1;
SELECT conrelid::regclass AS rel, conname, convalidated, coninhcount, pg_get_constraintdef(oid) AS def,
       obj_description(oid, 'pg_constraint') AS comment
FROM pg_constraint WHERE contype = 'c' AND conrelid <> 0 ORDER BY conrelid::regclass::text, conname;
SELECT tgrelid::regclass AS rel, tgname, pg_get_triggerdef(oid) ~ 'WHEN \(\(new.id = uuid_ns_dns\(\)\)\)' AS when_repointed
FROM pg_trigger WHERE tgname = 'ev_nil' ORDER BY 1;
-- Everything works: new rows in every partition and child, the old ones are untouched.
INSERT INTO ev (d) VALUES ('2024-06-01'), ('2025-03-01');
INSERT INTO derived (extra) VALUES (2);
SELECT tableoid::regclass AS rel, count(*), count(DISTINCT uuid_extract_version(id)) AS versions
FROM ev GROUP BY 1 ORDER BY 1;
SELECT count(*) AS base_rows FROM base;
SELECT h('x') AS pgcrypto_untouched;

\c uuid_ext_regression
DROP DATABASE uuid_ext_migrate;
