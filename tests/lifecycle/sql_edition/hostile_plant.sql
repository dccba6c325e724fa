-- Run by a role that may CREATE in schema public: for each operator name the edition's code
-- uses and each pair of operand types near the ones it uses, an operator in public that
-- pg_catalog does not have with exactly those operands, which raises "hostile operator" when
-- it runs. An operand of a slightly different type than pg_catalog's operator takes would
-- pick one of these over pg_catalog's, wherever public is searched.
\set ON_ERROR_STOP 1
DO $$
DECLARE
    ops text[] := ARRAY['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '&', '|', '#', '<<', '>>', '||', '~', '!~', '~*'];
    types text[] := ARRAY['int2', 'int4', 'int8', 'float8', 'numeric', 'text', 'bytea', 'bit', 'varbit', 'interval',
                          'timestamptz', 'timestamp', 'uuid', 'bool', 'name', '"char"', 'date'];
    o text;
    l text;
    r text;
    n int := 0;
BEGIN
    FOREACH o IN ARRAY ops LOOP
        FOREACH l IN ARRAY types LOOP
            FOREACH r IN ARRAY types LOOP
                CONTINUE WHEN EXISTS (SELECT FROM pg_operator
                                      WHERE oprnamespace = 'pg_catalog'::regnamespace AND oprname = o
                                        AND oprleft = l::regtype AND oprright = r::regtype);
                n := n + 1;
                EXECUTE format('CREATE FUNCTION public.hostile_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS '
                               '$f$BEGIN RAISE EXCEPTION ''hostile operator %s(%s, %s) ran as %%'', current_user; END$f$',
                               n, l, r, l, replace(o, '%', '%%'), l, r);
                EXECUTE format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.hostile_%s)',
                               o, l, r, n);
            END LOOP;
        END LOOP;
    END LOOP;
    RAISE NOTICE 'planted % operators', n;
END $$;
-- A function of the edition without SET search_path (uuid_generate_v7(), for speed) names every
-- function, type and operator qualified (bound.sql checks it). In case one is not: an exact copy,
-- in public, of every pg_catalog function the edition names (:names, from the script), which
-- raises "hostile operator" when it runs. (It wins over pg_catalog's wherever public is searched
-- first, as these operators do, so the edition's other functions pin search_path.)
SELECT set_config('plant.names', :'names', false) \g /dev/null
DO $$
DECLARE
    f record;
    n int := 0;
BEGIN
    FOR f IN SELECT p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
                    pg_catalog.pg_get_function_result(p.oid) AS result
             FROM pg_catalog.pg_proc p
             WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f' AND NOT p.proretset
               AND p.proname = ANY (string_to_array(current_setting('plant.names'), ' '))
               AND NOT EXISTS (SELECT FROM pg_catalog.unnest(p.proargtypes::regtype[]) t
                               WHERE t::text IN ('internal', 'anyelement', 'anyarray', '"any"', 'anynonarray', 'anycompatible', 'cstring'))
               AND p.prorettype NOT IN ('internal'::regtype, 'anyelement'::regtype, 'cstring'::regtype) LOOP
        BEGIN
            EXECUTE format('CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE plpgsql AS '
                           '$f$BEGIN RAISE EXCEPTION ''hostile operator function %s ran as %%'', current_user; END$f$',
                           f.proname, f.args, f.result, f.proname);
            n := n + 1;
        EXCEPTION WHEN OTHERS THEN NULL;
        END;
    END LOOP;
    RAISE NOTICE 'planted % functions', n;
END $$;
