#!/usr/bin/env bash
# pg_upgrade (the real tool, both clusters on this machine) of clusters holding uuid_ext data:
# 16 -> 18 (on 16 uuid_ext's own uuid_extract_timestamp() answers; on 18, core's) and 14 -> 17
# (17 with README's search_path set-up), and 18 -> 19 and 17 -> 19 in the sid chroot
# (scripts/sid.sh: 19's pg_upgrade, the PyPI 17 and 18 with the library this run installed into
# them on the machine). After the upgrade every row, default and index works, and
# uuid_extract_timestamp(id) gives the same answers as before. (Debian's PostgreSQL 15.20 ->
# PyPI 18.6 fails inside PostgreSQL itself, a minor-version skew; README says so.)
set -uo pipefail
source "$(dirname "$0")/lib.bash"
PG17_PATH="\"\$user\", public, pg_catalog"

answers="SELECT md5(string_agg(concat_ws('|', id, legacy, what, uuid_extract_timestamp(id), uuid_extract_timestamp(legacy),
                                          uuid_extract_version(id)), ',' ORDER BY id)) FROM events"
for pair in 16:18 14:17 18:19 17:19; do
    old=${pair%:*} new=${pair#*:}
    if [ "$new" = 19 ]; then
        # The older major as the machine's part of this run installed it.
        wants 19 && [ -n "${UUID_EXT_IN_SID-}" ] || continue
        if [ ! -f "$("$(pg_config_for "$old")" --pkglibdir)/uuid_ext.so" ]; then
            echo "not ok - pg_upgrade $old -> 19: no uuid_ext installed in $old (scripts/test.sh 19 installs it)"; continue
        fi
    else
        wants "$old" && wants "$new" || continue
    fi
    name="pg_upgrade $old -> $new"
    up "upgrade-old-$old" "$old"
    old_bin=$BIN old_data=$DATA
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app"
    [ "$new" != 17 ] && [ "$old" != 17 ] || sql "$BIN" "$PORT" postgres -c "ALTER DATABASE app SET search_path = $PG17_PATH"
    # The database's settings: the planner hook in every session (docs/TIME_WINDOWS.md).
    sql "$BIN" "$PORT" postgres -c "ALTER DATABASE app SET session_preload_libraries = 'uuid_ext'"
    sql "$BIN" "$PORT" app <<'SQL'
CREATE EXTENSION uuid_ext;
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7() CHECK (uuid_is_v7(id)),
                     legacy uuid DEFAULT uuid_generate_v1(), what text);
CREATE INDEX events_time ON events (legacy uuid_time_ops);
CREATE VIEW recent AS SELECT id, uuid_extract_timestamp(id) AS ts FROM events;
INSERT INTO events (what) SELECT 'event ' || i FROM generate_series(1, 3000) i;
-- Append-only keys with a BRIN index alone, one range a page, summarised when it is built.
CREATE TABLE log (id uuid DEFAULT uuid_generate_v7(), n int);
INSERT INTO log (n) SELECT i FROM generate_series(1, 3000) i;
CREATE INDEX log_brin ON log USING brin (id) WITH (pages_per_range = 1);
SQL
    before=$(sql "$BIN" "$PORT" app -c "$answers")
    stop_cluster "$BIN" "$DATA"

    new_bin=$(bindir_for "$new")
    new_data=$LIFECYCLE/upgrade-new-$new
    stop_cluster "$new_bin" "$new_data"
    rm -rf "$new_data"
    # From 18 initdb turns data checksums on by default; pg_upgrade needs both alike.
    checksums=()
    [ "$new" -lt 18 ] || [ "$old" -ge 18 ] || checksums=(--no-data-checksums)
    init_cluster "$new_bin" "$new_data" "${checksums[@]}"
    work=$LIFECYCLE/pg_upgrade-$old-$new
    rm -rf "$work" && make_owned "$work"
    if (cd "$work" && as_postgres "$new_bin/pg_upgrade" -U postgres -b "$old_bin" -B "$new_bin" \
            -d "$old_data" -D "$new_data" -p "$(free_port)" -P "$(free_port)") >"$work.log" 2>&1; then
        echo "ok - $name: pg_upgrade succeeded"
    else
        echo "not ok - $name: pg_upgrade"; tail -20 "$work.log"; continue
    fi
    PORT=$(free_port)
    start_cluster "$new_bin" "$new_data" "$PORT" "$work-server.log"
    STARTED+=("$new_bin|$new_data")
    check "$name: every row, with the same uuid_extract_timestamp() answers" "$before" "$(sql "$new_bin" "$PORT" app -c "$answers")"
    check "$name: the extension came along" "$(grep -m1 '^version' "$ROOT/Cargo.toml" | cut -d'"' -f2)" \
        "$(sql "$new_bin" "$PORT" app -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'")"
    check_cmd "$name: indexes pass amcheck" sql "$new_bin" "$PORT" app -c "CREATE EXTENSION amcheck" \
        -c "SELECT bt_index_parent_check('events_pkey', true), bt_index_parent_check('events_time', true)"
    check "$name: defaults work" "7|1" \
        "$(sql "$new_bin" "$PORT" app -c "INSERT INTO events (what) VALUES ('after') RETURNING uuid_extract_version(id), uuid_extract_version(legacy)")"
    check "$name: the view reads every key's time" "3001" \
        "$(sql "$new_bin" "$PORT" app -c "SELECT count(ts) FROM recent")"
    # The last 100 keys, through the BRIN index and without it.
    brin_range="FROM log WHERE id >= (SELECT id FROM log ORDER BY id OFFSET 2900 LIMIT 1)"
    check "$name: the BRIN index serves a range (its plan; its rows, and those a sequential scan finds)" "1|100|100" \
        "$(sql "$new_bin" "$PORT" app -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT count(*) $brin_range" | grep -c "Bitmap Index Scan on log_brin")|$(
           sql "$new_bin" "$PORT" app -c "SET enable_seqscan = off" -c "SELECT count(*) $brin_range")|$(
           sql "$new_bin" "$PORT" app -c "SET enable_bitmapscan = off" -c "SELECT count(*) $brin_range")"
    check "$name: the database's settings came along: the hook reads a time window by the key's index" "1" \
        "$(sql "$new_bin" "$PORT" app -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'" \
            | grep -c "Index Cond: (id >= uuid_v7_lower_bound")"
    check "$name: the uuid_time_ops index serves a time range" "3001" \
        "$(sql "$new_bin" "$PORT" app -c "SET enable_seqscan = off" -c "SELECT count(*) FROM events WHERE legacy >=| uuid_time_lower_bound(now() - interval '1 hour') AND legacy <| uuid_time_upper_bound(now())")"
    stop_cluster "$new_bin" "$new_data"
done
