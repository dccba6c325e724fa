-- uuid_ext 0.5.0 -> 0.5.1, a security release (docs/SECURITY.md, "Old versions' SQL"): no SQL
-- object changes. The library refuses any install or update script of uuid_ext that creates a
-- function which is not its C code, so no version reachable with old files left in the
-- extension directory (0.2.0 to 0.4.0 created uuid_ext_migrate_from() in PL/pgSQL) can be
-- installed; the update scripts from 0.1.0 now create the C helper.
\echo Use "ALTER EXTENSION uuid_ext UPDATE" to load this file. \quit
