#!/usr/bin/env bash
# The README's quick start, as written (its first ```sql block, extracted from README.md), on
# every major of this run, on a server that does not preload the library (as a quick start's
# server does not; readme_examples.sh runs the README's blocks with it preloaded) — PostgreSQL
# 17 included, where the block's search_path line is what makes uuid_extract_timestamp() read
# v7: the row it inserts must come back with its time. Then what needs the preload says so.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

block=$(awk '/^```sql$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$ROOT/README.md")
check "README.md has a quick-start SQL block that creates the extension and reads a timestamp" "2" \
    "$(grep -cE '^CREATE EXTENSION uuid_ext;$|^SELECT id, uuid_extract_timestamp\(id\) FROM events;$' <<<"$block")"
for v in "${RUN_MAJORS[@]}"; do
    up "quick-start-$v" "$v"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE mydb"
    # In the same session, after the block: the inserted row's timestamp, to the second.
    got=$(printf '%s\n%s\n' "$block" \
        "SELECT count(*) FILTER (WHERE uuid_extract_timestamp(id) BETWEEN now() - interval '1 minute' AND now() + interval '1 minute') FROM events;" \
        | sql "$BIN" "$PORT" mydb 2>/dev/null | tail -1)
    check "PostgreSQL $v: the quick start, as written, gives the row its v7 timestamp" "1" "$got"
    # uuid_ext.v7_scope = 'cluster' keeps its state in shared memory, which only a preloaded
    # library has: a clear error (55000, its message), the session still usable.
    out=$(sql "$BIN" "$PORT" mydb -v VERBOSITY=verbose -c "SET uuid_ext.v7_scope = 'cluster'" \
              -c "SELECT uuid_generate_v7()" 2>&1)
    check "PostgreSQL $v: without the preload, uuid_ext.v7_scope = 'cluster' is a clear error" \
        "55000|1" "$(sqlstate <<<"$out")|$(grep -c "v7_scope = 'cluster' requires uuid_ext in shared_preload_libraries" <<<"$out")"
    check "PostgreSQL $v: ... and backend scope still answers in that session" "7" \
        "$(sql "$BIN" "$PORT" mydb -v ON_ERROR_STOP=0 -c "SET uuid_ext.v7_scope = 'cluster'" -c "SELECT 1 FROM (SELECT uuid_generate_v7()) s" \
               -c "RESET uuid_ext.v7_scope" -c "SELECT uuid_extract_version(uuid_generate_v7())" 2>/dev/null | tail -1)"
    stop_cluster "$BIN" "$DATA"
done
