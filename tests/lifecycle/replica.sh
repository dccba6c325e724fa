#!/usr/bin/env bash
# A streaming replica of a primary with uuid_ext: pg_basebackup over loopback, hot standby.
# On the standby, in read-only queries: the extractors, a time window served through the
# planner hook (the same rows as with it off), and v4/v7 generation (backend and cluster
# scope) work. After the primary stops and the standby is promoted, new v7 keys (backend and
# cluster scope) sort after every key the old primary wrote. On 15, 18 and 19 (whichever this run
# covers). Both servers preload the library, as README's set-up for time windows and cluster
# scope says.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

options="-c shared_preload_libraries=uuid_ext"
for v in 15 18 19; do
    wants "$v" || continue
    up "replica-primary-$v" "$v" "$options"
    pbin=$BIN pport=$PORT pdata=$DATA
    sql "$pbin" "$pport" postgres -c "CREATE DATABASE app"
    sql "$pbin" "$pport" app <<'SQL'
CREATE EXTENSION uuid_ext;
CREATE TABLE ev (id uuid PRIMARY KEY DEFAULT uuid_generate_v7() CHECK (uuid_extract_version(id) = 7), n int);
INSERT INTO ev (id, n) SELECT uuid_timestamptz_to_v7(now() - interval '30 days' * random()), i
FROM generate_series(1, 20000) i;
INSERT INTO ev (n) SELECT i FROM generate_series(1, 500) i;
SET uuid_ext.v7_scope = 'cluster';
INSERT INTO ev (n) SELECT i FROM generate_series(1, 500) i;
ANALYZE ev;
SQL

    # The standby: a base backup over the loopback connection, streaming WAL, hot standby.
    sdata=$LIFECYCLE/replica-standby-$v
    stop_cluster "$pbin" "$sdata"
    rm -rf "$sdata"
    make_owned "$sdata"
    chmod 700 "$sdata"
    # (--checkpoint=fast: the default spread checkpoint paces its writes over minutes)
    if ! as_postgres "$pbin/pg_basebackup" --checkpoint=fast -h 127.0.0.1 -p "$pport" -U postgres -D "$sdata" -X stream \
            >"$LIFECYCLE/replica-basebackup-$v.log" 2>&1; then
        echo "not ok - PostgreSQL $v: pg_basebackup"; tail -5 "$LIFECYCLE/replica-basebackup-$v.log"; continue
    fi
    # What -R writes, minus options an older libpq than pg_basebackup's may not know (PyPI's 18
    # writes sslnegotiation, which the server's walreceiver, linked to Debian's libpq, rejects).
    as_postgres touch "$sdata/standby.signal"
    echo "primary_conninfo = 'host=127.0.0.1 port=$pport user=postgres'" | as_postgres tee -a "$sdata/postgresql.auto.conf" >/dev/null
    sport=$(free_port)
    start_cluster "$pbin" "$sdata" "$sport" "$LIFECYCLE/replica-standby-$v.log" "$options -c hot_standby=on"
    STARTED+=("$pbin|$sdata")
    # Written after the base backup, so it reaches the standby only by streaming.
    sql "$pbin" "$pport" app -c "INSERT INTO ev (n) SELECT i FROM generate_series(1, 100) i"
    lsn=$(sql "$pbin" "$pport" postgres -c "SELECT pg_current_wal_lsn()")
    for _ in $(seq 1 60); do
        [ "$(sql "$pbin" "$sport" postgres -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ] && break
        sleep 1
    done
    check "PostgreSQL $v: the standby streams from the primary, in hot standby, and has caught up" "t|streaming|t" \
        "$(sql "$pbin" "$sport" app -c "SELECT pg_is_in_recovery(), (SELECT status FROM pg_stat_wal_receiver), pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")"

    # Read-only queries on the standby.
    window="SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '3 days'"
    check "PostgreSQL $v standby: extractors read every key (as on the primary)" \
        "$(sql "$pbin" "$pport" app -c "SELECT count(*), min(uuid_extract_timestamp(id))::text FROM ev WHERE uuid_extract_version(id) = 7")" \
        "$(sql "$pbin" "$sport" app -c "SELECT count(*), min(uuid_extract_timestamp(id))::text FROM ev WHERE uuid_extract_version(id) = 7")"
    check "PostgreSQL $v standby: a time window is served by the key's index" "1" \
        "$(sql "$pbin" "$sport" app -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) $window" | grep -c 'Index Cond: (id >= uuid_v7_lower_bound')"
    check "PostgreSQL $v standby: ... with the rows of a sequential scan without the hook" \
        "$(sql "$pbin" "$sport" app -c "SET uuid_ext.time_index_conditions = off" -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = off" -c "$window")" \
        "$(sql "$pbin" "$sport" app -c "$window")"
    increasing="SELECT count(DISTINCT g) || '|' || bool_and(g > prev) FROM (
        SELECT g, lag(g) OVER (ORDER BY i) AS prev FROM (
            SELECT uuid_generate_v7() AS g, i FROM generate_series(1, 1000) i) s) t WHERE prev IS NOT NULL"
    check "PostgreSQL $v standby: v7 and v4 generation in read-only queries, backend and cluster scope" \
        "7|4|999|true|999|true" \
        "$(sql "$pbin" "$sport" app -c "SELECT uuid_extract_version(uuid_generate_v7()) || '|' || uuid_extract_version(uuid_generate_v4())" \
            -c "$increasing" -c "SET uuid_ext.v7_scope = 'cluster'" -c "$increasing" | paste -sd'|')"
    check "PostgreSQL $v standby: writes are refused (it is read-only)" "1" \
        "$(sql "$pbin" "$sport" app -c "INSERT INTO ev (n) VALUES (0)" 2>&1 | grep -c 'read-only transaction')"

    # Promotion: the old primary stops after its last keys have reached the standby.
    old_max=$(sql "$pbin" "$pport" app -c "INSERT INTO ev (n) SELECT i FROM generate_series(1, 100) i" \
        -c "SELECT id FROM ev ORDER BY id DESC LIMIT 1")
    lsn=$(sql "$pbin" "$pport" postgres -c "SELECT pg_current_wal_lsn()")
    for _ in $(seq 1 60); do
        [ "$(sql "$pbin" "$sport" postgres -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ] && break
        sleep 1
    done
    [ -n "$old_max" ] || echo "not ok - PostgreSQL $v: the old primary's largest key"
    stop_cluster "$pbin" "$pdata"
    check_cmd "PostgreSQL $v: promote the standby" as_postgres "$pbin/pg_ctl" -D "$sdata" -w promote
    check "PostgreSQL $v promoted: it has every key of the old primary" "$old_max" \
        "$(sql "$pbin" "$sport" app -c "SELECT id FROM ev ORDER BY id DESC LIMIT 1")"
    check "PostgreSQL $v promoted: new v7 keys sort after every old key (backend, then cluster scope)" "t|t" \
        "$(sql "$pbin" "$sport" app -c "INSERT INTO ev (n) SELECT -i FROM generate_series(1, 100) i" \
            -c "SELECT bool_and(id > '$old_max') FROM ev WHERE n < 0" \
            -c "SET uuid_ext.v7_scope = 'cluster'" \
            -c "INSERT INTO ev (n) SELECT -1000 - i FROM generate_series(1, 100) i" \
            -c "SELECT bool_and(id > '$old_max') FROM ev WHERE n < -1000" | paste -sd'|')"
    stop_cluster "$pbin" "$sdata"
done
