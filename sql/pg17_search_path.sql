-- PostgreSQL 17's pg_catalog.uuid_extract_timestamp() reads UUID version 1 only (18 added v7),
-- and pg_catalog is searched first unless search_path lists it explicitly. So on 17 the
-- extension's uuid_extract_timestamp() (v1 and v7, PostgreSQL 18's answers) is found only when
-- search_path lists pg_catalog after the extension's schema. Say so, with the one-line fix,
-- when the search_path new sessions start with (postgresql.conf, ALTER DATABASE/ROLE ... SET)
-- leaves the built-in in charge. (A WARNING: CREATE EXTENSION silences NOTICEs from its script.)
-- Everything is qualified with pg_catalog: see sql/peer_check.sql for why.
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
