#!/usr/bin/env bash
# Runs every uuid_ext test, on every supported PostgreSQL major (14-19; 19 inside the Debian sid
# chroot of scripts/sid.sh, which this makes on first use: the pg_regress suite and the lifecycle
# tests, run there by this same script):
#   0. cargo fmt --check and cargo clippy -D warnings (the core crate, and the
#      extension for each major of UUID_EXT_CLIPPY_MAJORS, and for 19 when it runs, against the
#      chroot's headers); the layout map; the hand-made
#      declarations pgrx does not bind, against each major's headers; the core crate's unit tests
#      (cargo test -p uuid_ext_core: RFC vectors, no PostgreSQL)
#   1. on every major: the pg_regress suite in tests/pg_regress, against a
#      throwaway cluster started as `postgres` on 127.0.0.1 and a free port
#   2. the lifecycle tests in tests/lifecycle/ (multi-backend checks, packages,
#      upgrades, dump and restore, pg_upgrade, migrations, the SQL edition),
#      each on the majors of this run
# Exits non-zero if anything fails; the last line is "N passed, N failed"
# for everything but cargo (which prints its own "test result:" lines).
#
# Usage: scripts/test.sh [MAJOR ...]        (default: 14 15 16 17 18 19)
# Filters; once any is set, a step whose filter is unset does not run, so a filter runs only
# what it names (for one pg_regress file on one major, scripts/regress.sh is quicker still):
#   UUID_EXT_TEST_FILTER=name   the core crate's tests whose name contains it
#   UUID_EXT_REGRESS="a b"      these pg_regress files
#   UUID_EXT_LIFECYCLE="a b"    these lifecycle tests
#   UUID_EXT_CLIPPY_MAJORS="15" majors the extension is linted for (default: 15 18)
set -euo pipefail
source "$(dirname "$0")/common.sh"
# In the sid chroot (UUID_EXT_IN_SID) only the per-major steps run, for 19: the machine's own run
# did the rest.
in_sid=${UUID_EXT_IN_SID-}
[ -n "$in_sid" ] || "$ROOT/scripts/setup.sh"
# What this run made, told apart from an earlier run's (19's tests use the machine's dumps).
export UUID_EXT_RUN_ID=${UUID_EXT_RUN_ID:-$(date +%s)-$$}
cd "$ROOT"

majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=("${ALL_MAJORS[@]}")
# 19 runs in the chroot; the rest here.
sid_majors=()
if [ -z "$in_sid" ]; then
    host=()
    for v in "${majors[@]}"; do if [ "$v" = 19 ]; then sid_majors+=("$v"); else host+=("$v"); fi; done
    majors=("${host[@]}")
fi
# The chroot is made (or checked) meanwhile: downloads, mostly waiting on the network.
if [ ${#sid_majors[@]} -gt 0 ]; then
    mkdir -p "$ROOT/target"
    "$ROOT/scripts/sid.sh" setup >"$ROOT/target/sid-setup.log" 2>&1 &
    sid_setup=$!
fi
# Waits for that set-up once; its status after.
sid_setup_status=
sid_ready() {
    if [ -z "$sid_setup_status" ]; then
        if wait "$sid_setup"; then sid_setup_status=0; else
            sid_setup_status=1
            cat "$ROOT/target/sid-setup.log"
            echo "scripts/sid.sh setup failed" >&2
        fi
    fi
    return "$sid_setup_status"
}
all_regress=$(cd tests/pg_regress/sql && ls *.sql | sed 's/\.sql$//' | sort | tr '\n' ' ')
all_lifecycle=$(cd tests/lifecycle && ls *.sh | sed 's/\.sh$//' | sort | tr '\n' ' ')
read -r -a clippy_majors <<<"${UUID_EXT_CLIPPY_MAJORS-15 18}"
if [ -n "${UUID_EXT_TEST_FILTER-}${UUID_EXT_REGRESS-}${UUID_EXT_LIFECYCLE-}" ]; then
    read -r -a regress_tests <<<"${UUID_EXT_REGRESS-}"
    read -r -a lifecycle_tests <<<"${UUID_EXT_LIFECYCLE-}"
    filtered=1
else
    read -r -a regress_tests <<<"$all_regress"
    read -r -a lifecycle_tests <<<"$all_lifecycle"
    filtered=0
fi
pg_regress_files=("${regress_tests[@]}")

total_passed=0
total_failed=0
total_skipped=0
cargo_failed=0
summary=()
start=$SECONDS

# Generated documents and test data match their generators.
if [ "$filtered" -eq 0 ] && [ -z "$in_sid" ]; then
    for generated in scripts/uniqueness.py scripts/text_forms_reference.py; do
        if python3 "$generated" --check; then
            total_passed=$((total_passed + 1))
        else
            total_failed=$((total_failed + 1))
        fi
    done
fi
# Formatting and lints: each a check that passes or fails.
lint() { # lint NAME COMMAND...
    say "lint: $1"
    shift
    if "$@"; then total_passed=$((total_passed + 1)); else total_failed=$((total_failed + 1)); fi
}
if [ "$filtered" -eq 0 ] && [ -z "$in_sid" ]; then
    lint "DEVELOPING.md's layout map names every source file" python3 scripts/layout_check.py
    lint "cargo fmt --check" cargo fmt --all --check
    lint "clippy uuid_ext_core" cargo clippy -p uuid_ext_core --all-targets -- -D warnings
    for v in "${clippy_majors[@]}"; do
        # (19's runs with the rest of 19, below, against the chroot's headers.)
        [ "$v" != 19 ] || continue
        lint "clippy uuid_ext, pg$v" cargo clippy --no-default-features --features "pg$v" -- -D warnings
    done
    # (pgrx's bindings check the other hand-made declarations as each major builds: src/pg/ffi.rs.)
    headers=()
    # (19's headers are the chroot's: checked once it is made, below.)
    for v in "${majors[@]}"; do headers+=("$(includedir_server_for "$v")" "$v"); done
    lint "hand-made declarations match the headers" python3 scripts/ffi_headers.py "${headers[@]}"
fi
# The core crate's unit tests: no PostgreSQL.
if { [ "$filtered" -eq 0 ] || [ -n "${UUID_EXT_TEST_FILTER-}" ]; } && [ -z "$in_sid" ]; then
    say "cargo test -p uuid_ext_core"
    cargo test -p uuid_ext_core -- ${UUID_EXT_TEST_FILTER:-} || cargo_failed=1
fi
for v in "${majors[@]}"; do
    pg_config=$(pg_config_for "$v")
    bindir=$("$pg_config" --bindir)
    work=$ROOT/target/test-$v
    mkdir -p "$work"

    [ ${#pg_regress_files[@]} -gt 0 ] || continue
    say "PostgreSQL $v: pg_regress (${#pg_regress_files[@]} files)"
    install_debug "$v" "$work/install.log"
    data=$work/regress-data
    stop_cluster "$bindir" "$data"
    rm -rf "$data"
    port=$(free_port)
    # Preloaded, so every backend is forked from a postmaster that loaded the library.
    start_cluster "$bindir" "$data" "$port" "$work/regress-server.log" \
        "-c shared_preload_libraries=uuid_ext $(pg17_options "$v")"
    out=$work/regress-out
    : >"$work/regress.log"
    set +e
    run_pg_regress "$v" "$port" "$out" "${pg_regress_files[@]}" 2>&1 | tee "$work/regress.log"
    set -e
    stop_cluster "$bindir" "$data"
    read -r passed failed <<<"$(count_pg_regress "$work/regress.log")"
    if [ "$((passed + failed))" -ne "${#pg_regress_files[@]}" ]; then
        echo "pg_regress on PostgreSQL $v ran $((passed + failed)) of ${#pg_regress_files[@]} tests" >&2
        failed=$((${#pg_regress_files[@]} - passed))
    fi
    [ -f "$out/regression.diffs" ] && [ "$failed" -gt 0 ] && cat "$out/regression.diffs"
    summary+=("PostgreSQL $v: pg_regress $passed passed, $failed failed ($((SECONDS - start)) s so far)")
    echo "${summary[-1]}"
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
done

# Lifecycle tests print "ok - …" / "not ok - …" lines; each picks its majors from
# the ones this run covers (UUID_EXT_MAJORS).
all_lifecycle_tests=" ${lifecycle_tests[*]} "
[ ${#majors[@]} -gt 0 ] || lifecycle_tests=()
# In the chroot, a run without pg_regress files installed nothing yet: the tarball's library now,
# so that no lifecycle test meets what an earlier run left there.
if [ -n "$in_sid" ] && [ -n "${UUID_EXT_PG19_TARBALL-}" ] && [ ${#pg_regress_files[@]} -eq 0 ] \
   && [ ${#lifecycle_tests[@]} -gt 0 ]; then
    mkdir -p "$ROOT/target/test-19"
    install_debug 19 "$ROOT/target/test-19/install.log" || total_failed=$((total_failed + 1))
fi
for t in "${lifecycle_tests[@]}"; do
    say "lifecycle: $t"
    log=$ROOT/target/lifecycle${in_sid:+-19}-$t.log
    set +e
    UUID_EXT_MAJORS="${majors[*]}" bash "$ROOT/tests/lifecycle/$t.sh" 2>&1 | tee "$log"
    set -e
    p=$(grep -c '^ok - ' "$log" || true)
    f=$(grep -c '^not ok - ' "$log" || true)
    k=$(grep -c '^skipped - ' "$log" || true)
    [ "$((p + f + k))" -gt 0 ] || { echo "not ok - lifecycle $t reported no checks"; f=1; }
    # A script that failed itself (its checks may all have passed before it stopped).
    if grep -qE ': unbound variable$|: syntax error|: command not found$' "$log"; then
        echo "not ok - lifecycle $t: the script itself failed (see $log)"; f=$((f + 1))
    fi
    summary+=("lifecycle $t: $p passed, $f failed, $k skipped ($((SECONDS - start)) s so far)")
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    total_skipped=$((total_skipped + k))
done

# 19: the same steps inside the chroot, by this script; its totals join these.
if [ ${#sid_majors[@]} -gt 0 ]; then
    say "PostgreSQL 19, in the Debian sid chroot (scripts/sid.sh)"
    sid_ready || total_failed=$((total_failed + 1))
    # pg_upgrade to 19 starts from 17 and 18 with this tree's library, put there again now (a
    # test above may have left another: upgrade.sh's 0.1.0 where its update failed).
    if [[ "$all_lifecycle_tests" == *" pg_upgrade "* ]]; then
        for v in 17 18; do
            mkdir -p "$ROOT/target/test-$v"
            install_debug "$v" "$ROOT/target/test-$v/install.log" || total_failed=$((total_failed + 1))
        done
    fi
    # 19's packages are built here, on Debian 12 (a library linked against its glibc, 2.36,
    # loads on any newer one), and installed into 19 in the chroot (package.sh, image_volume.sh).
    # Every test there runs on the tarball's library (UUID_EXT_PG19_TARBALL; common.sh,
    # install_debug): the library that ships, and one build of 19, not two.
    pg19_tarball=()
    if [ ${#pg_regress_files[@]} -gt 0 ] || [ -n "${all_lifecycle_tests// /}" ]; then
        lint "scripts/package.sh 19 (on the machine)" bash -c "bash scripts/package.sh 19 >'$ROOT/target/package-19.log' 2>&1 || { tail -30 '$ROOT/target/package-19.log'; exit 1; }"
        # (Without it, the chroot builds 19's library itself.)
        tarball=$ROOT/target/dist/uuid_ext-$(crate_version)-pg19-linux-x86_64.tar.gz
        if [ -f "$tarball" ] && [ "$(cat "$ROOT/target/dist/run-pg19" 2>/dev/null)" = "$UUID_EXT_RUN_ID" ]; then
            pg19_tarball=("UUID_EXT_PG19_TARBALL=$tarball")
        else
            echo "not ok - 19's tests on this run's tarball: there is none, so the chroot builds its own library"
            total_failed=$((total_failed + 1))
        fi
        glibc=$(objdump -T "$ROOT/target/package/uuid_ext-$(crate_version)-pg19-linux-x86_64/lib/uuid_ext.so" 2>/dev/null \
            | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 || true)
        lint "19's library needs no glibc newer than Debian 12's 2.36 (it asks for ${glibc:-nothing readable})" \
            test -n "$glibc" -a "$(printf '%s\n' "$glibc" GLIBC_2.36 | sort -V | tail -1)" = GLIBC_2.36
    fi
    [ "$filtered" -ne 0 ] || lint "hand-made declarations match 19's headers" \
        python3 scripts/ffi_headers.py "$(includedir_server_for 19)" 19
    # (sid's Rust has no clippy: the machine's, against the chroot's headers.)
    [ "$filtered" -ne 0 ] || lint "clippy uuid_ext, pg19" env PGRX_PG_CONFIG_PATH="$(UUID_EXT_PG19_BUILDS=1 pg_config_for 19)" \
        cargo clippy --no-default-features --features pg19 -- -D warnings
    filters=()
    for f in UUID_EXT_TEST_FILTER UUID_EXT_REGRESS UUID_EXT_LIFECYCLE; do
        [ -z "${!f+set}" ] || filters+=("$f=${!f}")
    done
    set +e
    "$ROOT/scripts/sid.sh" run env "${filters[@]}" "${pg19_tarball[@]}" UUID_EXT_RUN_ID="$UUID_EXT_RUN_ID" \
        bash scripts/test.sh 19 2>&1 \
        | tee "$ROOT/target/test-sid.log"
    set -e
    totals=$(sed -n 's/^pg_regress+lifecycle: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
        "$ROOT/target/test-sid.log")
    if [ -z "$totals" ]; then
        summary+=("PostgreSQL 19 (sid chroot): no totals (see target/test-sid.log)")
        total_failed=$((total_failed + 1))
    else
        read -r p f k <<<"$totals"
        summary+=("PostgreSQL 19 (sid chroot): $p passed, $f failed, $k skipped ($((SECONDS - start)) s so far)")
        total_passed=$((total_passed + p))
        total_failed=$((total_failed + f))
        total_skipped=$((total_skipped + k))
    fi
fi

echo
printf '%s\n' "${summary[@]}"
[ "$cargo_failed" -eq 0 ] || echo "cargo test FAILED (see above)"
echo "pg_regress+lifecycle: $total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$cargo_failed" -eq 0 ] && [ "$total_failed" -eq 0 ]
