-- What a hostile non-superuser did to 0.4.0 in two reviews (issue 26), each block a repro
-- that worked then and must not now: become superuser through the migration helper (1, 2),
-- take memory without bound (3; the crash itself: tests/lifecycle/memory_limit.sh), slip
-- its own function into a superuser's plans (4), get wrong rows from a CHECK proof (5), and
-- make every session re-plan (6). docs/SECURITY.md, rows 0-12. This server preloads the
-- library.
\set regress_db :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS uuid_ext_hostile1;
DROP DATABASE IF EXISTS uuid_ext_hostile2;
DROP DATABASE IF EXISTS uuid_ext_hostile3;
DROP DATABASE IF EXISTS uuid_ext_hostile4;
DROP ROLE IF EXISTS uuid_ext_atk;
DROP ROLE IF EXISTS uuid_ext_inst;
RESET client_min_messages;
CREATE ROLE uuid_ext_atk LOGIN;
CREATE ROLE uuid_ext_inst LOGIN;
CREATE DATABASE uuid_ext_hostile1;
CREATE DATABASE uuid_ext_hostile2;
CREATE DATABASE uuid_ext_hostile3;
CREATE DATABASE uuid_ext_hostile4;
GRANT CREATE ON DATABASE uuid_ext_hostile1, uuid_ext_hostile2, uuid_ext_hostile3, uuid_ext_hostile4
    TO uuid_ext_atk, uuid_ext_inst;

-- 1. The migration ran other roles' code with the rights of the superuser who called it: it
-- validated re-created CHECKs itself, so a function in a table owner's CHECK ran as the
-- superuser, and made its owner one. Every kind of object the migration touches calls the
-- owner's evil() here, beside an old function; evil() notes who runs it, and makes its owner
-- a superuser if it ever runs as one.
\c uuid_ext_hostile1
CREATE EXTENSION "uuid-ossp";
SET ROLE uuid_ext_atk;
CREATE SCHEMA a;
CREATE TABLE a.calls (who name, was_superuser boolean);
CREATE FUNCTION a.evil() RETURNS boolean VOLATILE LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a.calls SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user;
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE 'ALTER ROLE uuid_ext_atk SUPERUSER';
    END IF;
    RETURN true;
END $$;
CREATE TABLE a.t (id uuid DEFAULT public.uuid_generate_v4() CHECK (id <> public.uuid_nil() AND a.evil()));
INSERT INTO a.t DEFAULT VALUES;
CREATE DOMAIN a.key AS uuid DEFAULT public.uuid_generate_v4() CHECK (VALUE <> public.uuid_nil() AND a.evil());
CREATE TABLE a.d (k a.key);
INSERT INTO a.d DEFAULT VALUES;
CREATE TABLE a.p (id uuid DEFAULT public.uuid_generate_v4(), n int, CHECK (a.evil() AND id <> public.uuid_nil()))
    PARTITION BY RANGE (n);
CREATE TABLE a.p1 PARTITION OF a.p FOR VALUES FROM (0) TO (10);
INSERT INTO a.p (n) VALUES (1);
CREATE VIEW a.v AS SELECT public.uuid_generate_v4() AS id WHERE a.evil();
CREATE FUNCTION a.f() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT public.uuid_generate_v4() WHERE a.evil(); END;
CREATE FUNCTION a.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER p_touch BEFORE UPDATE ON a.p FOR EACH ROW WHEN (a.evil() AND NEW.id <> public.uuid_nil())
    EXECUTE FUNCTION a.touch();
ALTER TABLE a.t ENABLE ROW LEVEL SECURITY;
CREATE POLICY t_own ON a.t USING (a.evil() AND id <> public.uuid_nil());
TRUNCATE a.calls;
RESET ROLE;
-- The DBA, exactly as README "Migrating" says.
BEGIN;
CREATE SCHEMA uuid_ext_retired;
ALTER EXTENSION "uuid-ossp" SET SCHEMA uuid_ext_retired;
CREATE EXTENSION uuid_ext;
SELECT * FROM uuid_ext_migrate_from('uuid-ossp') ORDER BY 1;
DROP SCHEMA uuid_ext_retired;
COMMIT;
SELECT rolsuper AS atk_is_superuser FROM pg_roles WHERE rolname = 'uuid_ext_atk';
-- The validated CHECKs were validated again (the table's, its partition's, the domain's: one
-- row each), by their owner, never by the superuser; nothing else ran evil().
SELECT who, was_superuser, count(*) AS calls FROM a.calls GROUP BY 1, 2;
SELECT conrelid::regclass AS rel, contypid::regtype AS domain, convalidated, pg_get_constraintdef(oid) AS def
FROM pg_constraint WHERE connamespace = 'a'::regnamespace AND contype = 'c' ORDER BY 1, 2;
-- Every object works on uuid_ext's functions (as the owner: the policy and the trigger).
SET ROLE uuid_ext_atk;
INSERT INTO a.t DEFAULT VALUES;
INSERT INTO a.d DEFAULT VALUES;
UPDATE a.p SET n = 2;
SELECT (SELECT count(*) FROM a.t) AS t, (SELECT count(*) FROM a.d) AS d, (SELECT count(*) FROM a.v) AS v,
       a.f() IS NOT NULL AS f, (SELECT n FROM a.p) AS p;
RESET ROLE;

-- 1b. The owner's code ran as the owner, but its settings did not stay with it: a CHECK that
-- changes search_path with set_config(…, false) left it changed in the calling superuser's
-- session, in front of pg_catalog, so the superuser's next call of uuid_generate_v4() ran the
-- owner's function of that name (found by review of 0.4.1). Each validation now has settings
-- of its own (search_path = pg_catalog, pg_temp inside), undone when it ends.
\c uuid_ext_hostile3
CREATE EXTENSION "uuid-ossp";
SET ROLE uuid_ext_atk;
CREATE SCHEMA att;
CREATE TABLE att.seen (path text);
CREATE TABLE att.armed ();
CREATE FUNCTION att.f(u uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO att.seen VALUES (current_setting('search_path'));
    IF EXISTS (SELECT FROM att.armed) THEN
        PERFORM pg_catalog.set_config('search_path', 'att, pg_catalog, public', false);
    END IF;
    RETURN true;
END $$;
CREATE FUNCTION att.uuid_generate_v4() RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        EXECUTE 'ALTER ROLE uuid_ext_atk SUPERUSER';
    END IF;
    RETURN public.uuid_generate_v4();
END $$;
CREATE TABLE att.t (id uuid CHECK (id <> public.uuid_nil() AND att.f(id)));
INSERT INTO att.t VALUES ('11111111-1111-1111-1111-111111111111');
TRUNCATE att.seen;
INSERT INTO att.armed DEFAULT VALUES;
RESET ROLE;
SELECT current_setting('search_path') AS path_before \gset
BEGIN;
CREATE SCHEMA uuid_ext_retired;
ALTER EXTENSION "uuid-ossp" SET SCHEMA uuid_ext_retired;
CREATE EXTENSION uuid_ext;
SELECT * FROM uuid_ext_migrate_from('uuid-ossp') ORDER BY 1;
DROP SCHEMA uuid_ext_retired;
COMMIT;
SELECT current_setting('search_path') = :'path_before' AS search_path_unchanged;
SELECT uuid_generate_v4() IS NOT NULL AS generated;
SELECT rolsuper AS atk_is_superuser FROM pg_roles WHERE rolname = 'uuid_ext_atk';
SELECT path AS search_path_inside_the_validation FROM att.seen;
-- Objects marked DEPENDS ON EXTENSION go with the extension, without CASCADE and without a
-- word: the migration refuses to drop it under them (found by review of 0.4.1).
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
CREATE TABLE keep_me (id uuid DEFAULT ossp.uuid_generate_v4(), note text);
CREATE INDEX keep_me_note ON keep_me (note);
ALTER INDEX keep_me_note DEPENDS ON EXTENSION "uuid-ossp";
SELECT * FROM uuid_ext_migrate_from('uuid-ossp');
\echo :LAST_ERROR_SQLSTATE
SELECT to_regclass('keep_me_note') IS NOT NULL AS index_kept, pg_get_expr(adbin, adrelid) AS default_unchanged
FROM pg_attrdef WHERE adrelid = 'keep_me'::regclass;
-- An extension whose functions uuid_ext lacks, installed in another schema than uuid_ext's (so
-- no function of its name is found there), by an ordinary role: refused (found by review of
-- 0.4.1: the look-up that found nothing crashed the server).
SET ROLE uuid_ext_atk;
CREATE SCHEMA m;
CREATE EXTENSION pgcrypto SCHEMA m;
\set VERBOSITY terse
SELECT * FROM uuid_ext_migrate_from('pgcrypto');
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- 2. The migration deparsed definitions and replaced the old schema-qualified name as text:
-- a schema name of the (trusted) installer's choosing closed a quoted identifier in a view of
-- another role and appended a statement, which the superuser's migration ran. And a literal or
-- an identifier that contained the pattern was changed without any attacker. Now the stored
-- trees are re-pointed by OID: names and literals stay exactly as they were.
\c uuid_ext_hostile2
CREATE EXTENSION "uuid-ossp";
SET ROLE uuid_ext_inst;
CREATE SCHEMA "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ";
SET client_min_messages = error;   -- 17 warns that search_path hides some functions
CREATE EXTENSION uuid_ext SCHEMA "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ";
RESET client_min_messages;
GRANT USAGE ON SCHEMA "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS " TO PUBLIC;
RESET ROLE;
SET ROLE uuid_ext_atk;
CREATE SCHEMA a;
CREATE VIEW a.v AS SELECT public.uuid_generate_v4() AS id, 'uuid_ext_retired.uuid_generate_v4(' AS note
FROM (SELECT 1) AS "Zuuid_ext_retired.uuid_generate_v4(";
CREATE TABLE a.t (id uuid DEFAULT public.uuid_generate_v4(), note text DEFAULT 'uuid_ext_retired.uuid_nil(',
                  CONSTRAINT "uuid_ext_retired.uuid_nil(" CHECK (id <> public.uuid_nil() OR note = 'uuid_ext_retired.uuid_nil()'));
INSERT INTO a.t DEFAULT VALUES;
RESET ROLE;
-- An object of a third role, the superuser's own.
CREATE TABLE dba_t (id uuid DEFAULT public.uuid_generate_v1());
BEGIN;
CREATE SCHEMA uuid_ext_retired;
ALTER EXTENSION "uuid-ossp" SET SCHEMA uuid_ext_retired;
SELECT * FROM "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ".uuid_ext_migrate_from('uuid-ossp') ORDER BY 1;
DROP SCHEMA uuid_ext_retired;
COMMIT;
SELECT rolsuper AS atk_is_superuser FROM pg_roles WHERE rolname = 'uuid_ext_atk';
SELECT pg_get_viewdef('a.v'::regclass) AS view_now;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) AS default_now
FROM pg_attrdef d JOIN pg_attribute a ON (a.attrelid, a.attnum) = (d.adrelid, d.adnum)
WHERE d.adrelid IN ('a.t'::regclass, 'dba_t'::regclass) ORDER BY d.adrelid, a.attnum;
SELECT conname, pg_get_constraintdef(oid) AS check_now FROM pg_constraint WHERE conrelid = 'a.t'::regclass;
SELECT note, id IS NOT NULL AS has_id FROM a.v;
INSERT INTO dba_t DEFAULT VALUES;
SELECT "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ".uuid_extract_version(id) AS dba_version FROM dba_t;

-- 4. The planner hook trusted any member of the extension, and its owner — the installer, in
-- a trusted install — may add one. Between installing a newer library and ALTER EXTENSION …
-- UPDATE the catalog can lack a function the hook calls (simulated here by removing it); the
-- installer added a PL/pgSQL function of that name, and the superuser's next time window ran
-- it. Now a member is used only if it is this library's C code.
SET timezone = 'UTC';
SET search_path = "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ", public;
CREATE TABLE ev (id uuid PRIMARY KEY, CHECK (uuid_is_v7(id)));
INSERT INTO ev SELECT uuid_timestamptz_to_v7('2024-01-01 00:00+00'::timestamptz + g * interval '1 minute')
FROM generate_series(1, 5000) g;
ANALYZE ev;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE uuid_ext_timestamp(id) >= '2024-01-04 00:00+00';
ALTER EXTENSION uuid_ext DROP FUNCTION uuid_v7_lower_bound(timestamptz);
DROP FUNCTION uuid_v7_lower_bound(timestamptz);
-- (A catalog without the function, as after installing a newer library and before the UPDATE:
-- the hook stays out of the way. Found by review of 0.4.1: the look-up that found nothing
-- crashed the server, in any role's query.)
SELECT count(*) AS without_the_function FROM ev WHERE uuid_ext_timestamp(id) >= '2024-01-04 00:00+00';
SET ROLE uuid_ext_inst;
CREATE FUNCTION "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ".uuid_v7_lower_bound(timestamptz) RETURNS uuid
VOLATILE LANGUAGE plpgsql AS $$
BEGIN
    RAISE NOTICE 'planted bound called as %', current_user;
    RETURN '00000000-0000-0000-0000-000000000000';
END $$;
ALTER EXTENSION uuid_ext ADD FUNCTION "; ALTER ROLE uuid_ext_atk SUPERUSER; SELECT 1 AS ".uuid_v7_lower_bound(timestamptz);
RESET ROLE;
-- The superuser's window: the planted member is not called, and the hook, missing a bound of
-- its own, leaves the plan to PostgreSQL (a filter on every row, the same count).
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE uuid_ext_timestamp(id) >= '2024-01-04 00:00+00';
SELECT count(*) AS window_rows FROM ev WHERE uuid_ext_timestamp(id) >= '2024-01-04 00:00+00';
RESET search_path;

-- 4b. The same for the migration: uuid_ext's function in place of an old one must be this
-- library's. The installer's look-alike member is not taken: the migration is refused and
-- nothing changes.
\c uuid_ext_hostile4
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
SET ROLE uuid_ext_inst;
CREATE SCHEMA inst;
SET client_min_messages = error;
CREATE EXTENSION uuid_ext SCHEMA inst;
RESET client_min_messages;
RESET ROLE;
CREATE TABLE dba_t (id uuid DEFAULT ossp.uuid_generate_v4());
ALTER EXTENSION uuid_ext DROP FUNCTION inst.uuid_generate_v4();
DROP FUNCTION inst.uuid_generate_v4();
SET ROLE uuid_ext_inst;
CREATE FUNCTION inst.uuid_generate_v4() RETURNS uuid VOLATILE LANGUAGE sql
AS $$ SELECT '00000000-0000-0000-0000-000000000000'::uuid $$;
ALTER EXTENSION uuid_ext ADD FUNCTION inst.uuid_generate_v4();
RESET ROLE;
SELECT * FROM inst.uuid_ext_migrate_from('uuid-ossp');
SELECT pg_get_expr(d.adbin, d.adrelid) AS default_unchanged,
       (SELECT count(*) FROM pg_extension WHERE extname = 'uuid-ossp') AS uuid_ossp_still_there
FROM pg_attrdef d WHERE d.adrelid = 'dba_t'::regclass;

-- 3. Memory that grew with a caller's input. uuid_generate_v2() kept every (domain, id) it
-- had seen, without bound (800 MB, then an abort of the server under a memory limit): now at
-- most 65536 pairs a step, then 2200H until the next step. Error messages copied a whole bad
-- input several times: now they show at most 100 bytes of it.
\c :regress_db
SELECT count(uuid_generate_v2(1, i)) AS known_ids FROM generate_series(1, 100) i;
\set VERBOSITY terse
SELECT count(uuid_generate_v2(0, a * 5000 + b)) FROM generate_series(0, 7999) a, generate_series(1, 5000) b;
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT count(uuid_generate_v2(1, i)) AS known_ids_go_on FROM generate_series(1, 100) i;
DO $$
DECLARE
    message text;
BEGIN
    PERFORM uuid_decode(repeat('x', 1000000), 'hex');
EXCEPTION WHEN invalid_text_representation THEN
    GET STACKED DIAGNOSTICS message = MESSAGE_TEXT;
    RAISE NOTICE 'message of % characters: %', length(message), message;
END $$;

-- 5. A CHECK proof counted for a snapshot older than the CHECK: the hook kept one horizon per
-- backend for every table, and for a temporary table, or a table created in the current
-- transaction, PostgreSQL gives one that ignores every other session's snapshots. After one
-- such planning, a CHECK committed after this session's snapshot counted for the rest of the
-- session. The v4 value below has bytes inside the window; the REPEATABLE READ snapshot still
-- sees it after the other session deleted it and added the CHECK.
SET timezone = 'UTC';
CREATE EXTENSION dblink;
SELECT format('host=127.0.0.1 port=%s dbname=%s user=%s', current_setting('port'), current_database(), current_user)
       AS other_session \gset
\set q 'SELECT count(*) FROM h5 WHERE uuid_extract_timestamp(id) BETWEEN ''2024-06-01 04:00+00'' AND ''2024-06-01 06:00+00'''
CREATE TABLE h5 (id uuid PRIMARY KEY);
INSERT INTO h5 VALUES ('018fd22b-3c80-4000-8000-000000000000'), (uuid_timestamptz_to_v7('2024-06-01 05:00+00'));
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 1 AS snapshot_taken;
SELECT dblink_exec(:'other_session', 'DELETE FROM h5 WHERE NOT uuid_is_v7(id)');
SELECT dblink_exec(:'other_session', 'ALTER TABLE h5 ADD CONSTRAINT v7 CHECK (uuid_is_v7(id))');
:q;
CREATE TEMP TABLE tt (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)));
SELECT count(*) AS temp_table FROM tt WHERE uuid_extract_timestamp(id) >= now();
:q;
COMMIT;
-- The same with a table created, with its CHECK, in the transaction.
DROP TABLE h5;
CREATE TABLE h5 (id uuid PRIMARY KEY);
INSERT INTO h5 VALUES ('018fd22b-3c80-4000-8000-000000000000'), (uuid_timestamptz_to_v7('2024-06-01 05:00+00'));
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 1 AS snapshot_taken;
SELECT dblink_exec(:'other_session', 'DELETE FROM h5 WHERE NOT uuid_is_v7(id)');
SELECT dblink_exec(:'other_session', 'ALTER TABLE h5 ADD CONSTRAINT v7 CHECK (uuid_is_v7(id))');
CREATE TABLE new_in_transaction (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)));
SELECT count(*) AS new_table FROM new_in_transaction WHERE uuid_extract_timestamp(id) >= now();
:q;
COMMIT;
-- Once no snapshot is older than the CHECK, the window is exact: an index scan of the key
-- needs no recheck (the extractor leaves its plan).
:q;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) :q;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE h5, new_in_transaction;

-- 6. Any role could make every session re-plan: the extension reset every cached plan of
-- every backend on any change to any role, which a role makes with ALTER ROLE … PASSWORD. A
-- generic plan made here is planned once (the NOTICE); another session's password change
-- does not make it planned again.
CREATE FUNCTION pg_temp.planned() RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN
    RAISE NOTICE 'planned';
    RETURN 1;
END $$;
SET plan_cache_mode = force_generic_plan;
PREPARE p6 AS SELECT pg_temp.planned() AS one;
EXECUTE p6;
EXECUTE p6;
SELECT dblink_exec(:'other_session', 'SET ROLE uuid_ext_atk; ALTER ROLE uuid_ext_atk PASSWORD ''not-a-secret''');
EXECUTE p6;
DEALLOCATE p6;
RESET plan_cache_mode;
DROP EXTENSION dblink;

DROP DATABASE uuid_ext_hostile1;
DROP DATABASE uuid_ext_hostile2;
DROP DATABASE uuid_ext_hostile3;
DROP DATABASE uuid_ext_hostile4;
DROP ROLE uuid_ext_atk, uuid_ext_inst;
