-- uuid_ext 0.2.0 -> 0.3.0: uuid_ext_migrate_from() handles partitioned and inherited tables, keeps
-- constraint comments, and refuses (changing nothing) an extension it cannot fully replace.
-- Rewritten in 0.5.1: 0.3.0 replaced the PL/pgSQL helper here with another PL/pgSQL one, which ran
-- other roles' code with its caller's rights (docs/SECURITY.md, "Old versions' SQL"). Since
-- 0.1.0 -> 0.2.0 now creates the library's C helper, which does all of that, nothing changes.
\echo Use "ALTER EXTENSION uuid_ext UPDATE" to load this file. \quit
