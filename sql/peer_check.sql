-- Runs first in CREATE EXTENSION uuid_ext. Two extensions cannot both own public.uuid_generate_v4():
-- when uuid-ossp or pg_uuidv7 sits in the schema uuid_ext is created in, say so and name the way
-- out, instead of PostgreSQL's bare "function ... already exists".
DO $$
DECLARE
    peer name;
BEGIN
    SELECT e.extname INTO peer
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname IN ('uuid-ossp', 'pg_uuidv7') AND n.nspname = btrim('@extschema@', '"')
    ORDER BY 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'extension % is installed in schema %, where uuid_ext creates functions of the same names',
                        quote_ident(peer), quote_ident(btrim('@extschema@', '"'))
            USING ERRCODE = 'duplicate_function',
                  HINT = format('Move it aside, then migrate (README, "Migrating"): CREATE SCHEMA uuid_ext_retired; '
                                'ALTER EXTENSION %I SET SCHEMA uuid_ext_retired; CREATE EXTENSION uuid_ext; '
                                'SELECT * FROM uuid_ext_migrate_from(%L); DROP SCHEMA uuid_ext_retired;', peer, peer);
    END IF;
END
$$;
