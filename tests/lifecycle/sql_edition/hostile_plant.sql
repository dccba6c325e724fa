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
