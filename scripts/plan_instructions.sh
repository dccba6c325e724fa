#!/usr/bin/env bash
# Planning work in instructions (docs/PROFILE.md, "Planning, in instructions"): how many
# instructions PostgreSQL's planner (`pg_plan_query()`) runs for each of the benchmark's short
# reads, with the hook and on `created_at`, counted with callgrind — repeatable to the
# instruction, where wall-clock planning times of 50–130 µs move by more than 10% between runs.
#
#   scripts/plan_instructions.sh MAJOR [REV]
#
# Installs a release build of the working tree into MAJOR (and first, when given, the library
# of git revision REV, built in a worktree under target/, with this tree's SQL), makes a
# throwaway cluster with the benchmark's tables (scripts/bench.py's windows_setup: v7 keys over 30
# days, a `created_at` twin, both also in monthly partitions) at 200 k keys, then runs PostgreSQL in single-user mode under callgrind with the
# library preloaded: `EXPLAIN` of each query 1 and 201 times, the difference divided by 200 —
# a warm session's instructions per planning. Prints one table row per query; about 5 minutes
# per build on 2 cores (valgrind needed: apt-get install valgrind).
set -euo pipefail
source "$(dirname "$0")/common.sh"
v=${1:?usage: plan_instructions.sh MAJOR [REV]}
rev=${2:-}
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
pg_config=$(pg_config_for "$v")
bindir=$("$pg_config" --bindir)
work=$ROOT/target/plan-instructions/$v
data=$work/data
mkdir -p "$work"
trap 'stop_cluster "$bindir" "$data"' EXIT

install_tree() { # a release build of the working tree, installed into MAJOR
    cargo pgrx install --release --no-default-features --features "pg$v" --pg-config "$pg_config" \
        >"$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
    install_refusals "$pg_config"
}
install_library_of() { # DIR: the release library of the tree in DIR in place of the installed one
    # (plain cargo: REV's pgrx may not be this cargo-pgrx's; REV must have this tree's SQL)
    (cd "$1" && CARGO_TARGET_DIR=$ROOT/target/plan-base cargo build --release --no-default-features \
        --features "pg$v") >"$work/install-base.log" 2>&1 || { tail -30 "$work/install-base.log"; exit 1; }
    install -m 755 "$ROOT/target/plan-base/release/libuuid_ext.so" "$("$pg_config" --pkglibdir)/uuid_ext.so"
}

QUERIES=(
    "latest 20|SELECT id, payload FROM by_key ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20|SELECT id, payload FROM by_column ORDER BY created_at DESC LIMIT 20"
    "keyset page|SELECT id, payload FROM by_key WHERE uuid_extract_timestamp(id) < now() - interval '3 days' ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50|SELECT id, payload FROM by_column WHERE created_at < now() - interval '3 days' ORDER BY created_at DESC LIMIT 50"
    "keyset page, partitioned|SELECT id, payload FROM part_key WHERE uuid_extract_timestamp(id) < now() - interval '3 days' ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50|SELECT id, payload FROM part_column WHERE created_at < now() - interval '3 days' ORDER BY created_at DESC LIMIT 50"
    "latest 20, partitioned|SELECT id, payload FROM part_key ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20|SELECT id, payload FROM part_column ORDER BY created_at DESC LIMIT 20"
    "last hour: count + sum|SELECT count(*), sum(payload) FROM by_key WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'|SELECT count(*), sum(payload) FROM by_column WHERE created_at >= now() - interval '1 hour'"
    "30 days, partitioned|SELECT count(*), sum(payload) FROM part_key WHERE uuid_extract_timestamp(id) >= now() - interval '30 days'|SELECT count(*), sum(payload) FROM part_column WHERE created_at >= now() - interval '30 days'"
)

make_data() {
    stop_cluster "$bindir" "$data"
    rm -rf "$data"
    local port
    port=$(free_port)
    start_cluster "$bindir" "$data" "$port" "$work/server.log"
    # The benchmark's own tables (scripts/bench.py), with 200 k keys.
    BENCH_WINDOW_ROWS=200000 python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench; bench.windows_setup(sys.argv[2], sys.argv[3], "windows")' \
        "$ROOT/scripts" "$bindir" "$port" >/dev/null
    touch "$data/uuid_ext_tables_made"
    stop_cluster "$bindir" "$data"
}

# count QUERY N: instructions in pg_plan_query() for a session that runs EXPLAIN QUERY N times.
count() {
    local input=$work/input.sql out=$work/callgrind.out
    : >"$input"
    for _ in $(seq "$2"); do printf 'EXPLAIN %s\n' "$1" >>"$input"; done
    chown postgres "$input" "$work"
    rm -f "$out"
    as_postgres valgrind --tool=callgrind --toggle-collect=pg_plan_query --callgrind-out-file="$out" \
        "$bindir/postgres" --single -D "$data" -c shared_preload_libraries=uuid_ext \
        $(pg17_options "$v" | sed "s/'//g") windows <"$input" >/dev/null 2>"$work/valgrind.log"
    sed -n 's/^summary: //p' "$out"
}

per_planning() { # QUERY: instructions of one warm planning
    local one many
    one=$(count "$1" 1)
    many=$(count "$1" 201)
    echo $(((many - one) / 200))
}

measure() { # LABEL
    local label=$1 entry name key col k c
    for entry in "${QUERIES[@]}"; do
        IFS='|' read -r name key col <<<"$entry"
        k=$(per_planning "$key")
        c=$(per_planning "$col")
        printf '| %s | %s | %s | %s | %s |\n' "$v" "$label" "$name" "$k" "$c ($(python3 -c "print(f'{$k/$c:.2f}')")×)"
    done
}

echo "| major | build | query | key + hook | created_at (ratio) |"
echo "|---|---|---|---|---|"
if [ -n "$rev" ]; then
    base=$ROOT/target/plan-instructions/base
    rm -rf "$base"
    git -C "$ROOT" worktree prune
    git -C "$ROOT" worktree add -f --detach "$base" "$rev" >/dev/null 2>&1
    install_tree
    install_library_of "$base"
    make_data
    measure "$(git -C "$ROOT" rev-parse --short "$rev")"
    git -C "$ROOT" worktree remove --force "$base"
fi
install_tree
[ -f "$data/uuid_ext_tables_made" ] || make_data
measure "working tree"
