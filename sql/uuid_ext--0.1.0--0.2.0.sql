-- uuid_ext 0.1.0 -> 0.2.0. Run by ALTER EXTENSION uuid_ext UPDATE; scripts/check-upgrade.sh (run
-- by the tests) fails if a database updated with it differs from a fresh 0.2.0 install.
\echo Use "ALTER EXTENSION uuid_ext UPDATE" to load this file. \quit

-- Immutable range bounds: byte-order (primary key) ranges of v7 values, closed uuid_time_ops ranges.
CREATE FUNCTION "uuid_v7_lower_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_lower_bound_wrapper';
CREATE FUNCTION "uuid_v7_upper_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_upper_bound_wrapper';
CREATE FUNCTION "uuid_time_upper_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_time_upper_bound_wrapper';

-- PostgreSQL 17/18's names on every major (0.1.0 created them only where the server lacked them),
-- so a dump taken on any major restores on a later one. Where 0.1.0 created them already, this
-- replaces them with the same definition.
CREATE OR REPLACE FUNCTION "uuid_extract_timestamp"("uuid" uuid) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_extract_timestamp_wrapper';
CREATE OR REPLACE FUNCTION "uuid_extract_version"("uuid" uuid) RETURNS smallint
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_extract_version_wrapper';
CREATE OR REPLACE FUNCTION "uuidv4"() RETURNS uuid
VOLATILE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuidv4_wrapper';
CREATE OR REPLACE FUNCTION "uuidv7"() RETURNS uuid
VOLATILE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuidv7_wrapper';
CREATE OR REPLACE FUNCTION "uuidv7"("shift" interval) RETURNS uuid
VOLATILE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuidv7_shift_wrapper';

-- Server-assigned, immutable UUID keys (src/server_assigned.rs).
CREATE FUNCTION uuid_ext_server_assigned() RETURNS trigger
VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_ext_server_assigned_wrapper';

-- Moving databases from uuid-ossp and pg_uuidv7 (README, "Migrating"). Rewritten in 0.5.1: 0.2.0
-- shipped a PL/pgSQL helper here that ran other roles' code with its caller's rights
-- (docs/SECURITY.md, "Old versions' SQL"); the library this script now runs with has the safe one
-- in C, which every version from 0.4.1 declares exactly so. (Not OR REPLACE: a function of that
-- name that the extension's owner added would stay that role's, a member it may change.)
CREATE FUNCTION uuid_ext_migrate_from(old_extension name) RETURNS SETOF text
VOLATILE STRICT PARALLEL UNSAFE LANGUAGE c
SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'uuid_ext_migrate_from_wrapper';

-- As at CREATE EXTENSION (sql/pg17_search_path.sql): on PostgreSQL 17, warn when new sessions
-- would find pg_catalog's v1-only uuid_extract_timestamp() first.
DO $$
DECLARE
    ext_schema text := pg_catalog.btrim('@extschema@'::text, '"'::text);
    schemas text[];
BEGIN
    IF pg_catalog.current_setting('server_version_num'::text)::integer OPERATOR(pg_catalog./) 10000
       OPERATOR(pg_catalog.<>) 17 THEN
        RETURN;
    END IF;
    SELECT pg_catalog.array_agg(CASE WHEN s OPERATOR(pg_catalog.=) '$user'::text THEN CURRENT_USER::text ELSE s END ORDER BY n)
      INTO schemas
      FROM pg_catalog.pg_settings,
           pg_catalog.unnest(pg_catalog.string_to_array(reset_val, ','::text)) WITH ORDINALITY AS p(entry, n),
           LATERAL (SELECT pg_catalog.btrim(pg_catalog.btrim(entry), '"'::text) AS s) x
     WHERE name OPERATOR(pg_catalog.=) 'search_path'::text;
    IF pg_catalog.array_position(schemas, ext_schema)
       OPERATOR(pg_catalog.<) pg_catalog.array_position(schemas, 'pg_catalog'::text) THEN
        RETURN;
    END IF;
    RAISE WARNING 'on PostgreSQL 17, uuid_extract_timestamp() resolves to pg_catalog''s built-in, which returns NULL for UUID version 7'
        USING HINT = pg_catalog.format('List pg_catalog after %I in search_path, e.g. ALTER DATABASE %I SET search_path = "$user", %I, pg_catalog; then reconnect.'::text,
                                       ext_schema, pg_catalog.current_database(), ext_schema);
END
$$;
