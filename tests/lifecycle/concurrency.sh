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

    # pgbench: 8 clients insert 1,000,000 rows through DEFAULT uuid_generate_v7(),
    # recording which backend inserted each row and in what order.
    "${psql[@]}" -d "$db" -c "CREATE TABLE conc (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
                                                 pid int NOT NULL, seq bigint NOT NULL)" \
                          -c "CREATE SEQUENCE conc_seq"
    cat >"$TMPDIR_CONC/insert.sql" <<'SQL'
INSERT INTO conc (pid, seq) SELECT pg_backend_pid(), nextval('conc_seq') FROM generate_series(1, 100);
SQL
    # insert_and_check LABEL: 8 pgbench clients insert 1,000,000 rows into the empty table conc,
    # then each backend's ids must strictly increase in its own insert order.
    insert_and_check() {
        if "$bindir/pgbench" -n -h 127.0.0.1 -p "$port" -U postgres -c 8 -j 2 -t 1250 \
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
    check "$(label "backend scope: 1,000,000 rows, all ids distinct, from 8 backends")" "1000000|1000000|8" \
        "$("${psql[@]}" -d "$db" -c "SELECT count(*), count(DISTINCT id), count(DISTINCT pid) FROM conc")"

    # uuid_ext.v7_scope = 'cluster': one order for the whole server. Every (ms, fraction, counter)
    # position is handed out once across all backends (under backend scope two backends can share one).
    "${psql[@]}" -d "$db" -c "TRUNCATE conc" -c "ALTER DATABASE $db SET uuid_ext.v7_scope = 'cluster'"
    insert_and_check "cluster scope"
    check "$(label "cluster scope: 1,000,000 rows, distinct ids and distinct positions across 8 backends")" "1000000|1000000|1000000|8" \
        "$("${psql[@]}" -d "$db" -c "SELECT count(*), count(DISTINCT id),
            count(DISTINCT (substr(uuid_send(id), 1, 8), get_byte(uuid_send(id), 8) & 60)), count(DISTINCT pid) FROM conc")"
    "${psql[@]}" -d postgres -c "DROP DATABASE $db"
    stop_cluster "$BIN" "$DATA"
done
