-- docs/SECURITY.md, line by line, with the extension installed the way the trusted install
-- allows: by a non-superuser (the installer), in a schema it owns, with a second
-- non-superuser (the neighbour) allowed to create objects there, and a third role (other)
-- running its own tables, queries and triggers. The superuser only creates the roles and the
-- database and installs uuid-ossp (as a DBA would). This server preloads the library.
\set regress_db :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS uuid_ext_trusted;
DROP ROLE IF EXISTS uuid_ext_installer;
DROP ROLE IF EXISTS uuid_ext_neighbour;
DROP ROLE IF EXISTS uuid_ext_other;
RESET client_min_messages;
CREATE ROLE uuid_ext_installer LOGIN;
CREATE ROLE uuid_ext_neighbour LOGIN;
CREATE ROLE uuid_ext_other LOGIN;
CREATE DATABASE uuid_ext_trusted;
GRANT CREATE ON DATABASE uuid_ext_trusted TO uuid_ext_installer, uuid_ext_neighbour, uuid_ext_other;
\c uuid_ext_trusted
SET timezone = 'UTC';

-- Row 0: PostgreSQL runs a trusted extension's script as the bootstrap superuser, with the
-- target schema (which the installer owns) first in search_path. The installer plants
-- look-alikes there that would beat pg_catalog's functions for unqualified calls with other
-- argument types (the install script's peer check once called quote_ident() on a name), and
-- makes that check run by putting uuid-ossp (trusted too) in the same schema. The install
-- fails with the peer check's own error: no planted function ran as the superuser.
SET ROLE uuid_ext_installer;
CREATE SCHEMA inst;
CREATE FUNCTION inst.quote_ident(name) RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'planted quote_ident(name) called as %', current_user; END $$;
CREATE FUNCTION inst.format(text, name, name) RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'planted format() called as %', current_user; END $$;
CREATE FUNCTION inst.btrim(name, text) RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'planted btrim() called as %', current_user; END $$;
CREATE FUNCTION inst.array_position(text[], name) RETURNS integer LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'planted array_position() called as %', current_user; END $$;
CREATE EXTENSION "uuid-ossp" SCHEMA inst;
\set VERBOSITY terse
CREATE EXTENSION uuid_ext SCHEMA inst;
\set VERBOSITY default
DROP EXTENSION "uuid-ossp";

-- The installer installs uuid_ext (trusted: no superuser) into its own schema, lets the
-- neighbour create there, and lets everyone use it. (The planted functions stay: the install
-- script calls none of them either.)
SET client_min_messages = error;   -- 17 warns that search_path hides some functions
CREATE EXTENSION uuid_ext SCHEMA inst;
RESET client_min_messages;
SELECT e.extname, r.rolname AS owner, r.rolsuper AS owner_is_superuser
FROM pg_extension e JOIN pg_roles r ON r.oid = e.extowner WHERE e.extname = 'uuid_ext';
GRANT USAGE, CREATE ON SCHEMA inst TO uuid_ext_neighbour;
GRANT USAGE ON SCHEMA inst TO uuid_ext_other;
RESET ROLE;

-- The installer's own uuid-ossp (trusted too), for row 11.
SET ROLE uuid_ext_installer;
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
GRANT USAGE ON SCHEMA ossp TO PUBLIC;
RESET ROLE;

-- The other role's own table: mixed versions (a v1 of 2022-02-22 whose bytes sort early, v7
-- values over a year), a NO INHERIT v7 CHECK on the parent and a child without one.
SET ROLE uuid_ext_other;
CREATE SCHEMA app;
CREATE TABLE app.ev (id uuid PRIMARY KEY, n int, CHECK (inst.uuid_extract_version(id) = 7) NO INHERIT);
CREATE TABLE app.ev_old () INHERITS (app.ev);
INSERT INTO app.ev SELECT inst.uuid_timestamptz_to_v7('2022-01-01 00:00+00'::timestamptz + i * interval '1 day'), i
FROM generate_series(0, 364) i;
INSERT INTO app.ev_old VALUES ('00000000-9414-11ec-b3c8-9f6bdeced846', -1);
CREATE FUNCTION app.window_count() RETURNS bigint LANGUAGE sql STABLE
AS $$ SELECT count(*) FROM app.ev WHERE inst.uuid_extract_timestamp(id) >= '2022-02-01 00:00+00'
                                    AND inst.uuid_extract_timestamp(id) < '2022-03-01 00:00+00' $$;
-- Row 1: the hook's result is the plain one (28 days of February plus the child's v1).
SELECT app.window_count() AS with_hook;
SET uuid_ext.time_index_conditions = off;
SELECT app.window_count() AS without_hook;
RESET uuid_ext.time_index_conditions;
RESET ROLE;

-- Row 2: the installer takes USAGE on its schema away from the other role. The other role's
-- queries that do not name the schema still run; none raises "permission denied for schema".
SET ROLE uuid_ext_installer;
REVOKE USAGE ON SCHEMA inst FROM uuid_ext_other;
RESET ROLE;
SET ROLE uuid_ext_other;
CREATE FUNCTION app.ts_of(uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS 'SELECT NULL::timestamptz';
SELECT count(*) AS no_usage_no_error FROM app.ev WHERE app.ts_of(id) >= now();
RESET ROLE;
SET ROLE uuid_ext_installer;
GRANT USAGE ON SCHEMA inst TO uuid_ext_other;
RESET ROLE;

-- Rows 4 and 5: a plan the hook made for the other role (it shows a bound function), then the
-- installer revokes EXECUTE on the bound functions from everyone: the other role's window
-- still runs, with the same rows, planned before or after.
SET ROLE uuid_ext_other;
SET enable_seqscan = off;   -- (the table is small; the plan is made with the key's index)
PREPARE win AS SELECT count(*) FROM ONLY app.ev WHERE inst.uuid_extract_timestamp(id) >= '2022-12-01 00:00+00';
EXECUTE win;
EXPLAIN (COSTS OFF) EXECUTE win;
RESET enable_seqscan;
RESET ROLE;
SET ROLE uuid_ext_installer;
REVOKE EXECUTE ON FUNCTION inst.uuid_v7_lower_bound(timestamptz), inst.uuid_v7_upper_bound(timestamptz), inst.uuid_time_lower_bound(timestamptz),
       inst.uuid_time_upper_bound(timestamptz) FROM PUBLIC;
RESET ROLE;
SET ROLE uuid_ext_other;
EXECUTE win;
SELECT count(*) AS after_revoke FROM ONLY app.ev WHERE inst.uuid_extract_timestamp(id) >= '2022-12-01 00:00+00';
DEALLOCATE win;
RESET ROLE;

-- Row 3: the neighbour plants look-alike bound functions that raise, in the extension's schema
-- (another signature: the members' own cannot be replaced, see row 6) and in a schema first
-- on the other role's search_path. The other role's time window never calls them.
SET ROLE uuid_ext_installer;
GRANT EXECUTE ON FUNCTION inst.uuid_v7_lower_bound(timestamptz), inst.uuid_v7_upper_bound(timestamptz),
      inst.uuid_time_lower_bound(timestamptz), inst.uuid_time_upper_bound(timestamptz) TO PUBLIC;
RESET ROLE;
SET ROLE uuid_ext_neighbour;
CREATE FUNCTION inst.uuid_v7_lower_bound(timestamp) RETURNS uuid LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RAISE EXCEPTION 'planted function called'; END $$;
CREATE SCHEMA decoy;
GRANT USAGE ON SCHEMA decoy TO PUBLIC;
CREATE FUNCTION decoy.uuid_v7_lower_bound(timestamptz) RETURNS uuid LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RAISE EXCEPTION 'planted function called'; END $$;
CREATE FUNCTION decoy.uuid_time_lower_bound(timestamptz) RETURNS uuid LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RAISE EXCEPTION 'planted function called'; END $$;
RESET ROLE;
SET ROLE uuid_ext_other;
SET search_path = decoy, inst, public;
CREATE FUNCTION app.hooked(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);   -- (the table is small)
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    PERFORM set_config('enable_seqscan', 'on', true);
    RETURN plan ~ '''[0-9a-f-]{36}''::uuid';   -- the bound's value, folded by the planner
END $$;
SELECT app.hooked($$SELECT count(*) FROM ONLY app.ev WHERE inst.uuid_extract_timestamp(id) >= '2022-12-01 00:00+00'$$)
       AS hook_served_it;
SELECT count(*) AS planted_never_called FROM ONLY app.ev WHERE inst.uuid_extract_timestamp(id) >= '2022-12-01 00:00+00';
RESET search_path;
RESET ROLE;

-- Row 6: no member runs with its owner's privileges. (PostgreSQL runs a trusted extension's
-- script as the bootstrap superuser: the installer owns the extension, not its members, so it
-- can neither replace nor ALTER one of them.)
SELECT count(*) > 40 AS many_functions, count(*) FILTER (WHERE p.prosecdef) AS security_definer,
       bool_and(NOT r.rolsuper) AS owned_by_non_superuser
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
JOIN pg_roles r ON r.oid = p.proowner;
SET ROLE uuid_ext_installer;
ALTER FUNCTION inst.uuid_generate_v7() SECURITY DEFINER;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- Rows 7 and 8: the other role's server-assigned keys. A decoy generator the neighbour puts in
-- its schema, first on the other role's search_path, is never called; the other role itself
-- cannot supply or change a key.
SET ROLE uuid_ext_neighbour;
CREATE FUNCTION decoy.uuid_generate_v7() RETURNS uuid LANGUAGE sql AS 'SELECT ''00000000-0000-0000-0000-000000000000''::uuid';
GRANT EXECUTE ON FUNCTION decoy.uuid_generate_v7() TO PUBLIC;
RESET ROLE;
SET ROLE uuid_ext_other;
CREATE TABLE app.entries (id uuid PRIMARY KEY, dn text);
CREATE TRIGGER entries_id BEFORE INSERT OR UPDATE ON app.entries
    FOR EACH ROW EXECUTE FUNCTION inst.uuid_ext_server_assigned('id');
SET search_path = decoy, inst, public;
INSERT INTO app.entries (dn) VALUES ('cn=a');
RESET search_path;
SELECT inst.uuid_extract_version(id) AS version, id <> inst.uuid_nil() AS not_the_decoy FROM app.entries;
INSERT INTO app.entries VALUES (inst.uuid_generate_v4(), 'cn=b');
\echo :LAST_ERROR_SQLSTATE
UPDATE app.entries SET id = inst.uuid_generate_v4();
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- Row 9: the installer, owner of the extension, cannot set the settings that reach beyond
-- its session.
SET ROLE uuid_ext_installer;
SET uuid_ext.v7_scope = 'cluster';
\echo :LAST_ERROR_SQLSTATE
SET uuid_ext.allow_explicit_ids = on;
\echo :LAST_ERROR_SQLSTATE
SET uuid_ext.clock_offset_ms = 86400000;
\echo :LAST_ERROR_SQLSTATE
ALTER ROLE uuid_ext_installer SET uuid_ext.allow_explicit_ids = on;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- Row 11: the installer, owner of uuid-ossp, runs the migration over the other role's table,
-- which uses it: refused, as ALTER TABLE would be, for the table it does not own; nothing
-- changes.
SET ROLE uuid_ext_other;
CREATE TABLE app.orders (id uuid PRIMARY KEY DEFAULT ossp.uuid_generate_v4(), n int);
GRANT USAGE ON SCHEMA app TO uuid_ext_installer;
RESET ROLE;
SET ROLE uuid_ext_installer;
SELECT * FROM inst.uuid_ext_migrate_from('uuid-ossp');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
SELECT pg_get_expr(d.adbin, d.adrelid) AS default_unchanged,
       (SELECT count(*) FROM pg_extension WHERE extname = 'uuid-ossp') AS uuid_ossp_still_there
FROM pg_attrdef d WHERE d.adrelid = 'app.orders'::regclass;

\c :regress_db
DROP DATABASE uuid_ext_trusted;
DROP ROLE uuid_ext_installer, uuid_ext_neighbour, uuid_ext_other;
