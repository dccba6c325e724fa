#!/usr/bin/env bash
# The README's quick start, as written (its first ```sql block, extracted from README.md), on
# every major of this run — PostgreSQL 17 included, where the block's search_path line is what
# makes uuid_extract_timestamp() read v7: the row it inserts must come back with its time.
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
    stop_cluster "$BIN" "$DATA"
done
