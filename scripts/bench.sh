#!/usr/bin/env bash
# The benchmark command (separate from the tests): installs release builds of
# uuid_ext into PostgreSQL 15 and 18 (or BENCH_MAJORS), starts one throwaway cluster per version
# (as `postgres`, 127.0.0.1, free ports; data under target/bench), runs
# scripts/bench.py against both in one run, and writes docs/BENCHMARKS.md and
# docs/bench-per-call.svg. Takes about 80 minutes on 2 cores (the time windows, 10 M rows
# per server, are most of it).
#
# Knobs (environment): BENCH_ROWS (1000000), BENCH_RUNS (11),
# BENCH_INSERT_ROWS (2000000), BENCH_INDEX_ROWS (2000000), BENCH_WINDOW_ROWS (10000000),
# BENCH_WINDOW_SECONDS (0.5 s of repeated execution per time-window measurement),
# BENCH_WINDOW_RUNS (7), BENCH_PARTITIONS (1000);
# BENCH_SECTIONS=windows (or forms, or edition) re-measures only that section of docs/BENCHMARKS.md;
# BENCH_SECTIONS=per_call prints the per-call costs only.
# BENCH_MAJORS (default "15 18"): the servers. PostgreSQL 19 beside 18, in the sid chroot
# (scripts/sid.sh; about 40 minutes):
#   scripts/sid.sh run env BENCH_MAJORS="18 19" BENCH_SECTIONS=newest BENCH_WINDOW_ROWS=2000000 \
#       BENCH_RUNS=7 BENCH_WINDOW_RUNS=5 scripts/bench.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ -n "${UUID_EXT_IN_SID-}" ] || "$ROOT/scripts/setup.sh"
cd "$ROOT"

read -r -a bench_majors <<<"${BENCH_MAJORS:-15 18}"
args=()
trap 'for v in "${bench_majors[@]}"; do stop_cluster "$("$(pg_config_for $v)" --bindir)" "$ROOT/target/bench/$v"; done' EXIT
for v in "${bench_majors[@]}"; do
    pg_config=$(pg_config_for "$v")
    bindir=$("$pg_config" --bindir)
    say "PostgreSQL $v: installing a release build"
    # (PGRX_PG_CONFIG_PATH: the chroot's ~/.pgrx/config.toml knows only its own 19.)
    PGRX_PG_CONFIG_PATH="$pg_config" cargo pgrx install --release --no-default-features --features "pg$v" \
        --pg-config "$pg_config" >/dev/null
    install_refusals "$pg_config"
    # The do-nothing C function the generators are measured against (scripts/bench_floor.c).
    gcc -O2 -fPIC -shared -I"$("$pg_config" --includedir-server)" "$ROOT/scripts/bench_floor.c" \
        -o "$("$pg_config" --pkglibdir)/bench_floor.so"
    data=$ROOT/target/bench/$v
    stop_cluster "$bindir" "$data"
    rm -rf "$data"
    port=$(free_port)
    start_cluster "$bindir" "$data" "$port" "$ROOT/target/bench/server-$v.log"
    args+=("$v:$bindir:$port")
done
python3 "$ROOT/scripts/bench.py" "${args[@]}"
