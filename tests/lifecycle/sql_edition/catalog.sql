-- The SQL edition's catalog (schema s) against uuid_ext's (schema n): every function the two
-- share has the same arguments (names, types, defaults), return type, volatility, strictness
-- and parallel label, except the labels the README documents; every uuid_ext function the
-- edition lacks is on the README's list (psql variable :'lacking', a |-separated list of
-- signatures, name(identity arguments); :'labels', of signature=label pairs for the documented
-- label differences); and the edition has no function uuid_ext lacks. Prints "ok - …" / "not ok - …" lines.
\set ON_ERROR_STOP 1
WITH f AS (
    SELECT p.pronamespace::regnamespace::text AS side, p.proname::text AS name,
           pg_get_function_identity_arguments(p.oid) AS args,
           pg_get_function_arguments(p.oid) AS full_args,
           pg_get_function_result(p.oid) AS result,
           p.provolatile, p.proisstrict, p.proparallel, p.prokind
    FROM pg_proc p
    WHERE p.pronamespace IN ('n'::regnamespace, 's'::regnamespace)
), pairs AS (
    SELECT n.name, n.args, n.full_args AS n_args, s.full_args AS s_args, n.result AS n_result, s.result AS s_result,
           n.provolatile::text || n.proisstrict::text || n.prokind::text AS n_labels, s.provolatile::text || s.proisstrict::text || s.prokind::text AS s_labels,
           n.proparallel::text AS n_parallel, s.proparallel::text AS s_parallel
    FROM f n JOIN f s ON s.side = 's' AND s.name = n.name AND s.args = n.args
    WHERE n.side = 'n'
), documented AS (
    SELECT split_part(x, '=', 1) AS signature, split_part(x, '=', 2) AS label
    FROM unnest(string_to_array(:'labels', '|')) x
)
SELECT CASE WHEN count(*) FILTER (WHERE bad) = 0 AND count(*) > 0 THEN 'ok' ELSE 'not ok' END
       || ' - shared functions have uuid_ext''s arguments, result and labels (' || count(*) || ' functions)'
       || coalesce(': ' || string_agg(name || '(' || args || ') ' || why, '; ') FILTER (WHERE bad), '')
FROM (SELECT name, args,
             n_args <> s_args OR n_result <> s_result OR n_labels <> s_labels
             OR (n_parallel <> s_parallel AND NOT EXISTS (SELECT FROM documented d WHERE d.signature = pairs.name || '(' || pairs.args || ')'
                                                          AND d.label = 'parallel ' || s_parallel)) AS bad,
             concat_ws(' ', CASE WHEN n_args <> s_args THEN 'arguments ' || s_args || ' vs ' || n_args END,
                       CASE WHEN n_result <> s_result THEN 'result ' || s_result || ' vs ' || n_result END,
                       CASE WHEN n_labels <> s_labels THEN 'labels ' || s_labels || ' vs ' || n_labels END,
                       CASE WHEN n_parallel <> s_parallel THEN 'parallel ' || s_parallel || ' vs ' || n_parallel END) AS why
      FROM pairs) c;

WITH f AS (
    SELECT p.pronamespace::regnamespace::text AS side, p.proname::text AS name, pg_get_function_identity_arguments(p.oid) AS args
    FROM pg_proc p WHERE p.pronamespace IN ('n'::regnamespace, 's'::regnamespace)
)
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END
       || ' - every uuid_ext function the edition lacks is on the README''s list'
       || coalesce(': not listed: ' || string_agg(name || '(' || args || ')', ', '), '')
FROM f n
WHERE n.side = 'n'
  AND NOT EXISTS (SELECT FROM f s WHERE s.side = 's' AND s.name = n.name AND s.args = n.args)
  AND n.name || '(' || n.args || ')' <> ALL (string_to_array(:'lacking', '|'));

WITH f AS (
    SELECT p.pronamespace::regnamespace::text AS side, p.proname::text AS name, pg_get_function_identity_arguments(p.oid) AS args
    FROM pg_proc p WHERE p.pronamespace IN ('n'::regnamespace, 's'::regnamespace)
), documented AS (
    SELECT split_part(x, '=', 1) AS signature FROM unnest(string_to_array(:'labels', '|')) x
)
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END
       || ' - the README''s list names only functions the edition lacks, and the edition has no function uuid_ext lacks'
       || coalesce(': ' || string_agg(what, ', '), '')
FROM (SELECT 'extra in the edition: ' || name || '(' || args || ')' AS what FROM f s
      WHERE s.side = 's' AND NOT EXISTS (SELECT FROM f n WHERE n.side = 'n' AND n.name = s.name AND n.args = s.args)
      UNION ALL
      SELECT 'listed but present or not in uuid_ext: ' || l FROM unnest(string_to_array(:'lacking', '|')) l
      WHERE EXISTS (SELECT FROM f s WHERE s.side = 's' AND s.name || '(' || s.args || ')' = l)
         OR NOT EXISTS (SELECT FROM f n WHERE n.side = 'n' AND n.name || '(' || n.args || ')' = l)
      UNION ALL
      SELECT 'documented label of a function not in both: ' || signature FROM documented d
      WHERE NOT EXISTS (SELECT FROM f s WHERE s.side = 's' AND s.name || '(' || s.args || ')' = d.signature)) x;
