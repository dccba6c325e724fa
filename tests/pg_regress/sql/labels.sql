-- Every function's volatility, strictness and parallel safety, so labels cannot drift.
-- uuid-ossp: generators VOLATILE STRICT PARALLEL SAFE; v3/v5/constants IMMUTABLE STRICT PARALLEL SAFE.
-- The same functions on every major (14-18), so a dump taken on any of them restores on a later one.
-- name(argument types), unqualified whatever the search_path (on 17/18 some are shadowed).
CREATE FUNCTION pg_temp.signature(p oid) RETURNS text LANGUAGE sql AS $$
    SELECT proname || '(' || array_to_string(ARRAY(SELECT format_type(t, NULL) FROM unnest(proargtypes) t), ',') || ')'
    FROM pg_proc WHERE oid = p $$;
SELECT pg_temp.signature(p.oid) AS function, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
ORDER BY 1;

-- pg_catalog functions of the same signature shadow exactly the documented ones on each major
-- (docs/MAJORS.md): PostgreSQL 17 added uuid_extract_timestamp/version, 18 uuidv4/uuidv7.
SELECT coalesce(array_agg(pg_temp.signature(p.oid) ORDER BY pg_temp.signature(p.oid)), '{}') = CASE
         WHEN current_setting('server_version_num')::int >= 180000 THEN
           '{uuid_extract_timestamp(uuid),uuid_extract_version(uuid),uuidv4(),uuidv7(),uuidv7(interval)}'::text[]
         WHEN current_setting('server_version_num')::int >= 170000 THEN
           '{uuid_extract_timestamp(uuid),uuid_extract_version(uuid)}'::text[]
         ELSE '{}'::text[] END AS shadowed_as_documented
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
JOIN pg_proc c ON c.pronamespace = 'pg_catalog'::regnamespace AND c.proname = p.proname
              AND c.proargtypes = p.proargtypes;
-- ... and they carry the built-ins' labels and result types, so a dump's schema-qualified call
-- behaves like the built-in it replaces.
-- (Counted, not bool_and: over the zero shadowed functions of 14-16 that would say nothing.)
SELECT count(*) = CASE WHEN current_setting('server_version_num')::int >= 180000 THEN 5
                       WHEN current_setting('server_version_num')::int >= 170000 THEN 2 ELSE 0 END
         AS compared_every_shadowed,
       count(*) FILTER (WHERE (p.provolatile, p.proisstrict, p.proparallel, p.prorettype)
                              IS DISTINCT FROM (c.provolatile, c.proisstrict, c.proparallel, c.prorettype))
         AS differing_labels
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
JOIN pg_proc c ON c.pronamespace = 'pg_catalog'::regnamespace AND c.proname = p.proname
              AND c.proargtypes = p.proargtypes;

-- Argument names and defaults as uuid-ossp and pg_uuidv7 spell them.
SELECT pg_get_function_arguments('uuid_generate_v3'::regproc) AS v3,
       pg_get_function_arguments('uuid_generate_v5'::regproc) AS v5,
       pg_get_function_arguments('uuid_timestamptz_to_v7'::regproc) AS to_v7;

-- The uuid_time_ops operators: implementing function, commutator, negator, estimators.
SELECT o.oprname, o.oprcode, com.oprname AS commutator, neg.oprname AS negator, o.oprrest, o.oprjoin
FROM pg_operator o
JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
LEFT JOIN pg_operator com ON com.oid = o.oprcom
LEFT JOIN pg_operator neg ON neg.oid = o.oprnegate
ORDER BY o.oprname;
-- ... and the operator class: strategies and support functions.
SELECT a.amopstrategy, a.amopopr::regoperator
FROM pg_amop a JOIN pg_opfamily f ON f.oid = a.amopfamily
WHERE f.opfname = 'uuid_time_ops' ORDER BY 1;
SELECT p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfname = 'uuid_time_ops' ORDER BY 1;

-- pg_upgrade and 0.1.0's SQL find the functions by their C symbols: those names must never change.
CREATE FUNCTION pg_temp.restored_uuidv4() RETURNS uuid AS 'uuid_ext', 'uuidv4_wrapper' LANGUAGE C;
CREATE FUNCTION pg_temp.restored_uuidv7() RETURNS uuid AS 'uuid_ext', 'uuidv7_wrapper' LANGUAGE C;
CREATE FUNCTION pg_temp.restored_uuidv7(interval) RETURNS uuid AS 'uuid_ext', 'uuidv7_shift_wrapper' LANGUAGE C STRICT;
CREATE FUNCTION pg_temp.restored_extract_ts(uuid) RETURNS timestamptz
    AS 'uuid_ext', 'uuid_extract_timestamp_wrapper' LANGUAGE C STRICT;
CREATE FUNCTION pg_temp.restored_extract_version(uuid) RETURNS smallint
    AS 'uuid_ext', 'uuid_extract_version_wrapper' LANGUAGE C STRICT;
SELECT pg_temp.restored_extract_version(pg_temp.restored_uuidv4()) AS v4,
       pg_temp.restored_extract_version(pg_temp.restored_uuidv7()) AS v7,
       pg_temp.restored_extract_ts('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') = '2022-02-22 19:22:22+00' AS a6_ts,
       pg_temp.restored_extract_ts(pg_temp.restored_uuidv7('-1 day')) < now() - interval '23 hours' AS shifted;

-- No member runs with its owner's privileges (docs/SECURITY.md): a non-superuser who installs
-- the (trusted) extension owns these functions, and everything they do runs as the caller.
SELECT count(*) AS functions, count(*) FILTER (WHERE p.prosecdef) AS security_definer
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
HAVING count(*) > 40;
