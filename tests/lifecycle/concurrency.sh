#!/usr/bin/env bash
# Multi-backend checks that pg_regress (one session) cannot make, on every major of this run,
# against a cluster started with shared_preload_libraries = 'uuid_ext' (so every backend is
# forked from a postmaster that already loaded the library): fresh backends draw independent
# randomness; 8 pgbench clients' v7 keys strictly increase per backend under both scopes.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
TMPDIR_CONC=$(mktemp -d)
chmod 755 "$TMPDIR_CONC"
trap 'rm -rf "$TMPDIR_CONC"; for c in "${STARTED[@]}"; do stop_cluster "${c%%|*}" "${c#*|}"; done' EXIT
db=uuid_ext_concurrency

for v in "${RUN_MAJORS[@]}"; do
    up "concurrency-$v" "$v" "-c shared_preload_libraries=uuid_ext"
    bindir=$BIN port=$PORT
    psql=("$bindir/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
    label() { echo "PostgreSQL $v: $1"; }

    "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    "${psql[@]}" -d "$db" -c "CREATE EXTENSION uuid_ext"
    check "$(label "library is preloaded")" "uuid_ext" "$("${psql[@]}" -d "$db" -c 'SHOW shared_preload_libraries')"

    # The first values of fresh backends forked from the same postmaster differ in
    # their random bits (v7: the 48 random bits; v4; v1: the random node). What this
    # proves: backends of a preloading server draw independent randomness. What it
    # does not: the library builds its state lazily, on first use in each backend, so
    # here no state exists before the fork and the pthread_atfork handler is not
    # exercised. The Rust tests state::tests::state_built_before_a_fork_is_rebuilt_in_the_child
    # and uuid_ext_core::rng's fork test (tests::*child*) build
    # the state, really fork, and fail without the handler.
    for i in $(seq 1 8); do
        "${psql[@]}" -d "$db" -c "SELECT encode(substr(uuid_send(uuid_generate_v7()), 11), 'hex'),
                                          uuid_generate_v4(), encode(uuid_ext_node(uuid_generate_v1()), 'hex')"
    done >"$TMPDIR_CONC/first_values"
    check "$(label "8 fresh backends: distinct v7 random bits")" 8 "$(cut -d'|' -f1 "$TMPDIR_CONC/first_values" | sort -u | wc -l)"
    check "$(label "8 fresh backends: distinct first v4")" 8 "$(cut -d'|' -f2 "$TMPDIR_CONC/first_values" | sort -u | wc -l)"
    check "$(label "8 fresh backends: distinct v1 nodes")" 8 "$(cut -d'|' -f3 "$TMPDIR_CONC/first_values" | sort -u | wc -l)"

    # pgbench: 8 clients insert 400,000 rows through DEFAULT uuid_generate_v7(),
    # recording which backend inserted each row and in what order.
    "${psql[@]}" -d "$db" -c "CREATE TABLE conc (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
                                                 pid int NOT NULL, seq bigint NOT NULL)" \
                          -c "CREATE SEQUENCE conc_seq"
    cat >"$TMPDIR_CONC/insert.sql" <<'SQL'
INSERT INTO conc (pid, seq) SELECT pg_backend_pid(), nextval('conc_seq') FROM generate_series(1, 100);
SQL
    # insert_and_check LABEL: 8 pgbench clients insert 400,000 rows into the empty table conc,
    # then each backend's ids must strictly increase in its own insert order.
    insert_and_check() {
        if "$bindir/pgbench" -n -h 127.0.0.1 -p "$port" -U postgres -c 8 -j 2 -t 500 \
            -f "$TMPDIR_CONC/insert.sql" "$db" >"$TMPDIR_CONC/pgbench.log" 2>&1; then
            echo "ok - PostgreSQL $v: $1: pgbench 8 clients ran without errors"
        else
            echo "not ok - PostgreSQL $v: $1: pgbench 8 clients ran without errors"; cat "$TMPDIR_CONC/pgbench.log"
        fi
        check "PostgreSQL $v: $1: each backend's ids strictly increase in its insert order" 0 \
            "$("${psql[@]}" -d "$db" -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY seq) AS prev
                                          FROM conc) t WHERE id <= prev")"
    }

    insert_and_check "backend scope"
    check "$(label "backend scope: 400,000 rows, all ids distinct, from 8 backends")" "400000|400000|8" \
        "$("${psql[@]}" -d "$db" -c "SELECT count(*), count(DISTINCT id), count(DISTINCT pid) FROM conc")"

    # uuid_ext.v7_scope = 'cluster': one order for the whole server. Every (ms, fraction, counter)
    # position is handed out once across all backends (under backend scope two backends can share one).
    "${psql[@]}" -d "$db" -c "TRUNCATE conc" -c "ALTER DATABASE $db SET uuid_ext.v7_scope = 'cluster'"
    insert_and_check "cluster scope"
    check "$(label "cluster scope: 400,000 rows, distinct ids and distinct positions across 8 backends")" "400000|400000|400000|8" \
        "$("${psql[@]}" -d "$db" -c "SELECT count(*), count(DISTINCT id),
            count(DISTINCT (substr(uuid_send(id), 1, 8), get_byte(uuid_send(id), 8) & 60)), count(DISTINCT pid) FROM conc")"

    # EvalPlanQual: an UPDATE under a window whose bound is an InitPlan parameter in the
    # partitions' filters (src/planner/initplan_bounds.rs) waits for another session's update of one of its
    # rows, then rechecks that row's new version against its filter (READ COMMITTED): the
    # recheck reads the parameter, computed before. Both updates land; the server lives.
    "${psql[@]}" -d "$db" -c "CREATE TABLE epq (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int) PARTITION BY RANGE (id)" \
        -c "CREATE TABLE epq_old PARTITION OF epq FOR VALUES FROM (MINVALUE) TO (uuid_v7_lower_bound('2026-01-01 00:00+00'))" \
        -c "CREATE TABLE epq_new PARTITION OF epq FOR VALUES FROM (uuid_v7_lower_bound('2026-01-01 00:00+00')) TO (MAXVALUE)" \
        -c "INSERT INTO epq SELECT uuid_timestamptz_to_v7('2025-12-01 00:00+00'::timestamptz + i * interval '1 hour'), i
            FROM generate_series(0, 999) i" -c "ANALYZE epq"
    # (uuid_v7_to_timestamptz: on 17, uuid_extract_timestamp is pg_catalog's, v1 only, unless search_path says otherwise.)
    window="uuid_v7_to_timestamptz(id) >= '2025-12-20 00:00+00'::timestamptz + (now() - now())"
    check "$(label "EvalPlanQual: the UPDATE's partitions filter on a parameter")" "2" \
        "$("${psql[@]}" -d "$db" -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = off" \
            -c "EXPLAIN (COSTS OFF) UPDATE epq SET n = n + 1000 WHERE $window" | grep -c 'Filter: (id >= \(\$[0-9]\|(InitPlan\)')"
    "${psql[@]}" -d "$db" -c "BEGIN" -c "UPDATE epq SET n = n + 1 WHERE n = 600" -c "SELECT pg_sleep(2)" -c "COMMIT" \
        >"$TMPDIR_CONC/epq_first.log" 2>&1 &
    first=$!
    sleep 0.5
    updated=$("${psql[@]}" -d "$db" -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = off" \
        -c "WITH u AS (UPDATE epq SET n = n + 1000 WHERE $window RETURNING n) SELECT count(*) FROM u" 2>&1)
    wait "$first"
    check "$(label "EvalPlanQual: the waiting UPDATE changed every row of its window, the other's row rechecked")" \
        "544|1601" "$updated|$("${psql[@]}" -d "$db" -c "SELECT n FROM epq ORDER BY id OFFSET 600 LIMIT 1")"
    "${psql[@]}" -d postgres -c "DROP DATABASE $db"
    stop_cluster "$BIN" "$DATA"
done
