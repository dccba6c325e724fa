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

-- Moving databases from uuid-ossp and pg_uuidv7 (sql/migrate.sql, which documents it).
CREATE FUNCTION uuid_ext_migrate_from(old_extension name) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
-- With only pg_catalog in search_path, PostgreSQL's deparsers qualify every other name, so the
-- old functions print as old_schema.name( and can be swapped for new_schema.name( exactly.
SET search_path = pg_catalog
AS $fn$
DECLARE
    new_schema name := btrim('@extschema@', '"');
    old_schema name;
    old_oid oid;
    missing text;
    blocked text;
    r record;
    fname name;
    done int := 0;
BEGIN
    SELECT e.oid, n.nspname INTO old_oid, old_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = old_extension;
    IF NOT FOUND THEN
        RETURN NEXT format('extension %I is not installed: nothing to migrate', old_extension);
        RETURN;
    END IF;
    IF old_extension = 'uuid_ext' THEN
        RAISE EXCEPTION 'cannot migrate uuid_ext to itself' USING ERRCODE = 'invalid_parameter_value';
    END IF;

    -- The old extension's functions, each with uuid_ext's function of the same signature.
    CREATE TEMP TABLE uuid_ext_migration_map ON COMMIT DROP AS
    SELECT o.oid AS old_fn, o.proname, n.oid AS new_fn
    FROM pg_depend d
    JOIN pg_proc o ON d.classid = 'pg_proc'::regclass AND o.oid = d.objid
    LEFT JOIN (SELECT p.oid, p.proname, p.proargtypes FROM pg_depend nd
               JOIN pg_extension ne ON ne.oid = nd.refobjid AND ne.extname = 'uuid_ext'
               JOIN pg_proc p ON nd.classid = 'pg_proc'::regclass AND p.oid = nd.objid
               WHERE nd.refclassid = 'pg_extension'::regclass AND nd.deptype = 'e') n
           ON n.proname = o.proname AND n.proargtypes = o.proargtypes
    WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = old_oid AND d.deptype = 'e';

    -- Everything that depends on one of them. Automatic dependencies count too: on PostgreSQL 14
    -- a stored generated column depends on its functions automatically, so dropping them would
    -- silently drop the column.
    CREATE TEMP TABLE uuid_ext_migration_deps ON COMMIT DROP AS
    SELECT DISTINCT d.classid, d.objid, d.objsubid,
           pg_describe_object(d.classid, d.objid, d.objsubid) AS what
    FROM pg_depend d JOIN uuid_ext_migration_map m ON m.old_fn = d.refobjid
    WHERE d.refclassid = 'pg_proc'::regclass AND d.deptype IN ('n', 'a')
      AND NOT (d.classid = 'pg_proc'::regclass AND d.objid IN (SELECT old_fn FROM uuid_ext_migration_map));

    SELECT string_agg(DISTINCT m.proname || '(' || pg_get_function_identity_arguments(m.old_fn) || ')', ', ')
      INTO missing
    FROM uuid_ext_migration_map m JOIN pg_depend d ON d.refobjid = m.old_fn AND d.refclassid = 'pg_proc'::regclass
    WHERE m.new_fn IS NULL AND d.deptype IN ('n', 'a');
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'uuid_ext has no function to take the place of %', missing
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'Objects depend on these functions of extension ' || quote_ident(old_extension) || '.';
    END IF;

    SELECT string_agg(CASE WHEN a.attgenerated <> '' THEN format('stored generated column %I of table %s',
                                                                 a.attname, a.attrelid::regclass)
                           ELSE x.what END, '; ' ORDER BY x.what) INTO blocked
    FROM uuid_ext_migration_deps x
    LEFT JOIN pg_attrdef ad ON x.classid = 'pg_attrdef'::regclass AND ad.oid = x.objid
    LEFT JOIN pg_attribute a ON (a.attrelid, a.attnum) = (ad.adrelid, ad.adnum)
                             OR x.classid = 'pg_class'::regclass AND (a.attrelid, a.attnum) = (x.objid, x.objsubid)
    LEFT JOIN pg_rewrite rw ON x.classid = 'pg_rewrite'::regclass AND rw.oid = x.objid
    LEFT JOIN pg_class vc ON vc.oid = rw.ev_class
    LEFT JOIN pg_proc fp ON x.classid = 'pg_proc'::regclass AND fp.oid = x.objid
    LEFT JOIN pg_constraint c ON x.classid = 'pg_constraint'::regclass AND c.oid = x.objid
    LEFT JOIN pg_trigger tg ON x.classid = 'pg_trigger'::regclass AND tg.oid = x.objid
    WHERE NOT coalesce(
        (x.classid = 'pg_attrdef'::regclass AND a.attgenerated = '')
        OR (x.classid = 'pg_rewrite'::regclass AND vc.relkind = 'v' AND rw.rulename = '_RETURN')
        OR (x.classid = 'pg_proc'::regclass AND fp.prosqlbody IS NOT NULL)
        OR (x.classid = 'pg_constraint'::regclass AND c.contype = 'c')
        OR (x.classid = 'pg_trigger'::regclass AND NOT tg.tgisinternal AND tg.tgconstraint = 0)
        OR x.classid IN ('pg_policy'::regclass, 'pg_type'::regclass), false);
    IF blocked IS NOT NULL THEN
        RAISE EXCEPTION 'cannot re-point these objects to uuid_ext without rewriting or rebuilding them: %', blocked
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Recreate them on uuid_ext''s functions (e.g. CREATE INDEX CONCURRENTLY, then drop the old index), then run uuid_ext_migrate_from() again. Nothing was changed.';
    END IF;

    FOR r IN SELECT x.*, row_number() OVER (ORDER BY x.classid, x.objid) AS n FROM uuid_ext_migration_deps x LOOP
        DECLARE
            stmt text;
        BEGIN
            CASE r.classid
            WHEN 'pg_attrdef'::regclass THEN
                SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname,
                              pg_get_expr(ad.adbin, ad.adrelid))
                  INTO stmt
                FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                WHERE ad.oid = r.objid;
            WHEN 'pg_rewrite'::regclass THEN
                SELECT format('CREATE OR REPLACE VIEW %s%s AS %s', c.oid::regclass,
                              CASE WHEN c.reloptions IS NULL THEN ''
                                   ELSE ' WITH (' || array_to_string(c.reloptions, ', ') || ')' END,
                              pg_get_viewdef(c.oid))
                  INTO stmt
                FROM pg_rewrite rw JOIN pg_class c ON c.oid = rw.ev_class WHERE rw.oid = r.objid;
            WHEN 'pg_proc'::regclass THEN
                stmt := pg_get_functiondef(r.objid);
            WHEN 'pg_constraint'::regclass THEN
                SELECT CASE WHEN c.contypid <> 0 THEN
                           format('ALTER DOMAIN %s DROP CONSTRAINT %I; ALTER DOMAIN %s ADD CONSTRAINT %I %s NOT VALID',
                                  c.contypid::regtype, c.conname, c.contypid::regtype, c.conname,
                                  pg_get_constraintdef(c.oid))
                           || CASE WHEN c.convalidated THEN format('; ALTER DOMAIN %s VALIDATE CONSTRAINT %I',
                                                                  c.contypid::regtype, c.conname) ELSE '' END
                       ELSE
                           format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s NOT VALID',
                                  c.conrelid::regclass, c.conname, c.conname,
                                  regexp_replace(pg_get_constraintdef(c.oid), ' NOT VALID$', ''))
                           || CASE WHEN c.convalidated THEN format('; ALTER TABLE %s VALIDATE CONSTRAINT %I',
                                                                  c.conrelid::regclass, c.conname) ELSE '' END
                       END
                  INTO stmt
                FROM pg_constraint c WHERE c.oid = r.objid;
            WHEN 'pg_trigger'::regclass THEN
                stmt := regexp_replace(pg_get_triggerdef(r.objid), '^CREATE TRIGGER', 'CREATE OR REPLACE TRIGGER');
            WHEN 'pg_policy'::regclass THEN
                SELECT format('ALTER POLICY %I ON %s', p.polname, p.polrelid::regclass)
                       || coalesce(' USING (' || pg_get_expr(p.polqual, p.polrelid) || ')', '')
                       || coalesce(' WITH CHECK (' || pg_get_expr(p.polwithcheck, p.polrelid) || ')', '')
                  INTO stmt
                FROM pg_policy p WHERE p.oid = r.objid;
            WHEN 'pg_type'::regclass THEN
                SELECT format('ALTER DOMAIN %s SET DEFAULT %s', t.oid::regtype, pg_get_expr(t.typdefaultbin, 0))
                  INTO stmt
                FROM pg_type t WHERE t.oid = r.objid;
            END CASE;
            FOR fname IN SELECT DISTINCT proname FROM uuid_ext_migration_map LOOP
                stmt := replace(stmt, format('%I.%I(', old_schema, fname), format('%I.%I(', new_schema, fname));
            END LOOP;
            EXECUTE stmt;
            done := done + 1;
            RETURN NEXT r.what;
        END;
    END LOOP;

    DROP TABLE pg_temp.uuid_ext_migration_map, pg_temp.uuid_ext_migration_deps;
    EXECUTE format('DROP EXTENSION %I', old_extension);
    RETURN NEXT format('dropped extension %I (%s objects re-pointed to uuid_ext)', old_extension, done);
END
$fn$;

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
