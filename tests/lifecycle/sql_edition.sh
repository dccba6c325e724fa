#!/usr/bin/env bash
# The SQL edition, uuid_ext_sql (sql-edition/, docs/MANAGED.md), on every major of
# this run:
#  - the three installs, each by a role that is not a superuser: psql -f into a schema the role
#    may only CREATE in; pg_tle (built from shared/third_party), as a pgtle_admin; CREATE
#    EXTENSION from a control file, as a role with CREATE on the database;
#  - its catalog against uuid_ext's (catalog.sql), with docs/MANAGED.md's list of what it lacks;
#  - nothing of another schema's bound into its code (bound.sql), even with another role's
#    operators on the installer's and the caller's search_path (hostile_plant.sql, hostile.sql);
#  - the same answers as uuid_ext on many inputs, and the same errors (differential.sql), with
#    and without pgcrypto installed (v5's SHA-1 is the edition's own either way);
#  - its generators by their properties (generators.sql), and strict order within each session
#    under pgbench with several clients;
#  - uuid_ext_migrate_from('uuid_ext_sql'): a partitioned schema with defaults, CHECKs, indexes
#    and views moves to uuid_ext without a table being rewritten.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$ROOT/tests/lifecycle/sql_edition
EDITION=$ROOT/sql-edition

check_cmd "sql-edition/ is what scripts/sql_edition.py writes from sql-edition/src" \
    python3 "$ROOT/scripts/sql_edition.py" --check
version=$(python3 "$ROOT/scripts/sql_edition.py" --print-version)
# The version the edition updates from (--@updates-from), and the last commit whose source had it.
prev=$(sed -n 's/^--@updates-from \(.*\)$/\1/p' "$ROOT/sql-edition/src/uuid_ext_sql.sql.in")
prev_commit=$(git -C "$ROOT" log --format=%h -- sql-edition/src/uuid_ext_sql.sql.in | while read -r c; do
    git -C "$ROOT" show "$c:sql-edition/src/uuid_ext_sql.sql.in" | grep -qxF -- "--@version $prev" && { echo "$c"; break; }
done)
# (Without it the update checks below would compare against nothing: found by review.)
check "the commit whose edition source is version $prev is found (git log)" "yes" "$([ -n "$prev_commit" ] && echo yes)"

# docs/MANAGED.md's list of what the edition lacks (the names in its table) and of its different
# labels, between its markers.
first_cells() { # the signatures in the first cells of a docs/MANAGED.md table between two markers
    sed -n "/<!-- $1: begin -->/,/<!-- $1: end -->/p" "$ROOT/docs/MANAGED.md" | grep '^| `' | awk -F' [|] ' '{print $1}' \
        | grep -o '`[a-z_0-9]*([^`]*)`' | tr -d '`' | sort -u
}
lacking=$(first_cells "sql edition lacks" | paste -sd'|' -)
labels=$(first_cells "sql edition labels" | sed 's/$/=parallel u/' | paste -sd'|' -)
check "docs/MANAGED.md lists what the edition lacks and its labels" "yes" \
    "$([ -n "$lacking" ] && [ -n "$labels" ] && echo yes || echo no)"

# as BIN PORT ROLE DB [psql args]: psql as ROLE, stop at the first error.
as() {
    local bin=$1 port=$2 role=$3 db=$4
    shift 4
    "$bin/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U "$role" -d "$db" "$@"
}
# The ok/not ok lines of a test SQL file, run as the superuser.
run_checks() { # BIN PORT DB FILE [psql args]
    local bin=$1 port=$2 db=$3 file=$4 out
    shift 4
    out=$(as "$bin" "$port" postgres "$db" -f "$file" "$@" 2>&1)
    grep -E '^((not )?ok|skipped) - ' <<<"$out" | sed -E "s/^((not )?ok - |skipped - )/\1PostgreSQL $v: /"
    grep -q 'ERROR:' <<<"$out" && echo "not ok - PostgreSQL $v: $(basename "$file") ran to the end: $(grep -m1 'ERROR:' <<<"$out")"
    return 0
}

for v in "${RUN_MAJORS[@]}"; do
    share=$("$(pg_config_for "$v")" --sharedir)/extension
    rm -f "$share"/uuid_ext_sql.control "$share"/uuid_ext_sql--*.sql

    # ---- 1. pg_tle, as a pgtle_admin that is not a superuser ---------------------------------
    if [ ! -f "$PG_TLE_TARBALL" ]; then
        # No registry serves pg_tle's source: a clone without it skips this install, and says how.
        echo "skipped - PostgreSQL $v: pg_tle install (its source $PG_TLE_TARBALL is not here; set UUID_EXT_PG_TLE_TARBALL to pg_tle-$PG_TLE_VERSION.tar.gz, sha256 $PG_TLE_SHA256)"
    elif [ "$v" -ge 19 ] && [ "$PG_TLE_VERSION" = 1.5.2 ]; then
        # (Tried on 19rc1, 2026-11-28: its src/tleextension.c calls FuncnameGetCandidates() with
        # 18's arguments, a compile error. A pg_tle that builds on 19 is tested here as on 18.)
        echo "skipped - PostgreSQL $v: pg_tle install (pg_tle $PG_TLE_VERSION does not build for $v)"
    elif install_pg_tle "$v"; then
        up "edition-tle-$v" "$v" "-c shared_preload_libraries=pg_tle"
        sql "$BIN" "$PORT" postgres <<SQL
CREATE DATABASE app;
\c app
CREATE EXTENSION pg_tle;
CREATE ROLE tle_admin LOGIN;
GRANT pgtle_admin TO tle_admin;
GRANT CREATE ON DATABASE app TO tle_admin;
SQL
        out=$(as "$BIN" "$PORT" tle_admin app -f "$EDITION/pg_tle_install.sql" 2>&1 \
              && as "$BIN" "$PORT" tle_admin app <<SQL 2>&1
CREATE SCHEMA ids;
CREATE EXTENSION uuid_ext_sql SCHEMA ids;
SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext_sql';
SELECT ids.uuid_extract_version(ids.uuid_generate_v7()), ids.uuid_is_v7(ids.uuidv7()),
       ids.uuid_v7_to_timestamptz(ids.uuid_generate_v7()) > now() - interval '1 minute',
       (SELECT rolsuper FROM pg_roles WHERE rolname = current_user);
SQL
        )
        check "PostgreSQL $v: pg_tle: install_extension, CREATE EXTENSION uuid_ext_sql, calls, as a pgtle_admin that is no superuser" \
            "$version|7|t|t|f" "$(tail -n 2 <<<"$out" | paste -sd'|' -)"
        # The previous version registered with pg_tle (its release's pg_tle_install.sql), then the update.
        sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app_prev" -c "GRANT CREATE ON DATABASE app_prev TO tle_admin"
        sql "$BIN" "$PORT" app_prev -c "CREATE EXTENSION pg_tle"
        out=$(git -C "$ROOT" show "$prev_commit:sql-edition/pg_tle_install.sql" | as "$BIN" "$PORT" tle_admin app_prev 2>&1 \
              && as "$BIN" "$PORT" tle_admin app_prev -c "CREATE SCHEMA ids" -c "CREATE EXTENSION uuid_ext_sql SCHEMA ids" 2>&1 \
              && as "$BIN" "$PORT" tle_admin app_prev -f "$EDITION/pg_tle_update.sql" 2>&1 \
              && as "$BIN" "$PORT" tle_admin app_prev -v VERBOSITY=verbose -c "ALTER EXTENSION uuid_ext_sql UPDATE" \
                    -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext_sql'" \
                    -c "SELECT ids.uuid_to_typeid('User', ids.uuid_nil())" 2>&1)
        check "PostgreSQL $v: pg_tle: $prev registered and created, pg_tle_update.sql, ALTER EXTENSION UPDATE: $version, and a bad TypeID prefix gives 22023" \
            "$version|22023" "$(grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' <<<"$out" | tail -1)|$(sqlstate <<<"$out")"
        stop_cluster "$BIN" "$DATA"
    else
        echo "not ok - PostgreSQL $v: pg_tle $PG_TLE_VERSION builds"
    fi

    # ---- 2. psql -f, as a role that may only CREATE in one schema ----------------------------
    up "edition-$v" "$v"
    sql "$BIN" "$PORT" postgres <<SQL
CREATE DATABASE ed;
\c ed
CREATE ROLE ed_user LOGIN;
CREATE SCHEMA s;
GRANT USAGE, CREATE ON SCHEMA s TO ed_user;
CREATE SCHEMA n;
CREATE EXTENSION uuid_ext SCHEMA n;
SQL
    out=$(as "$BIN" "$PORT" ed_user ed -c "SET search_path = s" -f "$EDITION/uuid_ext_sql.sql" \
              -c "SELECT count(*), bool_and(proowner = 'ed_user'::regrole) FROM pg_proc WHERE pronamespace = 's'::regnamespace" 2>&1)
    check "PostgreSQL $v: psql -f, by a role with CREATE on one schema only: every function, owned by it" \
        "t" "$(grep -oE '^[0-9]+\|t$' <<<"$out" | cut -d'|' -f2)"
    # On 17 the script warns, as uuid_ext does, that pg_catalog's uuid_extract_timestamp() is
    # found first (and is silent elsewhere).
    check "PostgreSQL $v: psql -f warns about 17's uuid_extract_timestamp() exactly on 17" \
        "$([ "$v" = 17 ] && echo 1 || echo 0)" "$(grep -c "WARNING:  on PostgreSQL 17, uuid_extract_timestamp() resolves to pg_catalog's built-in" <<<"$out")"
    # A second install into the same schema says why it cannot.
    out=$(as "$BIN" "$PORT" ed_user ed -c "SET search_path = s" -f "$EDITION/uuid_ext_sql.sql" 2>&1)
    check "PostgreSQL $v: psql -f a second time: 42723 naming what is there" "1" \
        "$(grep -c 'already has UUID functions of the names uuid_ext_sql creates' <<<"$out")"

    # ---- 3. catalog, answers, errors, generators --------------------------------------------
    run_checks "$BIN" "$PORT" ed "$HERE/catalog.sql" -v lacking="$lacking" -v labels="$labels"
    run_checks "$BIN" "$PORT" ed "$HERE/bound.sql"
    run_checks "$BIN" "$PORT" ed "$HERE/differential.sql"
    # The same answers whatever a session has set before its first call (PL/pgSQL reads its
    # literals and compiles then, and keeps both for the session), on 1,000 of the UUIDs (60 of
    # them as namespaces for the name-based generators, whose SHA-1 in PL/pgSQL is slow), every
    # hand-written bad-input case and 3% of the mutated texts, each setting in a fresh session.
    # A setting that changes how a function reads its literals or compiles changes its answers
    # for a whole class of inputs (version, variant, format, kind of bad text), and the sample
    # holds about 15 UUIDs of each of the 64 version and variant classes; the full inputs run
    # once above, under the default settings.
    sql "$BIN" "$PORT" ed -c "CREATE TABLE t.uuids_sample AS SELECT x FROM t.uuids ORDER BY random() LIMIT 1000" \
        -c "CREATE TABLE t.cases_sample AS SELECT q FROM t.cases WHERE NOT mutated OR random() < 0.03"
    for setting in standard_conforming_strings=off DateStyle=SQL,DMY IntervalStyle=sql_standard \
                   TimeZone=Pacific/Chatham extra_float_digits=-15 bytea_output=escape lc_time=C.UTF-8 \
                   lc_numeric=C.UTF-8 lc_monetary=C.UTF-8 plpgsql.extra_errors=all plpgsql.extra_warnings=all \
                   plpgsql.variable_conflict=use_column; do
        out=$(PGOPTIONS="-c $setting" as "$BIN" "$PORT" postgres ed -v uuids=t.uuids_sample -v cases=t.cases_sample -v namespaces=60 -f "$HERE/compare.sql" 2>&1)
        grep -E '^(not )?ok - ' <<<"$out" | sed "s|^\(\(not \)\?ok - \)|\1PostgreSQL $v, $setting set first: |"
        grep -q 'ERROR:' <<<"$out" && echo "not ok - PostgreSQL $v, $setting set first: compare.sql ran to the end: $(grep -m1 'ERROR:' <<<"$out")"
    done
    sql "$BIN" "$PORT" ed -c "CREATE EXTENSION pgcrypto SCHEMA n"
    out=$(sql "$BIN" "$PORT" ed <<'SQL'
SELECT count(*) FILTER (WHERE n.uuid_generate_v5(x, nm) IS DISTINCT FROM s.uuid_generate_v5(x, nm)), count(*)
FROM (SELECT x FROM t.uuids LIMIT 5000) u, unnest(ARRAY['', 'www.example.com', 'é', repeat('long name ', 30), md5(x::text)]) nm;
SQL
    )
    check "PostgreSQL $v: uuid_generate_v5 with pgcrypto installed: the same answers (25000 compared)" "0|25000" "$out"
    # A digest() planted beside pgcrypto's (v5 computes SHA-1 itself and calls no digest(): a
    # call by name can be raced into another function by whoever owns the schema).
    sql "$BIN" "$PORT" ed -c "CREATE FUNCTION n.digest(bytea, varchar) RETURNS bytea LANGUAGE plpgsql AS \$\$BEGIN RAISE EXCEPTION 'planted digest ran'; END\$\$"
    out=$(sql "$BIN" "$PORT" ed 2>&1 <<'SQL'
SELECT count(*) FILTER (WHERE n.uuid_generate_v5(x, nm) IS DISTINCT FROM s.uuid_generate_v5(x, nm)), count(*)
FROM (SELECT x FROM t.uuids LIMIT 500) u, unnest(ARRAY['', 'www.example.com', 'é']) nm;
SQL
    )
    check "PostgreSQL $v: uuid_generate_v5 with a digest() planted beside pgcrypto's: not called, the same answers (1500 compared)" "0|1500" "$out"
    sql "$BIN" "$PORT" ed -c "DROP FUNCTION n.digest(bytea, varchar)"
    run_checks "$BIN" "$PORT" ed "$HERE/generators.sql"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE ed_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    sql "$BIN" "$PORT" ed_latin1 -c "CREATE SCHEMA n" -c "CREATE SCHEMA s" -c "CREATE EXTENSION uuid_ext SCHEMA n"
    as "$BIN" "$PORT" postgres ed_latin1 -c "SET search_path = s" -f "$EDITION/uuid_ext_sql.sql" >/dev/null
    run_checks "$BIN" "$PORT" ed_latin1 "$HERE/latin1.sql"
    # Another role's operators on the installer's search_path (CVE-2018-1058's class): a role
    # that may CREATE in public plants operators for near-miss operand types; the edition refuses
    # a path that lists pg_catalog after public, installs with "s, public" (pg_catalog first),
    # binds nothing of public's, and no call runs a planted operator.
    sql "$BIN" "$PORT" postgres <<SQL
CREATE DATABASE ed_hostile;
\c ed_hostile
CREATE ROLE planter LOGIN;
GRANT CREATE ON SCHEMA public TO planter;
CREATE SCHEMA s;
GRANT USAGE, CREATE ON SCHEMA s TO ed_user;
SQL
    names=$(grep -o 'pg_catalog\.[a-z_0-9]*(' "$EDITION/uuid_ext_sql.sql" | sed 's/^pg_catalog\.//; s/($//' | sort -u | paste -sd' ' -)
    as "$BIN" "$PORT" planter ed_hostile -v names="$names" -f "$HERE/hostile_plant.sql" >/dev/null 2>&1
    out=$(as "$BIN" "$PORT" ed_user ed_hostile -c "SET search_path = s, public, pg_catalog" -f "$EDITION/uuid_ext_sql.sql" 2>&1)
    check "PostgreSQL $v: psql -f with pg_catalog after public in search_path: refused (55000), nothing created" "1|0" \
        "$(grep -c 'installs only with pg_catalog searched first' <<<"$out")|$(sql "$BIN" "$PORT" ed_hostile -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 's'::regnamespace")"
    as "$BIN" "$PORT" ed_user ed_hostile -c "SET search_path = s, public" -f "$EDITION/uuid_ext_sql.sql" >/dev/null 2>&1
    run_checks "$BIN" "$PORT" ed_hostile "$HERE/bound.sql"
    run_checks "$BIN" "$PORT" ed_hostile "$HERE/hostile.sql"
    # Several sessions at once: each one's values strictly increasing in the order it made them.
    sql "$BIN" "$PORT" ed -c "CREATE TABLE t.concurrent (seq bigserial, pid int DEFAULT pg_backend_pid(), v uuid DEFAULT s.uuid_generate_v7())"
    script=$LIFECYCLE/edition-pgbench.sql
    echo "INSERT INTO t.concurrent DEFAULT VALUES;" >"$script"
    chmod 644 "$script"
    "$BIN/pgbench" -n -h 127.0.0.1 -p "$PORT" -U postgres -c 4 -j 2 -t 2500 -f "$script" ed >/dev/null 2>&1
    check "PostgreSQL $v: pgbench, 4 clients: 10000 values, each session's strictly increasing" "10000|4|0" "$(sql "$BIN" "$PORT" ed -c "
        SELECT count(*), count(DISTINCT pid), count(*) FILTER (WHERE v <= prev)
        FROM (SELECT pid, v, lag(v) OVER (PARTITION BY pid ORDER BY seq) AS prev FROM t.concurrent) c")"

    # ---- 4. CREATE EXTENSION from files, as a role with CREATE on the database ---------------
    cp "$EDITION/uuid_ext_sql.control" "$share/"
    cp "$EDITION/uuid_ext_sql.sql" "$share/uuid_ext_sql--$version.sql"
    chmod 644 "$share/uuid_ext_sql.control" "$share/uuid_ext_sql--$version.sql"
    sql "$BIN" "$PORT" postgres <<SQL
CREATE ROLE app_owner LOGIN;
CREATE DATABASE mig OWNER app_owner;
SQL
    out=$(as "$BIN" "$PORT" app_owner mig <<SQL 2>&1
CREATE EXTENSION uuid_ext_sql;
SELECT extversion, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) FROM pg_extension WHERE extname = 'uuid_ext_sql';
SQL
    )
    check "PostgreSQL $v: CREATE EXTENSION uuid_ext_sql from its control file, by the database owner (no superuser)" \
        "$version|f" "$(tail -n 1 <<<"$out")"

    # ---- 4b. updates from the previous version: ALTER EXTENSION from files, and psql -f --------
    # The previous release's script (from git), installed both ways; the update makes the same
    # functions as a fresh install (definitions, labels, settings) and fixes what it fixes.
    git -C "$ROOT" show "$prev_commit:sql-edition/uuid_ext_sql.sql" >"$share/uuid_ext_sql--$prev.sql"
    cp "$EDITION/uuid_ext_sql--$prev--$version.sql" "$share/"
    chmod 644 "$share"/uuid_ext_sql--*.sql
    # (ORDER BY the text itself: inside an aggregate, ORDER BY 1 sorts by the constant 1, so the
    # order was the scan's, which an update changes)
    defs="SELECT string_agg(d, ',' ORDER BY d) FROM (
            SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc)
                   || p.provolatile::text || p.proisstrict::text || p.proparallel::text || coalesce(p.proconfig::text, '-') AS d
              FROM pg_proc p WHERE p.pronamespace = :'ns'::regnamespace) s"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE upd OWNER app_owner"
    out=$(as "$BIN" "$PORT" app_owner upd 2>&1 <<SQL
CREATE SCHEMA e; CREATE SCHEMA p; CREATE SCHEMA fresh;
CREATE EXTENSION uuid_ext_sql SCHEMA e VERSION '$prev';
SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext_sql';
ALTER EXTENSION uuid_ext_sql UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext_sql';
SQL
    )
    check "PostgreSQL $v: ALTER EXTENSION uuid_ext_sql UPDATE from $prev, by the database owner" \
        "$prev|$version" "$(grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' <<<"$out" | paste -sd'|' -)"
    as "$BIN" "$PORT" app_owner upd -c "SET search_path = p" -f "$share/uuid_ext_sql--$prev.sql" >/dev/null 2>&1
    out=$(as "$BIN" "$PORT" app_owner upd -c "SET search_path = p" -f "$EDITION/uuid_ext_sql--$prev--$version.sql" 2>&1)
    check_empty "PostgreSQL $v: psql -f of the update over a psql -f install of $prev: no ERROR" "$(grep ERROR <<<"$out")"
    as "$BIN" "$PORT" app_owner upd -c "SET search_path = fresh" -f "$EDITION/uuid_ext_sql.sql" >/dev/null 2>&1
    fresh_defs=$(as "$BIN" "$PORT" app_owner upd -v ns=fresh <<<"$defs")
    check "PostgreSQL $v: after the ALTER EXTENSION update, every function is as a fresh $version install makes it" \
        "$fresh_defs" "$(as "$BIN" "$PORT" app_owner upd -v ns=e <<<"$defs")"
    check "PostgreSQL $v: after the psql -f update, every function is as a fresh $version install makes it" \
        "$fresh_defs" "$(as "$BIN" "$PORT" app_owner upd -v ns=p <<<"$defs")"
    check "PostgreSQL $v: ... and answers as $version does (a bad TypeID prefix: 22023)" "22023|22023" \
        "$(for ns in e p; do as "$BIN" "$PORT" app_owner upd -v VERBOSITY=verbose -c "SELECT $ns.uuid_to_typeid('User', $ns.uuid_nil())" 2>&1 | sqlstate; done | paste -sd'|' -)"
    rm -f "$share/uuid_ext_sql--$prev.sql" "$share/uuid_ext_sql--$prev--$version.sql"

    # ---- 5. to uuid_ext: a partitioned schema moves without a rewrite ------------------------
    as "$BIN" "$PORT" app_owner mig <<'SQL' >/dev/null
CREATE TABLE events (id uuid NOT NULL DEFAULT uuid_generate_v7() CHECK (uuid_is_v7(id)), what text,
                     PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE events_old PARTITION OF events FOR VALUES FROM (MINVALUE) TO (uuid_v7_lower_bound('2025-01-01'));
CREATE TABLE events_new PARTITION OF events FOR VALUES FROM (uuid_v7_lower_bound('2025-01-01')) TO (MAXVALUE);
CREATE TABLE notes (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), event uuid, body text,
                    CHECK (uuid_extract_version(id) = 4));
CREATE INDEX notes_event ON notes (event);
CREATE VIEW recent AS SELECT id, uuid_extract_timestamp(id) AS at, uuid_encode(id, 'crockford') AS short FROM events;
CREATE VIEW recent_typeid AS SELECT uuid_to_typeid('evt', id) AS tid, at FROM recent;
INSERT INTO events (id, what) SELECT uuid_timestamptz_to_v7(now() - g * interval '1 day'), 'e' || g FROM generate_series(0, 999) g;
INSERT INTO events (what) SELECT 'new ' || g FROM generate_series(1, 100) g;
INSERT INTO notes (event, body) SELECT id, what FROM events;
SQL
    fingerprint="SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
        SELECT e::text AS x FROM events e UNION ALL SELECT n::text FROM notes n
        UNION ALL SELECT r::text FROM recent r UNION ALL SELECT r::text FROM recent_typeid r) s"
    relfilenodes="SELECT string_agg(relname || ':' || relfilenode, ',' ORDER BY relname) FROM pg_class
        WHERE relname IN ('events_old', 'events_new', 'notes', 'notes_event', 'events_pkey')"
    before=$(as "$BIN" "$PORT" app_owner mig -c "$fingerprint")
    files_before=$(as "$BIN" "$PORT" app_owner mig -c "$relfilenodes")
    out=$(as "$BIN" "$PORT" postgres mig <<'SQL' 2>&1
BEGIN;
CREATE SCHEMA uuid_ext_retired;
ALTER EXTENSION uuid_ext_sql SET SCHEMA uuid_ext_retired;
CREATE EXTENSION uuid_ext;
SELECT count(*) FROM uuid_ext_migrate_from('uuid_ext_sql');
DROP SCHEMA uuid_ext_retired;
COMMIT;
SQL
    )
    check "PostgreSQL $v: docs/MANAGED.md's procedure moves uuid_ext_sql to uuid_ext" "0" "$(grep -c ERROR <<<"$out")"
    [ "$(grep -c ERROR <<<"$out")" = 0 ] || echo "$out" | head -20
    check "PostgreSQL $v: after the move: uuid_ext_sql gone, nothing depends on another extension's function" "0|0" \
        "$(as "$BIN" "$PORT" app_owner mig -c "SELECT count(*) FROM pg_extension WHERE extname = 'uuid_ext_sql'" \
              -c "SELECT count(*) FROM pg_depend d JOIN pg_depend x ON x.classid = 'pg_proc'::regclass AND x.objid = d.refobjid AND x.deptype = 'e'
                  JOIN pg_extension e ON e.oid = x.refobjid AND e.extname NOT IN ('uuid_ext', 'plpgsql')
                  WHERE d.refclassid = 'pg_proc'::regclass AND d.deptype = 'n'" | paste -sd'|' -)"
    check "PostgreSQL $v: after the move: the same rows and views, no table or index rewritten" \
        "$(both "$before" "$files_before")" \
        "$(both "$(as "$BIN" "$PORT" app_owner mig -c "$fingerprint")" "$(as "$BIN" "$PORT" app_owner mig -c "$relfilenodes")")"
    check "PostgreSQL $v: after the move: defaults and CHECKs are uuid_ext's and work" "t|t|t" "$(as "$BIN" "$PORT" app_owner mig <<'SQL' 2>&1 | paste -sd'|' -
INSERT INTO events (what) VALUES ('after');
SELECT uuid_is_v7(id) FROM events WHERE what = 'after';
SELECT pg_get_expr(adbin, adrelid) LIKE '%uuid_generate_v7()%' AND
       (SELECT e.extname FROM pg_depend d JOIN pg_depend x ON x.classid = 'pg_proc'::regclass AND x.objid = d.refobjid AND x.deptype = 'e'
        JOIN pg_extension e ON e.oid = x.refobjid WHERE d.classid = 'pg_attrdef'::regclass AND d.objid = a.oid
        AND d.refclassid = 'pg_proc'::regclass) = 'uuid_ext'
FROM pg_attrdef a WHERE adrelid = 'events'::regclass;
SELECT count(*) = 1101 FROM recent_typeid;
SQL
    )"
    stop_cluster "$BIN" "$DATA"
    rm -f "$share"/uuid_ext_sql.control "$share"/uuid_ext_sql--*.sql
done
