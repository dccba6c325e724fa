-- The SQL edition's generators (schema s), checked by their properties with uuid_ext's
-- extractors (schema n): version and variant bits, time within the call's clock window,
-- distinct random bits, strict order within a session in a tight loop and across the
-- counter's overflow. Prints "ok - …" / "not ok - …" lines.
\set ON_ERROR_STOP 1
SET TimeZone = 'UTC';
\ir lib.sql
-- On 18 and later the edition's v7 generators are core's uuidv7() (no session state of theirs).
SELECT current_setting('server_version_num')::int >= 180000 AS core_v7 \gset

-- Version, variant and time window of every generator; time to the millisecond (v7) or to the
-- microsecond the clock gives (v1, v6), between a clock reading before and one after.
DROP TABLE IF EXISTS t.made;
CREATE TABLE t.made AS
SELECT g, f, v, t0, clock_timestamp() AS t1
FROM (SELECT g, f, clock_timestamp() AS t0,
             CASE f WHEN 'v1' THEN s.uuid_generate_v1() WHEN 'v1mc' THEN s.uuid_generate_v1mc()
                    WHEN 'v4' THEN s.uuid_generate_v4() WHEN 'uuidv4' THEN s.uuidv4()
                    WHEN 'v6' THEN s.uuid_generate_v6() WHEN 'v7' THEN s.uuid_generate_v7()
                    WHEN 'uuidv7' THEN s.uuidv7() WHEN 'v7 shift' THEN s.uuid_generate_v7(interval '-1 day')
                    WHEN 'uuidv7 shift' THEN s.uuidv7(interval '1 hour')
                    WHEN 'to_v7' THEN s.uuid_timestamptz_to_v7(clock_timestamp()) END AS v
      FROM generate_series(1, 2000) g,
           unnest('{v1,v1mc,v4,uuidv4,v6,v7,uuidv7,"v7 shift","uuidv7 shift",to_v7}'::text[]) f) m;
SELECT t.verdict('version and variant of every generator', count(*) FILTER (WHERE NOT ok) = 0,
                 string_agg(DISTINCT f, ', ') FILTER (WHERE NOT ok))
FROM (SELECT f, n.uuid_ext_variant(v) = 'RFC 9562'
                AND n.uuid_extract_version(v) = CASE WHEN f IN ('v1', 'v1mc') THEN 1 WHEN f IN ('v4', 'uuidv4') THEN 4
                                                     WHEN f = 'v6' THEN 6 ELSE 7 END AS ok
      FROM t.made) c;
SELECT t.verdict('time within the clock window of the call (v1, v1mc, v6, v7, uuidv7, shifts, uuid_timestamptz_to_v7)',
                 count(*) FILTER (WHERE NOT ok) = 0, min(f || ' ' || v::text) FILTER (WHERE NOT ok))
FROM (SELECT f, v, n.uuid_ext_timestamp(v) - coalesce(shift, interval '0')
                   BETWEEN date_trunc('millisecond', t0) AND t1 AS ok
      FROM (SELECT *, CASE f WHEN 'v7 shift' THEN interval '-1 day' WHEN 'uuidv7 shift' THEN interval '1 hour' END AS shift
            FROM t.made WHERE f NOT IN ('v4', 'uuidv4')) m) c;
SELECT t.verdict('v7 sub-millisecond fraction within the clock window', count(*) FILTER (WHERE NOT ok) = 0,
                 min(v::text) FILTER (WHERE NOT ok))
FROM (SELECT v, n.uuid_ext_timestamp_subms(v) BETWEEN t0 - interval '1 microsecond' AND t1 AS ok
      FROM t.made WHERE f IN ('v7', 'uuidv7')) c;
SELECT t.verdict('no value made twice; random bits (last 48) distinct', count(DISTINCT v) = count(*)
                 AND count(DISTINCT right(v::text, 12)) FILTER (WHERE f NOT IN ('v1', 'v6')) >= count(*) FILTER (WHERE f NOT IN ('v1', 'v6')) - 1)
FROM t.made;
SELECT t.verdict('v1 and v6 keep one random multicast node per session; v1mc a fresh one per value',
                 count(DISTINCT n.uuid_ext_node(v)) FILTER (WHERE f IN ('v1', 'v6')) = 1
                 AND count(DISTINCT n.uuid_ext_node(v)) FILTER (WHERE f = 'v1mc') = 2000
                 AND bool_and(get_byte(n.uuid_ext_node(v), 0) & 3 = 3) FILTER (WHERE f IN ('v1', 'v1mc', 'v6')))
FROM t.made;

-- Strict order in a tight loop, and in the order uuid_generate_v7_batch() returns.
SELECT t.verdict('uuid_generate_v7(): 100,000 values in one statement, strictly increasing', bool_and(v < nxt))
FROM (SELECT v, lead(v) OVER (ORDER BY g) AS nxt FROM (SELECT g, s.uuid_generate_v7() AS v FROM generate_series(1, 100000) g) x) y
WHERE nxt IS NOT NULL;
SELECT s.uuid_generate_v7() AS before \gset
SELECT t.verdict('uuid_generate_v7_batch(100000): strictly increasing, after the session''s last uuid_generate_v7()',
                 bool_and(v < nxt) AND bool_and(g > 1 OR v > :'before'::uuid))
FROM (SELECT g, v, lead(v) OVER (ORDER BY g) AS nxt FROM s.uuid_generate_v7_batch(100000) WITH ORDINALITY AS b(v, g)) y
WHERE nxt IS NOT NULL;
SELECT t.verdict('v1 and v6: timestamps strictly increasing within a session',
                 bool_and(n.uuid_ext_timestamp(a) <= n.uuid_ext_timestamp(b) AND (a <> b)))
FROM (SELECT v AS a, lead(v) OVER (ORDER BY g) AS b FROM (SELECT g, s.uuid_generate_v6() AS v FROM generate_series(1, 20000) g) x) y
WHERE b IS NOT NULL;
\if :core_v7
-- On 18: uuid_ext_sql.v7_state, whatever it holds (a state 5 s, 100 ms or 3,000 years ahead of
-- the clock), is read by none of the v7 generators: each next value is of now, after the last one.
-- (uuid_generate_v7(), uuidv7(), the batch and a zero shift in turn.)
SELECT s.uuid_generate_v7() AS before \gset
SELECT t.verdict('on 18, the v7 generators read no uuid_ext_sql.v7_state: values of now, each after the last',
                 bool_and(abs(extract(epoch FROM n.uuid_extract_timestamp(v) - clock_timestamp())) < 1)
                 AND bool_and(v > prev) AND count(*) FILTER (WHERE prev = :'before'::uuid) = 1,
                 string_agg(state || ' -> ' || v, '; '))
FROM (SELECT state, v, lag(v, 1, :'before'::uuid) OVER (ORDER BY i) AS prev
      FROM (SELECT i * 10 + j AS i, state, v
            FROM (SELECT i, state, set_config('uuid_ext_sql.v7_state', state, false),
                         ARRAY[s.uuid_generate_v7(), s.uuidv7(), (SELECT b FROM s.uuid_generate_v7_batch(1 + 0 * st.i::int) b),
                               s.uuid_generate_v7(interval '0')] AS vs
                  FROM (SELECT i, replace(n.uuid_timestamptz_to_v7(clock_timestamp() + x, true)::text, '-', '') AS state
                        FROM unnest(ARRAY[interval '5 seconds', interval '100 milliseconds', interval '3000 years']) WITH ORDINALITY AS a(x, i)) st) c,
                 unnest(vs) WITH ORDINALITY AS u(v, j)) e) d;
\else
-- Many values in one tick: with the state ahead of the clock (as after many calls within one
-- tick, or a clock that went back), values continue from it, through the counter's overflow.
SELECT set_config('uuid_ext_sql.v7_state',
                  overlay(replace(n.uuid_timestamptz_to_v7(clock_timestamp() + interval '100 milliseconds', true)::text, '-', '')
                          PLACING 'bffc' FROM 17 FOR 4), false) \g /dev/null
SELECT t.verdict('with the clock behind the state: strictly increasing through the counter''s overflow into the next tick',
                 bool_and(v < nxt) AND count(DISTINCT left(v::text, 18)) = 2)
FROM (SELECT v, lead(v) OVER (ORDER BY g) AS nxt FROM (SELECT g, s.uuid_generate_v7() AS v FROM generate_series(1, 10) g) x) y
WHERE nxt IS NOT NULL;
\endif
-- Whatever the setting holds, a value: a session's state is only a setting any role can set.
SELECT t.verdict('uuid_ext_sql.v7_state and v1_state holding anything: still values, in order afterwards',
                 count(*) = 14 AND bool_and(n.uuid_extract_version(v) IN (6, 7)))
FROM (SELECT set_config('uuid_ext_sql.v7_state', x, false), set_config('uuid_ext_sql.v1_state', x, false),
             unnest(ARRAY[s.uuid_generate_v7(), s.uuid_generate_v6()]) AS v
      FROM unnest(ARRAY['', 'garbage', 'ZZZZ', '1234:5678', 'FFFFFFFFFFFF7FFFBFFF000000000000', '0:0:0:000000000000',
                        '9999999999999999999:9999999999999999999:1:0123456789ab']) x) c
WHERE v IS NOT NULL;
-- A state far ahead of the clock is no state (any role can set the setting, and behind a pooler
-- it outlives the client that set it): keys do not carry a time of the setter's choosing, and
-- the session does not fail. Up to 10 s ahead it is continued, as after a clock step back.
SELECT t.verdict('uuid_ext_sql.v7_state in year 10889, or at the last tick: the next v7 is of now, and so is the one after',
                 bool_and(abs(extract(epoch FROM n.uuid_extract_timestamp(a) - now())) < 60
                          AND abs(extract(epoch FROM n.uuid_extract_timestamp(b) - now())) < 60 AND a < b),
                 string_agg(x || ': ' || a || ', ' || b, '; '))
FROM (SELECT x, s.uuid_generate_v7() AS a, s.uuid_generate_v7() AS b
      FROM (SELECT x, set_config('uuid_ext_sql.v7_state', x, false)
            FROM unnest(ARRAY['fffffffff0007000bfff000000000000', 'ffffffffffff7fffbfff000000000000']) x) c) d;
\if :core_v7
\else
SELECT t.verdict('uuid_ext_sql.v7_state 5 s ahead of the clock: continued (strictly after it); 11 s ahead: ignored (a value of now)',
                 bool_and(CASE WHEN ahead = 5 THEN v > state::uuid ELSE v < state::uuid
                                                  AND abs(extract(epoch FROM n.uuid_extract_timestamp(v) - clock_timestamp())) < 1 END),
                 string_agg(ahead || ': ' || state || ' -> ' || v, '; '))
FROM (SELECT ahead, state, set_config('uuid_ext_sql.v7_state', state, false) AS s1, s.uuid_generate_v7() AS v
      FROM (SELECT ahead, replace(n.uuid_timestamptz_to_v7(clock_timestamp() + ahead * interval '1 second', true)::text, '-', '') AS state
            FROM unnest(ARRAY[5, 11]) ahead) st) c;
\endif
SELECT t.verdict('uuid_ext_sql.v1_state at the last 100 ns of the v1 range: the next v1 is of now',
                 abs(extract(epoch FROM n.uuid_extract_timestamp(v) - now())) < 60, v::text)
FROM (SELECT set_config('uuid_ext_sql.v1_state', '1152921504606846975:1152921504606846975:1:0123456789ab', false),
             s.uuid_generate_v1() AS v) c;
SELECT set_config('uuid_ext_sql.v7_state', '', false), set_config('uuid_ext_sql.v1_state', '', false) \g /dev/null
