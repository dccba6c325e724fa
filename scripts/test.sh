#!/usr/bin/env bash
# Runs every uuid_ext test on PostgreSQL 15 and 18:
#   1. Rust unit tests of the generator module and #[pg_test]s inside a real
#      server (cargo test; pgrx starts the server as `postgres` on a free port)
#   2. the pg_regress suite in tests/pg_regress against a throwaway cluster
#      started as `postgres` on 127.0.0.1 and a free port
# Exits non-zero if anything fails; the last line is "N passed, N failed"
# for pg_regress (cargo prints its own "test result:" lines).
#
# Usage: scripts/test.sh [15|18 ...]        (default: 15 18)
#   UUID_EXT_TEST_FILTER=name   run only cargo tests whose name contains it
#   UUID_EXT_REGRESS="a b"      run only these pg_regress files
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(15 18)
read -r -a regress_tests <<<"${UUID_EXT_REGRESS:-$(cd tests/pg_regress/sql && ls *.sql | sed 's/\.sql$//' | sort | tr '\n' ' ')}"

total_passed=0
total_failed=0
cargo_failed=0
for v in "${versions[@]}"; do
    pg_config=$(pg_config_for "$v")
    bindir=$("$pg_config" --bindir)
    work=$ROOT/target/test-$v
    mkdir -p "$work"

    say "PostgreSQL $v: cargo test (unit tests + #[pg_test])"
    pgdata=$work/pgrx-data
    make_owned "$pgdata"
    if ! CARGO_PGRX_TEST_RUNAS=postgres CARGO_PGRX_TEST_PGDATA=$pgdata \
        cargo test --no-default-features --features "pg$v pg_test" -- ${UUID_EXT_TEST_FILTER:-}; then
        cargo_failed=1
    fi

    say "PostgreSQL $v: pg_regress (${#regress_tests[@]} files)"
    # A plain build (without the pg_test schema) for the regression suite.
    cargo pgrx install --no-default-features --features "pg$v" --pg-config "$pg_config" >"$work/install.log" 2>&1 \
        || { cat "$work/install.log"; exit 1; }
    data=$work/regress-data
    stop_cluster "$bindir" "$data"
    rm -rf "$data"
    port=$(free_port)
    # Preloaded, so every backend is forked from a postmaster that loaded the library.
    start_cluster "$bindir" "$data" "$port" "$work/regress-server.log" "-c shared_preload_libraries=uuid_ext"
    out=$work/regress-out
    rm -rf "$out" && make_owned "$out"
    pg_regress=$(dirname "$("$pg_config" --pgxs)")/../test/regress/pg_regress
    set +e
    as_postgres "$pg_regress" --bindir="$bindir" --host=127.0.0.1 --port="$port" --user=postgres \
        --inputdir="$ROOT/tests/pg_regress" --outputdir="$out" \
        --load-extension=uuid_ext --dbname=uuid_ext_regression "${regress_tests[@]}" 2>&1 | tee "$work/regress.log"
    "$ROOT/tests/concurrency.sh" "$bindir" "$port" 2>&1 | tee "$work/concurrency.log"
    set -e
    stop_cluster "$bindir" "$data"
    # PostgreSQL 15 prints "test x ... ok"; 16+ prints TAP "ok 1 - x".
    passed=$(grep -cE '^ok +[0-9]+ +[-+] |^test .* \.\.\. ok' "$work/regress.log" || true)
    failed=$(grep -cE '^not ok +[0-9]+ +[-+] |^test .* \.\.\. FAILED' "$work/regress.log" || true)
    conc_passed=$(grep -c '^ok - ' "$work/concurrency.log" || true)
    conc_failed=$(grep -c '^not ok - ' "$work/concurrency.log" || true)
    [ "$((conc_passed + conc_failed))" -gt 0 ] || conc_failed=1
    if [ "$((passed + failed))" -ne "${#regress_tests[@]}" ]; then
        echo "pg_regress on PostgreSQL $v ran $((passed + failed)) of ${#regress_tests[@]} tests" >&2
        failed=$((${#regress_tests[@]} - passed))
    fi
    [ -f "$out/regression.diffs" ] && [ "$failed" -gt 0 ] && cat "$out/regression.diffs"
    echo "PostgreSQL $v: pg_regress $passed passed, $failed failed; concurrency $conc_passed passed, $conc_failed failed"
    total_passed=$((total_passed + passed + conc_passed))
    total_failed=$((total_failed + failed + conc_failed))
done

echo
[ "$cargo_failed" -eq 0 ] || echo "cargo test FAILED on at least one PostgreSQL version (see above)"
echo "pg_regress+concurrency: $total_passed passed, $total_failed failed"
[ "$cargo_failed" -eq 0 ] && [ "$total_failed" -eq 0 ]
