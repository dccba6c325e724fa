#!/usr/bin/env bash
# The planner hook behind time windows lives in the library, so a session has it once the
# library is loaded. On a server *without* shared_preload_libraries: with README's
# `ALTER DATABASE … SET session_preload_libraries = 'uuid_ext'` the very first query of a new
# session is served by the index; without it, a new session's first query plans as PostgreSQL
# alone would (a sequential scan) and gives the same rows. On every major of this run.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

query="SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'"
for v in "${RUN_MAJORS[@]}"; do
    up "windows-$v" "$v" "$(pg17_options "$v")"
    for db in with_setting without_setting; do
        sql "$BIN" "$PORT" postgres -c "CREATE DATABASE $db"
        sql "$BIN" "$PORT" "$db" -c "CREATE EXTENSION uuid_ext" \
            -c "CREATE TABLE ev (id uuid PRIMARY KEY CHECK (uuid_extract_version(id) = 7), n int)" \
            -c "INSERT INTO ev SELECT uuid_timestamptz_to_v7(now() - i * interval '1 minute'), i FROM generate_series(1, 20000) i" \
            -c "ANALYZE ev"
    done
    sql "$BIN" "$PORT" postgres -c "ALTER DATABASE with_setting SET session_preload_libraries = 'uuid_ext'"
    # Fresh sessions: the first statement each runs.
    check "PostgreSQL $v: session_preload_libraries: a new session's first query uses the index" "1" \
        "$(sql "$BIN" "$PORT" with_setting -c "EXPLAIN (COSTS OFF) $query" | grep -c 'Index Cond: (id >= uuid_v7_lower_bound')"
    check "PostgreSQL $v: without it, a new session's first query is a sequential scan" "1" \
        "$(sql "$BIN" "$PORT" without_setting -c "EXPLAIN (COSTS OFF) $query" | grep -c 'Seq Scan on ev')"
    check "PostgreSQL $v: ... counting as many rows (two databases, the same data)" "$(sql "$BIN" "$PORT" with_setting -c "$query")" \
        "$(sql "$BIN" "$PORT" without_setting -c "$query")"
    stop_cluster "$BIN" "$DATA"
done
