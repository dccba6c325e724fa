-- Nothing of another schema's in the edition's code (schema s): every PL/pgSQL function runs with
-- search_path pinned to pg_catalog (PL/pgSQL resolves names at each call, in the caller's path),
-- and every SQL-standard body is bound (pg_depend) to functions, operators and types of
-- pg_catalog or of the edition's own schema only (PostgreSQL records no dependency on pinned
-- objects, pg_catalog's; any other object a body uses is recorded). Prints "ok - …" / "not ok - …" lines.
\set ON_ERROR_STOP 1
SET search_path = pg_catalog;
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END
       || ' - every PL/pgSQL function of the edition pins search_path to pg_catalog, pg_temp'
       || coalesce(': ' || string_agg(p.oid::regprocedure::text || ' ' || coalesce(p.proconfig::text, 'no SET'), ', '), '')
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 's'::regnamespace AND l.lanname = 'plpgsql'
  AND p.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp'];

WITH refs AS (
    SELECT p.oid::regprocedure::text AS fn,
           CASE d.refclassid
               WHEN 'pg_proc'::regclass THEN (SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid)
               WHEN 'pg_operator'::regclass THEN (SELECT oprnamespace FROM pg_operator WHERE oid = d.refobjid)
               WHEN 'pg_type'::regclass THEN (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid)
           END AS ns,
           pg_describe_object(d.refclassid, d.refobjid, 0) AS what
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    WHERE p.pronamespace = 's'::regnamespace
      AND d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass)
)
SELECT CASE WHEN count(*) FILTER (WHERE ns NOT IN ('pg_catalog'::regnamespace, 's'::regnamespace)) = 0
                 AND count(*) > 0 THEN 'ok' ELSE 'not ok' END
       || ' - the SQL-standard bodies reference pg_catalog''s and the edition''s own objects only ('
       || count(*) || ' recorded references)'
       || coalesce(': ' || string_agg(fn || ' uses ' || what, ', ') FILTER (WHERE ns NOT IN ('pg_catalog'::regnamespace, 's'::regnamespace)), '')
FROM refs;

-- And at run time: no dynamic SQL (EXECUTE looks names up again at the call, where another role
-- may have renamed something into place since any check), and no call qualified with a schema
-- other than pg_catalog (comments aside).
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END
       || ' - no PL/pgSQL function of the edition runs dynamic SQL or calls a function of another schema by name'
       || coalesce(': ' || string_agg(p.oid::regprocedure::text, ', '), '')
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 's'::regnamespace AND l.lanname = 'plpgsql'
  AND (p.prosrc ~* '\mEXECUTE\M'
       OR EXISTS (SELECT FROM regexp_matches(regexp_replace(p.prosrc, '--[^\n]*', '', 'g'), '([A-Za-z_][A-Za-z_0-9]*)\.[A-Za-z_][A-Za-z_0-9]*\s*\(', 'g') m
                  WHERE m[1] <> 'pg_catalog'));
