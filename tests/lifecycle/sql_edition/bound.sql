-- Nothing of another schema's in the edition's code (schema s): every PL/pgSQL function runs with
-- search_path pinned to pg_catalog (PL/pgSQL resolves names at each call, in the caller's path),
-- and every SQL-standard body is bound (pg_depend) to functions, operators and types of
-- pg_catalog or of the edition's own schema only (PostgreSQL records no dependency on pinned
-- objects, pg_catalog's; any other object a body uses is recorded). Prints "ok - …" / "not ok - …" lines.
\set ON_ERROR_STOP 1
SET search_path = pg_catalog;
-- The names a PL/pgSQL body leaves to the caller's search_path: a function called, a type after
-- ::, AS or in a declaration, a collation, or an operator (the symbols of one), outside string
-- literals and comments and RAISE's own option syntax; qualified ones are pg_catalog's.
CREATE FUNCTION pg_temp.unqualified(body text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
    WITH src AS (
        SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(body,
                   '--[^\n]*', '', 'g'),                           -- comments
                   '''([^'']|'''')*''', '''''', 'g'),              -- string literals
                   '\m(ERRCODE|MESSAGE|DETAIL|HINT)\s*=', '', 'gi'), -- RAISE ... USING x = ...
                   'pg_catalog\."?[a-z_0-9]+"?', '¤', 'gi') AS s    -- qualified names
    ), parts AS (
        SELECT s, coalesce(substring(s FROM '(?i)\mdeclare\M(.*?)\mbegin\M'), '') AS decl FROM src
    )
    SELECT array_agg(DISTINCT m[1]) FROM (
        SELECT regexp_matches(s,
            '((?:^|[^.\w"¤])(?!(?:if|case|when|then|else|and|or|not|in|cast|return|elsif|exists|coalesce|greatest|least|nullif)\s*\()[a-z_][a-z0-9_]*\s*\('   -- a call
            || '|::\s*[^¤\s]|\mas\s+(?!¤)[a-z_"]|\mcollate\s+(?!¤)\S'                                                   -- a type, a collation
            || '|(?<!:)[-+*/<>=~!@#%^&|?]+)',                                                                           -- an operator
            'gi') FROM parts
        UNION ALL
        SELECT regexp_matches(decl, '((?:^|;)\s*[a-z_][a-z0-9_]*\s+(?!¤|constant\M|alias\M)[a-z_"]\w*)', 'gi') FROM parts
    ) x(m)
$$;
-- It finds what it is for (or the check below could not fail).
SELECT CASE WHEN f ~ 'now\(' AND f ~ '\+' AND f ~ '::' AND f ~* 'collate' AND f ~ 'int8' AND f !~ 'abs|22008' THEN 'ok' ELSE 'not ok' END
       || ' - the check for names left to the caller''s search_path finds a call, an operator, a cast, a collation and a declared type, and no qualified name: ' || f
FROM (SELECT pg_temp.unqualified($b$DECLARE n int8 := 1; m pg_catalog.int8; BEGIN n := pg_catalog.abs(n) + m;
        RETURN now()::text COLLATE "C"; RAISE EXCEPTION USING ERRCODE = '22008'; END$b$)::text AS f) t;
-- Each PL/pgSQL function pins search_path to pg_catalog, pg_temp, or leaves no name to the
-- caller's (uuid_generate_v7(), which does without the SET for speed).
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END
       || ' - every PL/pgSQL function of the edition pins search_path to pg_catalog, pg_temp, or qualifies every name'
       || coalesce(': ' || string_agg(p.oid::regprocedure::text || ' ' || coalesce(p.proconfig::text, 'no SET: ' || pg_temp.unqualified(p.prosrc)::text), ', '), '')
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 's'::regnamespace AND l.lanname = 'plpgsql'
  AND p.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp']
  AND NOT (p.proconfig IS NULL AND pg_temp.unqualified(p.prosrc) IS NULL);
-- (On 18 and later uuid_generate_v7() is core's uuidv7() in a SQL-standard body: none.)
SELECT CASE WHEN array_agg(p.oid::regprocedure::text) IS NOT DISTINCT FROM
                 CASE WHEN current_setting('server_version_num')::int < 180000 THEN ARRAY['s.uuid_generate_v7()'] END
            THEN 'ok' ELSE 'not ok' END
       || ' - the PL/pgSQL functions without SET search_path: ' || coalesce(array_agg(p.oid::regprocedure::text)::text, 'none')
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 's'::regnamespace AND l.lanname = 'plpgsql' AND p.proconfig IS NULL;

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
