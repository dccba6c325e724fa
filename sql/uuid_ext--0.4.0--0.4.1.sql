-- uuid_ext 0.4.0 -> 0.4.1, a security release (docs/SECURITY.md, "Fixed in 0.4.1").
-- uuid_ext_migrate_from() is now this library's C code: it re-points the stored expression
-- trees of the objects that depend on the old extension by OID, and validates re-pointed CHECK
-- constraints as their owner in a security-restricted operation. 0.4.0's PL/pgSQL version
-- rewrote their SQL text and ran it, CHECKs included, with the caller's rights. Same
-- signature, labels and result; the rest of 0.4.1 is in the library.
CREATE OR REPLACE FUNCTION uuid_ext_migrate_from(old_extension name) RETURNS SETOF text
VOLATILE STRICT PARALLEL UNSAFE LANGUAGE c
SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'uuid_ext_migrate_from_wrapper';
