#!/usr/bin/env bash
# ALTER EXTENSION uuid_ext UPDATE from 0.1.0, on every major of this run, as a DBA does it:
# 0.1.0's objects made by its own install script (the one 0.1.0 generated:
# tests/lifecycle/fixtures/released, scripts/released_sql.sh), a table using them (DEFAULT
# uuid_generate_v7(), a uuid_time_ops index, a view calling extractors), then this build's
# files installed over it while the server runs, then the UPDATE. 0.1.0's own library, built
# from its commit (e1555ac, with `cargo build`: its cargo-pgrx, 0.18.1, is not needed for that),
# runs on one major, the newest of the run up to 18 (0.1.0's pgrx has no 19), so the
# uuid_time_ops index amcheck reads after the update was built by 0.1.0's comparator. On the
# other majors 0.1.0's objects run on this library from the start — it keeps every symbol an
# earlier release's SQL names (old_versions.sh) — as they do once a package upgrade has replaced
# the library and before the UPDATE; one build of 0.1.0 costs a minute. Afterwards the rows, the
# default, the index (amcheck) and the view still work, every new function exists, and
# scripts/check-upgrade.sh finds the updated catalog equal to a fresh install's. And README's
# migration procedure, run where an older uuid_ext is installed, updates it before its helper runs.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
NEW=$(grep -m1 '^version' "$ROOT/Cargo.toml" | cut -d'"' -f2)
OLD=e1555ac   # v0.1.0
own=
for v in "${RUN_MAJORS[@]}"; do [ "$v" -gt 18 ] || own=$v; done

for v in "${RUN_MAJORS[@]}"; do
    pg_config=$(pg_config_for "$v")
    # 0.1.0's install script where its package put it (this build's refusing one is put back
    # with this build's files below).
    if ! install_debug "$v" "$LIFECYCLE/upgrade-install-0.1.0-$v.log" || ! install -m 644 \
            "$ROOT/tests/lifecycle/fixtures/released/uuid_ext--0.1.0.sql" "$("$pg_config" --sharedir)/extension/"; then
        echo "not ok - PostgreSQL $v: install 0.1.0's script"; continue
    fi
    if [ "$v" = "$own" ]; then
        # And 0.1.0's own library, built from its commit in a target directory of its own.
        src=$LIFECYCLE/src-0.1.0
        [ -f "$src/Cargo.toml" ] || { rm -rf "$src" && mkdir -p "$src" && git -C "$ROOT" archive "$OLD" | tar -x -C "$src"; }
        if (cd "$src" && CARGO_TARGET_DIR=$ROOT/target/v0.1.0 cargo build --no-default-features --features "pg$v") \
                >"$LIFECYCLE/upgrade-build-0.1.0-$v.log" 2>&1 \
            && install -m 755 "$ROOT/target/v0.1.0/debug/libuuid_ext.so" "$("$pg_config" --pkglibdir)/uuid_ext.so"; then
            echo "ok - PostgreSQL $v: 0.1.0's library, built from $OLD"
        else
            echo "not ok - PostgreSQL $v: build 0.1.0's library"; tail -20 "$LIFECYCLE/upgrade-build-0.1.0-$v.log"; continue
        fi
    fi
    up "upgrade-$v" "$v"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app" -c "CREATE DATABASE fresh"
    sql "$BIN" "$PORT" app <<'SQL'
CREATE EXTENSION uuid_ext VERSION '0.1.0';
CREATE EXTENSION amcheck;
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), what text NOT NULL);
CREATE INDEX events_time ON events (id uuid_time_ops);
CREATE VIEW event_times AS SELECT id, uuid_ext_timestamp(id) AS ts, uuid_ext_variant(id) AS variant FROM events;
INSERT INTO events (what) SELECT 'before ' || i FROM generate_series(1, 1000) i;
INSERT INTO events VALUES (uuid_generate_v1(), 'a v1'), (uuid_generate_v6(), 'a v6');
SQL
    check "PostgreSQL $v: 0.1.0 installed" "0.1.0" "$(sql "$BIN" "$PORT" app -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'")"
    # A database still at an older uuid_ext when a superuser migrates it off uuid-ossp: the README's
    # procedure must update uuid_ext first, so that the helper which runs is this version's (an
    # old one, such as 0.4.0's PL/pgSQL, would run other roles' code as the caller).
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE recipe"
    sql "$BIN" "$PORT" recipe <<'SQL'
CREATE EXTENSION "uuid-ossp";
CREATE SCHEMA ids;
CREATE EXTENSION uuid_ext SCHEMA ids VERSION '0.1.0';
CREATE TABLE t (id uuid DEFAULT uuid_generate_v4());
ALTER DATABASE recipe SET search_path = "$user", public, ids;
SQL
    before=$(sql "$BIN" "$PORT" app -c "SELECT md5(string_agg(id::text || what || ts || variant, ',' ORDER BY id)) FROM events JOIN event_times USING (id)")

    # This build's files over 0.1.0's, as a package upgrade replaces them under a running server.
    # (with the script that takes the place of 0.1.0's install script: docs/SECURITY.md)
    if ! install_debug "$v" "$LIFECYCLE/upgrade-install-$v.log"; then
        echo "not ok - PostgreSQL $v: install $NEW"; continue
    fi
    check "PostgreSQL $v: 0.1.0's SQL runs on the new library before the update" "1002|t" \
        "$(sql "$BIN" "$PORT" app -c "SELECT count(*), bool_and(uuid_extract_version(uuid_generate_v7()) = 7) FROM events")"
    check_cmd "PostgreSQL $v: ALTER EXTENSION uuid_ext UPDATE" sql "$BIN" "$PORT" app -c "ALTER EXTENSION uuid_ext UPDATE"
    check "PostgreSQL $v: version after the update" "$NEW" \
        "$(sql "$BIN" "$PORT" app -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'")"
    check "PostgreSQL $v: rows and view unchanged" "$before" \
        "$(sql "$BIN" "$PORT" app -c "SELECT md5(string_agg(id::text || what || ts || variant, ',' ORDER BY id)) FROM events JOIN event_times USING (id)")"
    check "PostgreSQL $v: the default still generates v7 after the update" "7|t" \
        "$(sql "$BIN" "$PORT" app -c "INSERT INTO events (what) VALUES ('after') RETURNING uuid_extract_version(id), id > ALL (SELECT id FROM events WHERE what LIKE 'before %')")"
    check_cmd "PostgreSQL $v: uuid_time_ops index passes amcheck" \
        sql "$BIN" "$PORT" app -c "SELECT bt_index_parent_check('events_time', true), bt_index_check('events_pkey', true)"
    check "PostgreSQL $v: the index serves time order" "1003|0" \
        "$(sql "$BIN" "$PORT" app -c "SET enable_seqscan = off" -c "SELECT count(*), count(*) FILTER (WHERE ts < prev) FROM (SELECT ts, lag(ts) OVER () AS prev FROM (SELECT uuid_ext_timestamp(id) AS ts FROM events ORDER BY id USING <|) s) t")"
    check "PostgreSQL $v: new functions exist and answer" "t|t|t|t" \
        "$(sql "$BIN" "$PORT" app -c "SELECT uuid_v7_lower_bound(now()) <= uuid_generate_v7(), uuid_time_upper_bound('infinity') = uuid_nil(), public.uuid_extract_version(public.uuidv7()) = 7, uuid_from_bytea(uuid_to_bytea(id)) = id AND uuid_to_bytea(id) = uuid_send(id) FROM events LIMIT 1")"
    recipe=$(sed -n '/^## Migrating/,/^## /p' "$ROOT/README.md" | sed -n '/^```sql/,/^```/p' | sed '1d;/^```/,$d')
    out=$(sql "$BIN" "$PORT" recipe <<<"$recipe" 2>&1)
    check "PostgreSQL $v: README's migration procedure where uuid_ext 0.1.0 is installed: uuid_ext updated first, its C helper ran, the default re-pointed" \
        "$NEW|c|0|t" "$(sql "$BIN" "$PORT" recipe -c "
        SELECT (SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'),
               (SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'uuid_ext_migrate_from'),
               (SELECT count(*) FROM pg_extension WHERE extname = 'uuid-ossp'),
               (SELECT bool_and(x.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuid_ext'))
                FROM pg_attrdef a JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = a.oid AND d.refclassid = 'pg_proc'::regclass
                JOIN pg_depend x ON x.classid = 'pg_proc'::regclass AND x.objid = d.refobjid AND x.deptype = 'e'
                WHERE a.adrelid = 't'::regclass)" 2>&1 || echo "$out")"
    sql "$BIN" "$PORT" fresh -c "CREATE EXTENSION uuid_ext"
    check_cmd "PostgreSQL $v: scripts/check-upgrade.sh: updated catalog = fresh $NEW install" \
        "$ROOT/scripts/check-upgrade.sh" "$BIN" "$PORT" fresh app
    stop_cluster "$BIN" "$DATA"
done
