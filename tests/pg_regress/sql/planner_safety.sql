-- The planner hook never changes a result, never makes another role's query fail, calls only
-- uuid_ext's own functions and never reuses a plan for a role it was not made for. Each block
-- is a defect found in 0.2.0 (issue 17), kept as a regression test. This server preloads the
-- library, so the hook is active in every session.
SET timezone = 'UTC';
-- Whether the plan, with sequential scans discouraged (these tables are small), uses a path
-- the hook offered: a condition calling a bound function, or its value folded into a uuid
-- constant (no query here has one of its own).
CREATE FUNCTION pg_temp.hooked(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    PERFORM set_config('enable_seqscan', 'on', true);
    RETURN plan ~ '_bound\(|''[0-9a-f-]{36}''::uuid';
END $$;

-- 1. A NO INHERIT CHECK on a parent speaks for the parent alone. The child's v1 of
-- 2022-02-22 is in the window by its time, but not by its bytes (time_low comes first).
CREATE TABLE p (id uuid PRIMARY KEY, CHECK (uuid_extract_version(id) = 7) NO INHERIT);
CREATE TABLE c () INHERITS (p);
INSERT INTO p VALUES (uuid_timestamptz_to_v7('2022-03-01 00:00+00'));
INSERT INTO c VALUES ('00000000-9414-11ec-b3c8-9f6bdeced846');
SELECT count(*) AS with_hook FROM p WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00';
SET uuid_ext.time_index_conditions = off;
SELECT count(*) AS without_hook FROM p WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00';
RESET uuid_ext.time_index_conditions;
-- With ONLY, the parent's own CHECK is all there is to prove, and the key's index serves it;
-- with the children included, it serves the parent's own rows (its NO INHERIT CHECK holds for
-- them), while the child, without one, is read in full (the counts above are equal).
SELECT pg_temp.hooked($$SELECT * FROM ONLY p WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00'$$) AS only_parent,
       pg_temp.hooked($$SELECT * FROM p WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00'$$) AS with_children;
-- An inheritable CHECK is every child's too (a child cannot drop it, nor hold a v1).
CREATE TABLE p2 (id uuid PRIMARY KEY, CHECK (uuid_extract_version(id) = 7));
CREATE TABLE c2 (PRIMARY KEY (id)) INHERITS (p2);
INSERT INTO c2 VALUES ('00000000-9414-11ec-b3c8-9f6bdeced846');
ALTER TABLE c2 DROP CONSTRAINT p2_id_check;
INSERT INTO c2 VALUES (uuid_timestamptz_to_v7('2022-03-01 00:00+00'));
SELECT pg_temp.hooked($$SELECT * FROM p2 WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00'$$) AS inherited_check,
       (SELECT count(*) FROM p2 WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00') AS rows;
-- A CHECK whose "=" is not integer equality proves nothing (an operator of that name in
-- another schema could say anything).
CREATE SCHEMA lax;
CREATE FUNCTION lax.always(smallint, integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR lax.= (LEFTARG = smallint, RIGHTARG = integer, FUNCTION = lax.always);
CREATE TABLE p3 (id uuid PRIMARY KEY, CHECK (uuid_extract_version(id) OPERATOR(lax.=) 7));
INSERT INTO p3 VALUES ('00000000-9414-11ec-b3c8-9f6bdeced846');
SELECT pg_temp.hooked($$SELECT * FROM p3 WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00'$$) AS lax_check,
       (SELECT count(*) FROM p3 WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00') AS rows;
-- A foreign table does not enforce CHECK constraints, so a foreign partition or child (a file
-- holding a v1 of 2022-02-22) makes the inherited CHECK prove nothing.
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
COPY (SELECT '00000000-9414-11ec-b3c8-9f6bdeced846', 2) TO '/tmp/uuid_ext_regress_v1.csv' (FORMAT csv);
CREATE TABLE fp (id uuid, n int, CHECK (uuid_extract_version(id) = 7)) PARTITION BY LIST (n);
CREATE INDEX ON fp (id);
CREATE TABLE fp1 PARTITION OF fp FOR VALUES IN (1);
CREATE FOREIGN TABLE fp2 PARTITION OF fp FOR VALUES IN (2) SERVER files
    OPTIONS (filename '/tmp/uuid_ext_regress_v1.csv', format 'csv');
CREATE TABLE fi (id uuid PRIMARY KEY, n int, CHECK (uuid_extract_version(id) = 7));
CREATE FOREIGN TABLE fi_child () INHERITS (fi) SERVER files
    OPTIONS (filename '/tmp/uuid_ext_regress_v1.csv', format 'csv');
INSERT INTO fp1 VALUES (uuid_timestamptz_to_v7('2022-03-01 00:00+00'), 1);
INSERT INTO fi VALUES (uuid_timestamptz_to_v7('2022-03-01 00:00+00'), 1);
SELECT (SELECT count(*) FROM fp WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00') AS partitioned,
       (SELECT count(*) FROM fi WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00') AS inherited,
       pg_temp.hooked($$SELECT * FROM ONLY fi WHERE uuid_extract_timestamp(id) >= '2022-01-01 00:00+00'$$) AS only_parent_hooked;
DROP TABLE fp, fi CASCADE;
DROP EXTENSION file_fdw CASCADE;
DROP TABLE p, c, p2, c2, p3;
DROP SCHEMA lax CASCADE;

-- 1b. Multiple inheritance can reach a table through exponentially many paths: the walk over
-- a tree visits each table once (found by review: these 45 tables took 2^23 catalog scans, in
-- any role's time query on r, and the walk did not heed cancels; so a regression here shows
-- as the timeout's error once the walk is over, and at 32 levels would hang for hours).
CREATE TABLE r (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7));
CREATE TABLE a1 () INHERITS (r);
CREATE TABLE b1 () INHERITS (r);
SET client_min_messages = warning;
DO $$
BEGIN
    FOR i IN 2..22 LOOP
        EXECUTE format('CREATE TABLE a%s () INHERITS (a%s, b%s)', i, i - 1, i - 1);
        EXECUTE format('CREATE TABLE b%s () INHERITS (a%s, b%s)', i, i - 1, i - 1);
    END LOOP;
END $$;
RESET client_min_messages;
INSERT INTO a22 VALUES (uuid_timestamptz_to_v7(now()));
SET statement_timeout = '5s';
SELECT count(*) AS diamonds FROM r WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
RESET statement_timeout;
SET client_min_messages = warning;
DROP TABLE r CASCADE;
RESET client_min_messages;

-- 2.-4. need the extension in a schema of its own and several roles: a database of their own.
SET client_min_messages = warning;
DROP DATABASE IF EXISTS uuid_ext_roles;
DROP ROLE IF EXISTS uuid_ext_reader;
DROP ROLE IF EXISTS uuid_ext_granted;
DROP ROLE IF EXISTS uuid_ext_member;
RESET client_min_messages;
CREATE DATABASE uuid_ext_roles;
CREATE ROLE uuid_ext_reader;
CREATE ROLE uuid_ext_granted;
CREATE ROLE uuid_ext_member;
\c uuid_ext_roles
SET timezone = 'UTC';
CREATE FUNCTION pg_temp.hooked(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    PERFORM set_config('enable_seqscan', 'on', true);
    RETURN plan ~ '_bound\(|''[0-9a-f-]{36}''::uuid';
END $$;
CREATE SCHEMA ext;
-- (On 17 the extension warns that this database's search_path leaves core's v1-only
-- uuid_extract_timestamp() in charge; nothing here calls it unqualified.)
SET client_min_messages = error;
CREATE EXTENSION uuid_ext SCHEMA ext;
RESET client_min_messages;
CREATE TABLE t (id uuid PRIMARY KEY CHECK (ext.uuid_extract_version(id) = 7));
INSERT INTO t SELECT ext.uuid_timestamptz_to_v7('2022-02-22 00:00+00'::timestamptz + i * interval '1 hour')
FROM generate_series(0, 99) i;
ANALYZE t;
GRANT SELECT ON t TO uuid_ext_reader, uuid_ext_granted;

-- 2. A role that cannot use the extension's schema, running a query that merely looks like a
-- time window (a one-argument function of a uuid column against a timestamptz): PostgreSQL
-- alone answers it, so must PostgreSQL with the hook.
CREATE FUNCTION public.ts_of(uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS 'SELECT NULL::timestamptz';
SET ROLE uuid_ext_reader;
SELECT count(*) AS not_ours FROM t WHERE public.ts_of(id) >= now();
RESET ROLE;

-- 3. Only members of the extension are ever injected. Here uuid_v7_lower_bound is taken out of
-- the extension and a look-alike that raises takes its name, as a role with CREATE on the
-- schema could plant one before ALTER EXTENSION ... UPDATE creates the real one.
ALTER EXTENSION uuid_ext DROP FUNCTION ext.uuid_v7_lower_bound(timestamptz);
ALTER FUNCTION ext.uuid_v7_lower_bound(timestamptz) RENAME TO real_lower_bound;
CREATE FUNCTION ext.uuid_v7_lower_bound(timestamptz) RETURNS uuid LANGUAGE plpgsql IMMUTABLE STRICT
AS $$ BEGIN RAISE EXCEPTION 'planted look-alike called'; END $$;
SELECT count(*) AS planted_not_called FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00';
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS hooked;
DROP FUNCTION ext.uuid_v7_lower_bound(timestamptz);
ALTER FUNCTION ext.real_lower_bound(timestamptz) RENAME TO uuid_v7_lower_bound;
ALTER EXTENSION uuid_ext ADD FUNCTION ext.uuid_v7_lower_bound(timestamptz);
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS member_again;

-- 4. A generic plan cached by one role, reused by another: the bound functions are EXECUTE-able
-- by one role only, so the plan made for it must not be run for the other.
REVOKE EXECUTE ON FUNCTION ext.uuid_v7_lower_bound(timestamptz), ext.uuid_v7_upper_bound(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ext.uuid_v7_lower_bound(timestamptz), ext.uuid_v7_upper_bound(timestamptz) TO uuid_ext_granted;
GRANT USAGE ON SCHEMA ext TO uuid_ext_reader, uuid_ext_granted;
CREATE FUNCTION public.since(ts timestamptz) RETURNS bigint LANGUAGE plpgsql STABLE SECURITY INVOKER
AS $$ BEGIN RETURN (SELECT count(*) FROM t WHERE ext.uuid_ext_timestamp(id) >= ts); END $$;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;   -- the generic plans use the key's index where they may
SET ROLE uuid_ext_granted;
SELECT since('2022-02-25 00:00+00') AS granted_role;
SET ROLE uuid_ext_reader;
SELECT since('2022-02-25 00:00+00') AS other_role;
SET ROLE uuid_ext_granted;
SELECT since('2022-02-25 00:00+00') AS granted_role_again;
RESET ROLE;
-- The granted role's plan does use the key (the bounds are run for it), the other's does not.
SET ROLE uuid_ext_granted;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS granted_hooked;
SET ROLE uuid_ext_reader;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS other_hooked;
RESET ROLE;
RESET plan_cache_mode;
RESET enable_seqscan;
-- An ordered read calls no bound function: a role that may not run them still reads the
-- key's index in the order asked for.
CREATE TABLE t7 (id uuid PRIMARY KEY CHECK (ext.uuid_is_v7(id)));
INSERT INTO t7 SELECT ext.uuid_timestamptz_to_v7('2022-02-22 00:00+00'::timestamptz + i * interval '1 hour')
FROM generate_series(0, 999) i;
ANALYZE t7;
GRANT SELECT ON t7 TO uuid_ext_reader;
SET ROLE uuid_ext_reader;
EXPLAIN (COSTS OFF) SELECT id FROM t7 ORDER BY ext.uuid_extract_timestamp(id) DESC LIMIT 5;
RESET ROLE;
DROP TABLE t7;

-- 5. The operators a derived condition uses are checked like the bounds: with EXECUTE on
-- uuid_time_ops's >=| function revoked, a role's time window plans as in plain PostgreSQL
-- (found by review: it raised "permission denied for function uuid_time_ge").
CREATE TABLE tt (id uuid);
CREATE INDEX ON tt (id ext.uuid_time_ops);
INSERT INTO tt SELECT ext.uuid_timestamptz_to_v7('2022-02-22 00:00+00'::timestamptz + i * interval '1 hour')
FROM generate_series(0, 99) i;
ANALYZE tt;
GRANT SELECT ON tt TO uuid_ext_granted;
REVOKE EXECUTE ON FUNCTION ext.uuid_time_ge(uuid, uuid) FROM PUBLIC;
-- (uuid_ext_granted may run every bound function, as block 4 left them.)
SET ROLE uuid_ext_granted;
SELECT count(*) AS operator_revoked,
       pg_temp.hooked($$SELECT * FROM tt WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS hooked
FROM tt WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00';
RESET ROLE;
SELECT count(*) AS owner, pg_temp.hooked($$SELECT * FROM tt WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS hooked
FROM tt WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00';


-- 6. Where the range is exactly the window (CHECK (uuid_is_v7(id))), the extractor's call
-- leaves an index scan's plan: a role that may not run it is refused as without the hook (found
-- by review: it was given the count).
CREATE TABLE tx (id uuid PRIMARY KEY CHECK (ext.uuid_is_v7(id)));
INSERT INTO tx SELECT id FROM t;
ANALYZE tx;
GRANT SELECT ON tx TO uuid_ext_granted;
REVOKE EXECUTE ON FUNCTION ext.uuid_extract_timestamp(uuid) FROM PUBLIC;
SET ROLE uuid_ext_granted;
SELECT count(*) AS extractor_revoked FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
RESET ROLE;
SELECT count(*) AS owner FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
DO $$
DECLARE
    line text;
    plan text := '';
BEGIN
    -- (An index scan, where the window needs no recheck; a small table is otherwise read whole.)
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_bitmapscan = off;
    FOR line IN EXECUTE $q$EXPLAIN (COSTS OFF) SELECT count(*) FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00'$q$ LOOP
        plan := plan || line;
    END LOOP;
    RAISE NOTICE 'owner''s plan calls the extractor: %', plan ~ 'uuid_extract_timestamp';
END $$;
GRANT EXECUTE ON FUNCTION ext.uuid_extract_timestamp(uuid) TO PUBLIC;
-- The comparison's own function leaves that plan too: a REVOKE on it is honoured the same way
-- (found by review: the count was given); for a commuted window, the function of the operator
-- written. (Index scans, as above, where the window needs no recheck.)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
REVOKE EXECUTE ON FUNCTION pg_catalog.timestamptz_ge(timestamptz, timestamptz) FROM PUBLIC;
SET ROLE uuid_ext_granted;
SELECT count(*) AS comparison_revoked FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
SELECT count(*) AS commuted_uses_le FROM tx WHERE '2022-02-25 00:00+00' <= ext.uuid_extract_timestamp(id);
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.timestamptz_ge(timestamptz, timestamptz) TO PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.timestamptz_le(timestamptz, timestamptz) FROM PUBLIC;
SET ROLE uuid_ext_granted;
SELECT count(*) AS commuted_revoked FROM tx WHERE '2022-02-25 00:00+00' <= ext.uuid_extract_timestamp(id);
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.timestamptz_le(timestamptz, timestamptz) TO PUBLIC;
-- A plan without those calls depends on them: a REVOKE after it was cached makes it again, for
-- the same role (found by review: a prepared statement kept its rows), on a table and on
-- RANGE (id) partitions, whose window the pruning rewrite replaced.
CREATE TABLE px (id uuid PRIMARY KEY CHECK (ext.uuid_is_v7(id))) PARTITION BY RANGE (id);
CREATE TABLE px_1 PARTITION OF px FOR VALUES FROM (MINVALUE) TO (ext.uuid_v7_lower_bound('2022-02-25 00:00+00'));
CREATE TABLE px_2 PARTITION OF px FOR VALUES FROM (ext.uuid_v7_lower_bound('2022-02-25 00:00+00')) TO (MAXVALUE);
INSERT INTO px SELECT id FROM tx;
ANALYZE px;
GRANT SELECT ON px TO uuid_ext_granted;
SET ROLE uuid_ext_granted;
SET plan_cache_mode = force_generic_plan;
PREPARE cached_plain AS SELECT count(*) FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
PREPARE cached_partitions AS SELECT count(*) FROM px WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
EXECUTE cached_plain;
EXECUTE cached_partitions;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION pg_catalog.timestamptz_ge(timestamptz, timestamptz) FROM PUBLIC;
SET ROLE uuid_ext_granted;
EXECUTE cached_plain;
EXECUTE cached_partitions;
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.timestamptz_ge(timestamptz, timestamptz) TO PUBLIC;
REVOKE EXECUTE ON FUNCTION ext.uuid_extract_timestamp(uuid) FROM PUBLIC;
SET ROLE uuid_ext_granted;
EXECUTE cached_plain;
EXECUTE cached_partitions;
RESET ROLE;
GRANT EXECUTE ON FUNCTION ext.uuid_extract_timestamp(uuid) TO PUBLIC;
-- The conditions' own comparisons (core's uuid_ge and uuid_lt), which PostgreSQL does not
-- record as a plan's dependencies, the same way; and every comparison of the family, which
-- PostgreSQL's proofs may run over two conditions on one column while planning (found by
-- review: a prepared statement failed after a REVOKE on uuid_ge, and BETWEEN on partitions
-- with uuid_le revoked, where PostgreSQL alone gave the rows).
SET ROLE uuid_ext_granted;
PREPARE cached_range AS SELECT count(*) FROM tx WHERE ext.uuid_extract_timestamp(id) >= '2022-02-25 00:00+00';
EXECUTE cached_range;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION pg_catalog.uuid_ge(uuid, uuid) FROM PUBLIC;
SET ROLE uuid_ext_granted;
EXECUTE cached_range;
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.uuid_ge(uuid, uuid) TO PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.uuid_le(uuid, uuid) FROM PUBLIC;
SET ROLE uuid_ext_granted;
SELECT count(*) AS between_le_revoked FROM px
WHERE ext.uuid_extract_timestamp(id) BETWEEN '2022-02-25 00:00+00' AND '2022-03-01 00:00+00';
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.uuid_le(uuid, uuid) TO PUBLIC;
DEALLOCATE cached_range;
DEALLOCATE cached_plain;
DEALLOCATE cached_partitions;
RESET plan_cache_mode;
DROP TABLE px;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- 7. A role's memberships decide what it may run too: a generic plan made while the role was
-- a member of the role granted the bounds (block 4) must not run after the membership is
-- revoked (found by review: on 14 it raised "permission denied for function
-- uuid_v7_lower_bound"; 15 and later re-plan by themselves).
GRANT SELECT ON t TO uuid_ext_member;
GRANT USAGE ON SCHEMA ext TO uuid_ext_member;
GRANT uuid_ext_granted TO uuid_ext_member;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;   -- the generic plan is made with the key's index
SET ROLE uuid_ext_member;
PREPARE member_since(timestamptz) AS SELECT count(*) FROM t WHERE ext.uuid_ext_timestamp(id) >= $1;
EXECUTE member_since('2022-02-25 00:00+00');
SELECT pg_temp.hooked($$EXECUTE member_since('2022-02-25 00:00+00')$$) AS member_hooked;
RESET ROLE;
REVOKE uuid_ext_granted FROM uuid_ext_member;
SET ROLE uuid_ext_member;
EXECUTE member_since('2022-02-25 00:00+00');
SELECT pg_temp.hooked($$EXECUTE member_since('2022-02-25 00:00+00')$$) AS no_longer_member_hooked;
RESET ROLE;
RESET plan_cache_mode;
RESET enable_seqscan;
DEALLOCATE member_since;

-- 8. What a role may run is kept between plannings until a privilege may have changed: a role
-- that loses SUPERUSER (pg_authid) no longer runs the bounds revoked from PUBLIC in block 4; a
-- GRANT (pg_proc) gives them back; a REVOKE takes them again.
CREATE ROLE uuid_ext_super SUPERUSER;
GRANT SELECT ON t TO uuid_ext_super;
GRANT USAGE ON SCHEMA ext TO uuid_ext_super;
SET ROLE uuid_ext_super;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS superuser_hooked;
RESET ROLE;
ALTER ROLE uuid_ext_super NOSUPERUSER;
SET ROLE uuid_ext_super;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS no_longer_superuser_hooked;
RESET ROLE;
GRANT EXECUTE ON FUNCTION ext.uuid_v7_lower_bound(timestamptz), ext.uuid_v7_upper_bound(timestamptz) TO uuid_ext_super;
SET ROLE uuid_ext_super;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS granted_hooked;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ext.uuid_v7_lower_bound(timestamptz), ext.uuid_v7_upper_bound(timestamptz) FROM uuid_ext_super;
SET ROLE uuid_ext_super;
SELECT pg_temp.hooked($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= '2022-02-25 00:00+00'$$) AS revoked_hooked;
RESET ROLE;

-- 9. An error PostgreSQL raises while planning reaches the client as PostgreSQL raised it (its
-- SQLSTATE, DETAIL, HINT and CONTEXT), hook on or off (found by review: a PL/pgSQL RAISE's own
-- SQLSTATE came out as XX000, without its CONTEXT): raised in a function PostgreSQL folds, and
-- in a window's X, which the hook evaluates for its estimate.
CREATE FUNCTION boom_folded() RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RAISE EXCEPTION 'boom' USING ERRCODE = 'P0042', DETAIL = 'folded', HINT = 'a hint';
END $$;
CREATE FUNCTION boom_estimated() RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
    RAISE EXCEPTION 'boom' USING ERRCODE = 'P0042', DETAIL = 'estimated', HINT = 'a hint';
END $$;
CREATE FUNCTION pg_temp.planning_error(q text, hook boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    detail text;
    hint text;
    context text;
BEGIN
    PERFORM set_config('uuid_ext.time_index_conditions', hook::text, true);
    EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
    PERFORM set_config('uuid_ext.time_index_conditions', 'on', true);
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT, context = PG_EXCEPTION_CONTEXT;
    RETURN format('%s: %s | DETAIL: %s | HINT: %s | CONTEXT: %s', state, message, detail, hint,
                  split_part(context, E'\n', 1));
END $$;
SELECT hook,
       pg_temp.planning_error($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= boom_folded()$$, hook) AS folded,
       pg_temp.planning_error($$SELECT * FROM t WHERE ext.uuid_ext_timestamp(id) >= boom_estimated()$$, hook) AS estimated
FROM (VALUES (true), (false)) h(hook);
DROP FUNCTION boom_folded(), boom_estimated();

\c uuid_ext_regression
DROP DATABASE uuid_ext_roles;
DROP ROLE uuid_ext_reader;
DROP ROLE uuid_ext_granted;
DROP ROLE uuid_ext_member;
DROP ROLE uuid_ext_super;
