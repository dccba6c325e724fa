-- uuid_ext 0.5.1 -> 0.6.0: a UUID's 16 octets as bytea and back, as PostgreSQL 19's built-in
-- casts uuid::bytea and bytea::uuid give them, on every major (README, "What each major gets").
-- Functions, never casts: 19 has the casts built in, and a cast an extension made on an older
-- major would collide with them when pg_upgrade restores the schema on 19. uuid_to_bytea is
-- LEAKPROOF, as 19's uuid::bytea.
\echo Use "ALTER EXTENSION uuid_ext UPDATE" to load this file. \quit
CREATE FUNCTION "uuid_to_bytea"("id" uuid) RETURNS bytea
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_to_bytea_wrapper';
ALTER FUNCTION @extschema@."uuid_to_bytea"(uuid) LEAKPROOF;

CREATE FUNCTION "uuid_from_bytea"("bytes" bytea) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_from_bytea_wrapper';
