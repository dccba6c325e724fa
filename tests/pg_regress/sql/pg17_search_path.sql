-- PostgreSQL 17: the built-in uuid_extract_timestamp() reads version 1 only and, with pg_catalog
-- searched first, hides the extension's (v1 and v7). CREATE EXTENSION says so (a WARNING with the
-- one-line fix) when the search_path new sessions get leaves the built-in in charge, and the fix
-- works. On every other major there is nothing to fix: no WARNING, and v7 timestamps as on 18.
-- (expected/pg17_search_path_1.out is PostgreSQL 17's output.)
SELECT current_setting('server_version_num')::int / 10000 = 17 AS on_17;
CREATE DATABASE uuid_ext_search_path;
-- PostgreSQL's default search_path (the test cluster itself runs on 17 with the README's fix).
ALTER DATABASE uuid_ext_search_path SET search_path = "$user", public;
\c uuid_ext_search_path
-- As installed by default: the WARNING (on 17 only), and 17 answers NULL for a v7.
CREATE EXTENSION uuid_ext;
SELECT uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') IS NULL
       = (current_setting('server_version_num')::int / 10000 = 17) AS null_exactly_on_17;
-- The fix the WARNING names, for new sessions of this database.
ALTER DATABASE uuid_ext_search_path SET search_path = "$user", public, pg_catalog;
\c uuid_ext_search_path
SELECT uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS a6_timestamp_utc
FROM (SELECT set_config('timezone', 'UTC', false)) s;
-- With the fix in place, re-creating the extension says nothing.
DROP EXTENSION uuid_ext;
CREATE EXTENSION uuid_ext;
\c postgres
DROP DATABASE uuid_ext_search_path;
