-- After hostile_plant.sql filled public with operators and the edition was installed into s
-- with search_path "s, public" (pg_catalog first, implicitly): call every function of the
-- edition, with arguments from a list per type (every combination), each call made with the
-- caller's search_path listing public before pg_catalog (the test's own code runs with
-- pg_catalog alone: near-miss operands of its own would run the planted operators too). Errors of the functions' own are expected (a
-- hex decoder given a TypeID); one raised by a planted operator is a failure.
\set ON_ERROR_STOP 1
SET search_path = pg_catalog;
SET client_min_messages = warning;
CREATE TEMP TABLE verdict (line text);
-- The planted operators do run where public is searched before pg_catalog (or the test could
-- not fail).
DO $$
BEGIN
    PERFORM pg_catalog.set_config('search_path', 's, public, pg_catalog', true);
    PERFORM 1::int8 & 1::int4;
    INSERT INTO pg_temp.verdict VALUES ('not ok - a planted operator runs when called');
EXCEPTION WHEN OTHERS THEN
    INSERT INTO pg_temp.verdict VALUES (CASE WHEN SQLERRM LIKE 'hostile operator &(int8, int4)%'
                                        THEN 'ok - a planted operator runs when called' ELSE 'not ok - planted operator: ' || SQLERRM END);
END $$;
DO $$
BEGIN
    PERFORM pg_catalog.set_config('search_path', 's, public, pg_catalog', true);
    PERFORM int8pl(1::pg_catalog.int8, 2::pg_catalog.int8);
    INSERT INTO pg_temp.verdict VALUES ('not ok - a planted copy of a pg_catalog function runs when called');
EXCEPTION WHEN OTHERS THEN
    INSERT INTO pg_temp.verdict VALUES (CASE WHEN SQLERRM LIKE 'hostile operator function int8pl%'
                                        THEN 'ok - a planted copy of a pg_catalog function runs when called' ELSE 'not ok - planted function: ' || SQLERRM END);
END $$;
DO $$
DECLARE
    f record;
    args text[];
    calls int := 0;
    errors int := 0;
    hostile text[] := '{}';
    msg text;
    uuids text[] := ARRAY['''018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f''::uuid', '''2463c780-7fca-4def-8c3f-7b1a2c4d5e6f''::uuid',
                          '''c232ab00-9414-11ec-b3c8-9f6bdeced846''::uuid', '''1ec9414c-232a-6b00-b3c8-9f6bdeced846''::uuid',
                          '''00000000-0000-0000-0000-000000000000''::uuid'];
    texts text[] := ARRAY['hex', 'base32hex', 'base64url', 'crockford', 'user', '', 'é', 'www.example.com',
                          'user_01hv6svmsa7qfrr3zv4nyn8sgv', '01hv6svmsa7qfrr3zv4nyn8sgv', '018f2d9f9a2a7def8c3f7b1a2c4d5e6f',
                          'AY8tn5oqfe-MP3saLE1ebw', '067iqpq2298fr6v6v8s2ojaesg', 'urn:uuid:018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'];
    choices jsonb := jsonb_build_object(
        'uuid', to_jsonb(uuids),
        'text', (SELECT jsonb_agg(quote_literal(t) || '::text') FROM unnest(texts) t),
        'bytea', jsonb_build_array('''\x0123456789abcdeffedcba9876543210''::bytea', '''\x00''::bytea', '''\x''::bytea'),
        'timestamp with time zone', jsonb_build_array('now()', '''-infinity''::timestamptz', '''1582-10-15 00:00Z''::timestamptz'),
        'timestamp without time zone', jsonb_build_array('localtimestamp', '''2000-01-01''::timestamp'),
        'interval', jsonb_build_array('''-1 hour''::interval', '''1 day''::interval'),
        'integer', jsonb_build_array('3', '0'),
        'boolean', jsonb_build_array('true', 'false'));
    combos text[];
    c text;
    t regtype;
BEGIN
    FOR f IN SELECT p.oid, p.proname, p.proargtypes::regtype[] AS types FROM pg_proc p
             WHERE p.pronamespace = 's'::regnamespace ORDER BY 1 LOOP
        combos := ARRAY[''];
        FOREACH t IN ARRAY f.types LOOP
            SELECT array_agg(CASE WHEN c0 = '' THEN a ELSE c0 || ', ' || a END) INTO combos
            FROM unnest(combos) c0, jsonb_array_elements_text(choices -> t::text) a;
        END LOOP;
        FOREACH c IN ARRAY coalesce(combos, '{}') LOOP
            calls := calls + 1;
            BEGIN
                PERFORM set_config('search_path', 's, public, pg_catalog', true);
                EXECUTE format('SELECT s.%I(%s)', f.proname, c);
                PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
            EXCEPTION WHEN OTHERS THEN
                errors := errors + 1;
                GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
                IF msg LIKE '%hostile operator%' THEN
                    hostile := hostile || (f.proname || '(' || c || '): ' || msg);
                END IF;
            END;
        END LOOP;
    END LOOP;
    IF cardinality(hostile) = 0 AND calls > 500 THEN
        INSERT INTO pg_temp.verdict VALUES (format('ok - every function of the edition, %s calls (%s of them errors of its own), with public''s operators first: none ran', calls, errors));
    ELSE
        INSERT INTO pg_temp.verdict VALUES (format('not ok - a planted operator ran in %s of %s calls; first: %s', cardinality(hostile), calls, hostile[1]));
    END IF;
END $$;
SELECT line FROM pg_temp.verdict;
