#!/usr/bin/env bash
# Every ```sql block of README.md and of the docs/ pages it links to (README first, then
# FUNCTIONS, TIME_WINDOWS, MANAGED and PUBLIC_IDS; the other pages and DEVELOPING.md have none,
# checked below), run as written, on every major of this run against a server that preloads
# uuid_ext, as docs/TIME_WINDOWS.md says to. A block is named by its page and its place there
# (FUNCTIONS-2: the second block of docs/FUNCTIONS.md). Where a page shows what a block prints
# — a plan in comment lines, an ERROR comment after a statement, a version, a plan's index named
# in a comment — that is compared.
# A block added to these pages without a check here fails the "every block is checked" line.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

blocks=$LIFECYCLE/readme-blocks
rm -rf "$blocks" && mkdir -p "$blocks" && chmod 755 "$blocks"
pages=(README.md docs/FUNCTIONS.md docs/TIME_WINDOWS.md docs/MANAGED.md docs/PUBLIC_IDS.md)
for page in "${pages[@]}"; do
    # (a block may be indented, in a list item: its indentation is taken off; an empty block
    # is a file too)
    awk -v dir="$blocks" -v name="$(basename "$page" .md)" '
        /^ *```sql$/ { inside = 1; n++; indent = index($0, "`") - 1; f = dir "/" name "-" n ".sql"; printf "" > f; next }
        inside && /^ *```$/ { inside = 0; next }
        inside { print substr($0, indent + 1) > f }' "$ROOT/$page"
done
checked="FUNCTIONS-1 FUNCTIONS-2 FUNCTIONS-3 MANAGED-1 MANAGED-2 PUBLIC_IDS-1 README-1 README-2 README-3 README-4 README-5 TIME_WINDOWS-1 TIME_WINDOWS-2"
check "README.md and its docs/ pages: every sql block has a check in this test" "$checked" \
    "$(ls "$blocks" | sed 's/\.sql$//' | sort | paste -sd' ' -)"
check "no other page has sql blocks (or this test must run them too)" "0" \
    "$(for f in "$ROOT"/docs/*.md "$ROOT/DEVELOPING.md"; do
           [[ " ${pages[*]} " == *" ${f#"$ROOT"/} "* ]] || cat "$f"
       done | grep -cE '^ *```sql$')"
block() { cat "$blocks/$1.sql"; }
# What a block's comment lines show as its output: the README writes "--" before each line
# psql prints ("--" + " Bitmap Heap Scan on events").
shown_plan() { sed -n 's/^--\( .*\)$/\1/p' "$blocks/$1.sql" | grep '^  ' | sed 's/^ //'; }
psql_as_user() { # BIN PORT DB [psql args]: psql as a user runs it, errors do not stop the script
    local bin=$1 port=$2 db=$3
    shift 3
    "$bin/psql" -X -h 127.0.0.1 -p "$port" -U postgres -d "$db" "$@" 2>&1
}

for v in "${RUN_MAJORS[@]}"; do
    up "readme-$v" "$v" "-c shared_preload_libraries=uuid_ext $(pg17_options "$v")"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE mydb"

    # README-1: the quick start; then the README's advice for 17 (README-4), which later sessions
    # inherit.
    out=$(block README-1 | psql_as_user "$BIN" "$PORT" mydb -v ON_ERROR_STOP=1)
    check "PostgreSQL $v: block README-1 (quick start) runs and shows the row with its time" "1" \
        "$(grep -cE '^ [0-9a-f-]{36} \| [0-9]{4}-[0-9]{2}-[0-9]{2} ' <<<"$out")"
    out=$(block README-4 | psql_as_user "$BIN" "$PORT" postgres -v ON_ERROR_STOP=1)
    check "PostgreSQL $v: block README-4 (17's search_path for every session) runs" "ALTER DATABASE" "$out"

    # README-2: the CHECK and the plan the README prints, "for 100,000 rows" (over the last 30
    # days, as scripts/run.sh inserts them).
    sql "$BIN" "$PORT" mydb -c "INSERT INTO events SELECT uuid_timestamptz_to_v7(now() - interval '30 days' * random()), 'older'
                                FROM generate_series(1, 100000)" -c "ANALYZE events"
    out=$(block README-2 | psql_as_user "$BIN" "$PORT" mydb -v ON_ERROR_STOP=1 -t)
    check "PostgreSQL $v: block README-2 prints the plan the README shows" "$(shown_plan README-2)" \
        "$(grep -v '^ALTER TABLE$' <<<"$out" | sed 's/ *$//' | grep -v '^$')"

    # README-3: ALTER EXTENSION … UPDATE on the current version: a no-op; the version is this build's.
    out=$(block README-3 | psql_as_user "$BIN" "$PORT" mydb -v ON_ERROR_STOP=1 -t -A)
    check "PostgreSQL $v: block README-3 runs and reports the installed version" "$(crate_version)" "$(tail -1 <<<"$out")"

    # FUNCTIONS-1: server-assigned keys: each "-- ERROR:  message   (SQLSTATE x)" comment is what the
    #    statement before it prints.
    want=$(sed -n 's/^-- ERROR:  \(.*[^ ]\) *(SQLSTATE \([0-9A-Z]*\))$/ERROR:  \2: \1/p' "$blocks/FUNCTIONS-1.sql")
    got=$( (echo '\set VERBOSITY verbose'; block FUNCTIONS-1) | psql_as_user "$BIN" "$PORT" mydb | grep '^ERROR:')
    check "PostgreSQL $v: block FUNCTIONS-1's statements fail exactly as its comments say" "$want" "$got"
    check "PostgreSQL $v: block FUNCTIONS-1 assigned a key and kept it through the update" "1|cn=alice,o=example" \
        "$(sql "$BIN" "$PORT" mydb -c "SELECT count(*), min(dn) FROM entries WHERE uuid_extract_version(id) = 7")"

    # FUNCTIONS-2 and -3: run as written; the plans use the indexes their comments name.
    check_cmd "PostgreSQL $v: block FUNCTIONS-2 runs" sql "$BIN" "$PORT" mydb -f "$blocks/FUNCTIONS-2.sql"
    check "PostgreSQL $v: block FUNCTIONS-2 is an index range scan on the pkey" "1" \
        "$( (echo -n 'EXPLAIN (COSTS OFF) '; block FUNCTIONS-2) | sql "$BIN" "$PORT" mydb | grep -c 'Index Cond: ((id >= .*) AND (id < .*))')"
    check_cmd "PostgreSQL $v: block FUNCTIONS-3 runs" sql "$BIN" "$PORT" mydb -f "$blocks/FUNCTIONS-3.sql"
    check "PostgreSQL $v: block FUNCTIONS-3's ORDER BY id USING <| is an index scan of the uuid_time_ops index" "1" \
        "$(sql "$BIN" "$PORT" mydb -c "EXPLAIN (COSTS OFF) $(sed -n 's/;.*--.*index scan, time order$//p' "$blocks/FUNCTIONS-3.sql")" \
           | grep -c 'Index Scan using events_time_idx on events')"

    # TIME_WINDOWS-1: statistics on the extractor, on the quick start's table: the estimate of
    # the last hour is then its size (~140 of 100,000 rows over 30 days), not a third.
    check_cmd "PostgreSQL $v: block TIME_WINDOWS-1 runs" sql "$BIN" "$PORT" mydb -f "$blocks/TIME_WINDOWS-1.sql"
    check "PostgreSQL $v: block TIME_WINDOWS-1 gives the extractor statistics (an hour estimated at under 1,000 rows)" "yes" \
        "$(sql "$BIN" "$PORT" mydb -c "SET uuid_ext.time_index_conditions = off" \
             -c "EXPLAIN SELECT * FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'" \
           | sed -n 's/.*rows=\([0-9]*\).*/\1/p' | head -1 | awk '{ print ($1 > 0 && $1 < 1000) ? "yes" : "no " $1 }')"

    # TIME_WINDOWS-2: time-partitioned tables: the recipe, and the plan the page shows (a Filter line that
    #    ends in "…" up to there: what follows prints in the session's time zone).
    out=$(block TIME_WINDOWS-2 | psql_as_user "$BIN" "$PORT" mydb -v ON_ERROR_STOP=1 -t)
    want=$(shown_plan TIME_WINDOWS-2)
    check "PostgreSQL $v: block TIME_WINDOWS-2 creates the partitions and prints the plan the page shows" \
        "$(sed 's/ …$//' <<<"$want")" \
        "$(grep -vE '^(CREATE TABLE|DO)$' <<<"$out" | sed 's/ *$//' | grep -v '^$' \
           | awk -v n="$(sed -n 's/^ *Filter: \(.*\) …$/\1/p' <<<"$want" | wc -c)" \
                 '/Filter:/ && n > 1 { i = index($0, "Filter:"); print substr($0, 1, i + 6 + n); next } { print }')"

    # README-5: migrating from uuid-ossp, in a database that uses it.
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE legacy"
    sql "$BIN" "$PORT" legacy -c 'CREATE EXTENSION "uuid-ossp"' \
        -c "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), n int)"
    out=$(block README-5 | psql_as_user "$BIN" "$PORT" legacy -v ON_ERROR_STOP=1 -t -A)
    check "PostgreSQL $v: block README-5 migrates off uuid-ossp (only uuid_ext left, the default re-pointed)" \
        "uuid_ext|4" \
        "$(sql "$BIN" "$PORT" legacy -c "SELECT string_agg(extname, ',') FROM pg_extension WHERE extname LIKE 'uuid%'" \
                                    -c "INSERT INTO orders (n) VALUES (1) RETURNING uuid_extract_version(id)" | paste -sd'|')"

    # MANAGED-1 and -2: the SQL edition (docs/MANAGED.md), installed with psql -f by a
    #    role that may only create in its own schema ("$user"), on a server without uuid_ext.
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE managed" -c "CREATE ROLE managed_app LOGIN"
    sql "$BIN" "$PORT" managed -c "CREATE SCHEMA managed_app AUTHORIZATION managed_app"
    out=$("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U managed_app -d managed \
              -c "SET search_path = managed_app" -f "$ROOT/sql-edition/uuid_ext_sql.sql" 2>&1)
    check_empty "PostgreSQL $v: the SQL edition installs with psql -f (docs/MANAGED.md): no ERROR (block MANAGED-1 below uses it)" "$(grep ERROR <<<"$out")"
    out=$(block MANAGED-1 | "$BIN/psql" -X -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" \
              -U managed_app -d managed 2>&1)
    check "PostgreSQL $v: block MANAGED-1 makes v7 keys with the edition and reads their time and TypeID" "2" \
        "$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.+]+\|order_[0-9a-hjkmnp-tv-z]{26}\|(42|7)$' <<<"$out")"
    out=$( (echo 'SET search_path = "$user", public, pg_catalog;'; block MANAGED-2) | "$BIN/psql" -X -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" \
              -U managed_app -d managed 2>&1)
    check "PostgreSQL $v: block MANAGED-2 counts the last hour's rows through the bounds" "SET|2" "$(paste -sd'|' <<<"$out")"

    # PUBLIC_IDS-1: public IDs, with the key file as the page's sh block makes it.
    key_file=$DATA/uuid_ext_public_ids.keys
    runuser -u postgres -- sh -c "umask 077; openssl rand -hex 16 > '$key_file'"
    sql "$BIN" "$PORT" postgres -c "ALTER SYSTEM SET uuid_ext.public_id_key_file = '$key_file'" -c "SELECT pg_reload_conf()" >/dev/null
    sql "$BIN" "$PORT" mydb -c "CREATE ROLE app"
    out=$(block PUBLIC_IDS-1 | psql_as_user "$BIN" "$PORT" mydb -v ON_ERROR_STOP=1 -t -A)
    check "PostgreSQL $v: block PUBLIC_IDS-1 shows a user_ TypeID of a v4 face and finds the row from it" "1|ada" \
        "$(grep -cE '^user_[0-9a-hjkmnp-tv-z]{26}\|ada$' <<<"$out")|$(tail -1 <<<"$out")"
    check "PostgreSQL $v: block PUBLIC_IDS-1's face is a v4 that hides the time" "4|t" "$(sql "$BIN" "$PORT" mydb -c "
        SELECT uuid_extract_version(uuid_v7_to_public(id)), uuid_v7_to_public(id) <> id FROM users")"
    stop_cluster "$BIN" "$DATA"
done
