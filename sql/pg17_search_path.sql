-- PostgreSQL 17's pg_catalog.uuid_extract_timestamp() reads UUID version 1 only (18 added v7),
-- and pg_catalog is searched first unless search_path lists it explicitly. So on 17 the
-- extension's uuid_extract_timestamp() (v1 and v7, PostgreSQL 18's answers) is found only when
-- search_path lists pg_catalog after the extension's schema. Say so, with the one-line fix,
-- when the search_path new sessions start with (postgresql.conf, ALTER DATABASE/ROLE ... SET)
-- leaves the built-in in charge. (A WARNING: CREATE EXTENSION silences NOTICEs from its script.)
DO $$
DECLARE
    ext_schema text := btrim('@extschema@', '"');
    schemas text[];
BEGIN
    IF current_setting('server_version_num')::int / 10000 <> 17 THEN
        RETURN;
    END IF;
    SELECT array_agg(CASE WHEN s = '$user' THEN current_user::text ELSE s END ORDER BY n)
      INTO schemas
      FROM pg_settings,
           unnest(string_to_array(reset_val, ',')) WITH ORDINALITY AS p(entry, n),
           LATERAL (SELECT btrim(btrim(entry), '"') AS s) x
     WHERE name = 'search_path';
    IF array_position(schemas, ext_schema) < array_position(schemas, 'pg_catalog') THEN
        RETURN;
    END IF;
    RAISE WARNING 'on PostgreSQL 17, uuid_extract_timestamp() resolves to pg_catalog''s built-in, which returns NULL for UUID version 7'
        USING HINT = format('List pg_catalog after %I in search_path, e.g. ALTER DATABASE %I SET search_path = "$user", %I, pg_catalog; then reconnect.',
                            ext_schema, current_database(), ext_schema);
END
$$;
