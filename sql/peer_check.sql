-- Runs first in CREATE EXTENSION uuid_ext. Two extensions cannot both own public.uuid_generate_v4():
-- when uuid-ossp or pg_uuidv7 sits in the schema uuid_ext is created in, say so and name the way
-- out, instead of PostgreSQL's bare "function ... already exists".
--
-- A trusted install runs this as the bootstrap superuser with search_path = the target schema,
-- which the installing role may own and fill: every function, operator and relation below is
-- therefore qualified with pg_catalog and called with its exact argument types, so nothing a role
-- plants there can be called (docs/SECURITY.md, tests/pg_regress/sql/trusted_install.sql).
DO $$
DECLARE
    ext_schema text := pg_catalog.btrim('@extschema@'::text, '"'::text);
    peer text;
BEGIN
    SELECT e.extname::text INTO peer
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE (e.extname OPERATOR(pg_catalog.=) 'uuid-ossp'::pg_catalog.name
           OR e.extname OPERATOR(pg_catalog.=) 'pg_uuidv7'::pg_catalog.name)
      AND n.nspname::text OPERATOR(pg_catalog.=) ext_schema
    ORDER BY 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'extension % is installed in schema %, where uuid_ext creates functions of the same names',
                        pg_catalog.quote_ident(peer), pg_catalog.quote_ident(ext_schema)
            USING ERRCODE = 'duplicate_function',
                  HINT = pg_catalog.format('Move it aside, then migrate (README, "Migrating"): CREATE SCHEMA uuid_ext_retired; '
                                           'ALTER EXTENSION %I SET SCHEMA uuid_ext_retired; CREATE EXTENSION uuid_ext; '
                                           'SELECT * FROM uuid_ext_migrate_from(%L); DROP SCHEMA uuid_ext_retired;'::text,
                                           peer, peer);
    END IF;
END
$$;
