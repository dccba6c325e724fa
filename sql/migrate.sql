-- uuid_ext_migrate_from(old_extension): moves a live database from uuid-ossp or pg_uuidv7 (or
-- any extension whose functions uuid_ext has under the same names and argument types) to
-- uuid_ext, without CASCADE, without dropping a default and without rewriting a table.
--
-- The old extension must first be moved out of uuid_ext's schema (two extensions cannot both
-- own public.uuid_generate_v4()); README "Migrating" has the whole procedure, in short:
--     CREATE SCHEMA uuid_ext_retired;
--     ALTER EXTENSION "uuid-ossp" SET SCHEMA uuid_ext_retired;
--     CREATE EXTENSION uuid_ext;
--     SELECT * FROM uuid_ext_migrate_from('uuid-ossp');
--     DROP SCHEMA uuid_ext_retired;
-- Every object that depends on one of the old extension's functions is re-pointed to uuid_ext's
-- function of the same name and argument types: column and domain defaults (ALTER ... SET
-- DEFAULT), views (CREATE OR REPLACE VIEW, options kept), SQL-standard function bodies (CREATE
-- OR REPLACE FUNCTION), CHECK constraints (re-added NOT VALID, then validated: a scan, not a
-- rewrite), trigger WHEN clauses (CREATE OR REPLACE TRIGGER) and row-level security policies
-- (ALTER POLICY); comments on re-created constraints are kept. Partitioned and inherited
-- tables: each table's default is set on that table alone; an inherited CHECK and a partition's
-- clone of a trigger follow their parent's. Then the old extension is dropped (RESTRICT:
-- PostgreSQL itself refuses if anything still depends on it).
-- It refuses, changing nothing, an extension one of whose functions uuid_ext does not have
-- (pgcrypto, say): code calling that function by name would break when it is dropped.
-- Objects that cannot be re-pointed without a rewrite or a rebuild (stored generated columns,
-- index expressions and predicates, materialized views) stop it with an error listing them
-- before anything changed. It runs in the caller's transaction: all or nothing. Called again
-- once the old extension is gone, it does nothing and says so. It returns one line per change.
-- Functions whose bodies are strings (LANGUAGE sql without BEGIN ATOMIC, plpgsql) record no
-- dependency: they find uuid_ext's functions by name at run time.
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

    -- Only an extension whose every function uuid_ext has can go: functions written in plain SQL
    -- or PL/pgSQL call the old ones by name and record no dependency, so nothing would stop
    -- DROP EXTENSION from breaking them (pgcrypto's crypt() and gen_salt(), say).
    SELECT string_agg(m.proname || '(' || pg_get_function_identity_arguments(m.old_fn) || ')', ', '
                      ORDER BY m.proname, pg_get_function_identity_arguments(m.old_fn))
      INTO missing
    FROM uuid_ext_migration_map m WHERE m.new_fn IS NULL;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'uuid_ext cannot replace extension %', quote_ident(old_extension)
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'uuid_ext has no function to take the place of ' || missing || '.',
                  HINT = 'Nothing was changed. Keep extension ' || quote_ident(old_extension)
                         || ': code that calls its functions by name records no dependency, so dropping it could break that code. uuid_ext_migrate_from() replaces only extensions whose every function uuid_ext has, such as uuid-ossp and pg_uuidv7.';
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

    -- Re-created constraints get their comments back.
    CREATE TEMP TABLE uuid_ext_migration_comments ON COMMIT DROP AS
    SELECT c.conrelid, c.contypid, c.conname, ds.description
    FROM uuid_ext_migration_deps x
    JOIN pg_constraint c ON x.classid = 'pg_constraint'::regclass AND c.oid = x.objid
    JOIN pg_description ds ON ds.classoid = 'pg_constraint'::regclass AND ds.objoid = c.oid AND ds.objsubid = 0;

    -- Partitions and inheritance children: a default is set on each table itself (ONLY), while an
    -- inherited CHECK and a partition's clone of a trigger are re-created by their parent's
    -- statement, which recurses; each object is still listed.
    FOR r IN SELECT x.*, coalesce(c.coninhcount > 0 AND NOT c.conislocal, false)
                         OR coalesce(tg.tgparentid <> 0, false) AS by_parent
             FROM uuid_ext_migration_deps x
             LEFT JOIN pg_constraint c ON x.classid = 'pg_constraint'::regclass AND c.oid = x.objid
             LEFT JOIN pg_trigger tg ON x.classid = 'pg_trigger'::regclass AND tg.oid = x.objid
             ORDER BY x.classid, x.objid LOOP
        DECLARE
            stmt text;
        BEGIN
            IF r.by_parent THEN
                done := done + 1;
                RETURN NEXT r.what || ' (through its parent)';
                CONTINUE;
            END IF;
            CASE r.classid
            WHEN 'pg_attrdef'::regclass THEN
                SELECT format('ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname,
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

    FOR r IN SELECT * FROM uuid_ext_migration_comments LOOP
        IF r.contypid <> 0 THEN
            EXECUTE format('COMMENT ON CONSTRAINT %I ON DOMAIN %s IS %L', r.conname, r.contypid::regtype, r.description);
        ELSE
            EXECUTE format('COMMENT ON CONSTRAINT %I ON %s IS %L', r.conname, r.conrelid::regclass, r.description);
        END IF;
    END LOOP;

    DROP TABLE pg_temp.uuid_ext_migration_map, pg_temp.uuid_ext_migration_deps, pg_temp.uuid_ext_migration_comments;
    EXECUTE format('DROP EXTENSION %I', old_extension);
    RETURN NEXT format('dropped extension %I (%s objects re-pointed to uuid_ext)', old_extension, done);
END
$fn$;
