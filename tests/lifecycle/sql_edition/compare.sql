-- The comparisons of differential.sql, on the inputs it made: run again by
-- tests/lifecycle/sql_edition.sh in fresh sessions whose settings differ (the SQL edition's
-- PL/pgSQL is compiled, and its literals read, at a session's first call). :uuids is the table of
-- UUIDs compared (t.uuids unless set), :cases the table of bad-input cases (t.cases unless set),
-- :namespaces how many of the UUIDs the name-based generators take as namespaces (1000 unless set).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
\if :{?uuids}
\else
\set uuids t.uuids
\endif
\if :{?cases}
\else
\set cases t.cases
\endif
\if :{?namespaces}
\else
\set namespaces 1000
\endif

-- ---- uuid -> value ------------------------------------------------------------------------
\set compare 'SELECT t.report(:''what'', count(*), array_agg(x::text || '' -> '' || coalesce(a::text, ''NULL'') || '' / '' || coalesce(b::text, ''NULL'')) FILTER (WHERE a IS DISTINCT FROM b)) FROM'
\set what 'uuid_extract_timestamp'
:compare (SELECT x, n.uuid_extract_timestamp(x) a, s.uuid_extract_timestamp(x) b FROM :uuids) c;
\set what 'uuid_extract_version'
:compare (SELECT x, n.uuid_extract_version(x) a, s.uuid_extract_version(x) b FROM :uuids) c;
\set what 'uuid_is_v7'
:compare (SELECT x, n.uuid_is_v7(x) a, s.uuid_is_v7(x) b FROM :uuids) c;
\set what 'uuid_ext_timestamp'
:compare (SELECT x, n.uuid_ext_timestamp(x) a, s.uuid_ext_timestamp(x) b FROM :uuids) c;
\set what 'uuid_ext_timestamp_subms'
:compare (SELECT x, n.uuid_ext_timestamp_subms(x) a, s.uuid_ext_timestamp_subms(x) b FROM :uuids) c;
\set what 'uuid_ext_variant'
:compare (SELECT x, n.uuid_ext_variant(x) a, s.uuid_ext_variant(x) b FROM :uuids) c;
\set what 'uuid_ext_clock_seq'
:compare (SELECT x, n.uuid_ext_clock_seq(x) a, s.uuid_ext_clock_seq(x) b FROM :uuids) c;
\set what 'uuid_ext_node'
:compare (SELECT x, n.uuid_ext_node(x) a, s.uuid_ext_node(x) b FROM :uuids) c;
\set what 'uuid_v1_to_v6'
:compare (SELECT x, n.uuid_v1_to_v6(x) a, s.uuid_v1_to_v6(x) b FROM :uuids) c;
\set what 'uuid_v6_to_v1'
:compare (SELECT x, n.uuid_v6_to_v1(x) a, s.uuid_v6_to_v1(x) b FROM :uuids) c;
\set what 'uuid_v7_to_timestamptz'
:compare (SELECT x, n.uuid_v7_to_timestamptz(x) a, s.uuid_v7_to_timestamptz(x) b FROM :uuids) c;
\set what 'uuid_v7_to_timestamp'
:compare (SELECT x, n.uuid_v7_to_timestamp(x) a, s.uuid_v7_to_timestamp(x) b FROM :uuids) c;
\set what 'uuid_to_urn'
:compare (SELECT x, n.uuid_to_urn(x) a, s.uuid_to_urn(x) b FROM :uuids) c;
\set what 'uuid_from_urn(uuid_to_urn(x))'
:compare (SELECT x, n.uuid_from_urn(upper(n.uuid_to_urn(x))) a, s.uuid_from_urn(upper(n.uuid_to_urn(x))) b FROM :uuids) c;
\set what 'uuid_to_bytea, uuid_from_bytea'
:compare (SELECT x, (n.uuid_to_bytea(x), n.uuid_from_bytea(n.uuid_to_bytea(x))) a, (s.uuid_to_bytea(x), s.uuid_from_bytea(n.uuid_to_bytea(x))) b FROM :uuids) c;
\set what 'uuid_encode, every format'
:compare (SELECT x, n.uuid_encode(x, f) a, s.uuid_encode(x, f) b FROM :uuids, unnest('{hex,base32hex,base64url,crockford,HEX,Crockford}'::text[]) f) c;
\set what 'uuid_decode of every encoding, as written and in other case'
:compare (SELECT x, n.uuid_decode(e, f) a, s.uuid_decode(e, f) b
          FROM (SELECT x, f, CASE WHEN random() < 0.5 OR f = 'base64url' THEN n.uuid_encode(x, f) ELSE lower(n.uuid_encode(x, f)) END e
                FROM :uuids, unnest('{hex,base32hex,base64url,crockford}'::text[]) f) e) c;
\set what 'uuid_to_typeid'
:compare (SELECT x, n.uuid_to_typeid(p, x) a, s.uuid_to_typeid(p, x) b FROM :uuids, unnest('{"",user,a_b,abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk}'::text[]) p) c;
\set what 'uuid_from_typeid, uuid_typeid_prefix'
:compare (SELECT x, (n.uuid_from_typeid(n.uuid_to_typeid('user', x)), n.uuid_from_typeid(n.uuid_to_typeid('user', x), 'user'),
                     n.uuid_typeid_prefix(n.uuid_to_typeid('user', x)), n.uuid_from_typeid(n.uuid_to_typeid('', x))) a,
                    (s.uuid_from_typeid(n.uuid_to_typeid('user', x)), s.uuid_from_typeid(n.uuid_to_typeid('user', x), 'user'),
                     s.uuid_typeid_prefix(n.uuid_to_typeid('user', x)), s.uuid_from_typeid(n.uuid_to_typeid('', x))) b
          FROM :uuids) c;
\set what 'uuid_time_cmp, uuid_time_lt/le/ge/gt, on neighbours and on equal values'
:compare (SELECT x, (n.uuid_time_cmp(x, y), n.uuid_time_lt(x, y), n.uuid_time_le(x, y), n.uuid_time_ge(x, y), n.uuid_time_gt(x, y), n.uuid_time_cmp(x, x)) a,
                    (s.uuid_time_cmp(x, y), s.uuid_time_lt(x, y), s.uuid_time_le(x, y), s.uuid_time_ge(x, y), s.uuid_time_gt(x, y), s.uuid_time_cmp(x, x)) b
          FROM (SELECT x, lead(x) OVER (ORDER BY x) y FROM :uuids) p WHERE y IS NOT NULL) c;
\set what 'uuid_time_cmp on values of equal time (v1 and its v6, v7 at that millisecond)'
:compare (SELECT x, (n.uuid_time_cmp(x, n.uuid_v1_to_v6(x)), n.uuid_time_cmp(n.uuid_v1_to_v6(x), x), n.uuid_time_cmp(x, n.uuid_time_lower_bound(n.uuid_ext_timestamp(x)))) a,
                    (s.uuid_time_cmp(x, n.uuid_v1_to_v6(x)), s.uuid_time_cmp(n.uuid_v1_to_v6(x), x), s.uuid_time_cmp(x, n.uuid_time_lower_bound(n.uuid_ext_timestamp(x)))) b
          FROM :uuids WHERE n.uuid_extract_version(x) = 1) c;
\set what 'uuid_generate_v3, v5 and v8 (SHA-256) of namespaces and names'
:compare (SELECT x, (n.uuid_generate_v3(x, nm), n.uuid_generate_v5(x, nm), n.uuid_generate_v8(x, nm)) a,
                    (s.uuid_generate_v3(x, nm), s.uuid_generate_v5(x, nm), s.uuid_generate_v8(x, nm)) b
          FROM (SELECT x FROM :uuids LIMIT :namespaces) u,
               unnest(ARRAY['', 'www.example.com', 'é', '☃ snowman', repeat('long name ', 30), E'tab\tnew\nline', md5(x::text)]) nm) c;
\set what 'uuid_v7_to_public, uuid_v7_from_public with a key: 5,000 of the UUIDs, random keys, and back'
:compare (SELECT x, (n.uuid_v7_to_public(x, k), n.uuid_v7_from_public(x, k), n.uuid_v7_from_public(n.uuid_v7_to_public(x, k), k)) a,
                    (s.uuid_v7_to_public(x, k), s.uuid_v7_from_public(x, k), s.uuid_v7_from_public(s.uuid_v7_to_public(x, k), k)) b
          FROM (SELECT x, uuid_send(gen_random_uuid()) AS k FROM :uuids ORDER BY random() LIMIT 5000) u) c;
\set what 'uuid_generate_v8(bytea)'
:compare (SELECT x, n.uuid_generate_v8(uuid_send(x)) a, s.uuid_generate_v8(uuid_send(x)) b FROM :uuids) c;

-- ---- timestamp -> value ---------------------------------------------------------------------
\set compare_ts 'SELECT t.report(:''what'', count(*), array_agg(ts::text || '' -> '' || coalesce(a::text, ''NULL'') || '' / '' || coalesce(b::text, ''NULL'')) FILTER (WHERE a IS DISTINCT FROM b)) FROM'
\set what 'uuid_v7_lower_bound, uuid_v7_upper_bound'
:compare_ts (SELECT ts, (n.uuid_v7_lower_bound(ts), n.uuid_v7_upper_bound(ts)) a, (s.uuid_v7_lower_bound(ts), s.uuid_v7_upper_bound(ts)) b FROM t.times) c;
\set what 'uuid_time_lower_bound, uuid_time_upper_bound'
:compare_ts (SELECT ts, (n.uuid_time_lower_bound(ts), n.uuid_time_upper_bound(ts)) a, (s.uuid_time_lower_bound(ts), s.uuid_time_upper_bound(ts)) b FROM t.times) c;
\set what 'uuid_timestamptz_to_v7(ts, true), uuid_timestamp_to_v7(ts, true): values and errors'
:compare_ts (SELECT ts, (t.outcome(format('SELECT n.uuid_timestamptz_to_v7(%L, true)', ts)), t.outcome(format('SELECT n.uuid_timestamp_to_v7(%L::timestamptz::timestamp, true)', ts))) a,
                        (t.outcome(format('SELECT s.uuid_timestamptz_to_v7(%L, true)', ts)), t.outcome(format('SELECT s.uuid_timestamp_to_v7(%L::timestamptz::timestamp, true)', ts))) b
             FROM t.times) c;

-- Each case run once in each edition.
CREATE TEMP TABLE outcomes AS SELECT q, t.outcome(format(q, 'n')) na, t.outcome(format(q, 's')) sa FROM :cases;

-- Generators with a shift or at a time are compared by outcome class only (values differ).
SELECT t.report('outcomes of bad and edge input (value, or SQLSTATE, message, DETAIL and HINT)', count(*),
                array_agg(q || ': ' || a || ' / ' || b) FILTER (WHERE a IS DISTINCT FROM b))
FROM (SELECT q,
             CASE WHEN q ~ 'uuid_generate_v7[(]interval|uuidv7[(]interval|_to_v7[(]''[^'']*''[)]$' AND na LIKE 'value %' THEN 'value' ELSE na END a,
             CASE WHEN q ~ 'uuid_generate_v7[(]interval|uuidv7[(]interval|_to_v7[(]''[^'']*''[)]$' AND sa LIKE 'value %' THEN 'value' ELSE sa END b
      FROM outcomes) c;

-- Every case reached the functions compared: no outcome is a name-resolution error (42883,
-- 42703, 42P01, 42704) or a syntax error of the case itself, which both editions would share.
SELECT t.verdict('every bad-input case reached the function it calls, in both editions',
                 count(*) FILTER (WHERE o ~ '^error (42883|42703|42P01|42704|42601) ') = 0,
                 string_agg(q || ': ' || o, ' // ') FILTER (WHERE o ~ '^error (42883|42703|42P01|42704|42601) '))
FROM outcomes, unnest(ARRAY[na, sa]) o;
DROP TABLE outcomes;
