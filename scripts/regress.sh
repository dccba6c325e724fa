#!/usr/bin/env bash
# The one-test loop: build and install uuid_ext (debug) into one major, reuse that major's
# cluster (started on first use, restarted only when the installed library changed), run just
# the named pg_regress files and print their diffs.
#
# Usage: scripts/regress.sh MAJOR [TEST ...]     (no TEST: every file in tests/pg_regress/sql)
#        scripts/regress.sh MAJOR --stop         stop that major's cluster
# Needs scripts/setup.sh to have run once. Data and output live in target/regress-MAJOR/.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ROOT"
[ $# -ge 1 ] || { echo "usage: $0 MAJOR [TEST ...] | MAJOR --stop" >&2; exit 2; }
v=$1
shift
bindir=$(bindir_for "$v")
work=$ROOT/target/regress-$v
data=$work/data
mkdir -p "$work" && chmod 755 "$ROOT/target" "$work"
if [ "${1:-}" = --stop ]; then stop_cluster "$bindir" "$data"; exit 0; fi
tests=("$@")
[ ${#tests[@]} -gt 0 ] || read -r -a tests <<<"$(cd tests/pg_regress/sql && ls *.sql | sed 's/\.sql$//' | sort | tr '\n' ' ')"

install_debug "$v" "$work/install.log"
# The postmaster preloads the library: a new build needs a restart to be seen.
library=$("$(pg_config_for "$v")" --pkglibdir)/uuid_ext.so
stamp=$(md5sum "$library" | cut -d' ' -f1)
running() { as_postgres "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; }
if running && [ "$(cat "$work/library.md5" 2>/dev/null)" != "$stamp" ]; then
    stop_cluster "$bindir" "$data"
fi
if ! running; then
    port=$(free_port)
    start_cluster "$bindir" "$data" "$port" "$work/server.log" "-c shared_preload_libraries=uuid_ext $(pg17_options "$v")"
    echo "$port" >"$work/port"
    echo "$stamp" >"$work/library.md5"
fi
set +e
run_pg_regress "$v" "$(cat "$work/port")" "$work/out" "${tests[@]}" 2>&1 | tee "$work/regress.log"
set -e
read -r passed failed <<<"$(count_pg_regress "$work/regress.log")"
[ "$failed" -eq 0 ] || cat "$work/out/regression.diffs" 2>/dev/null || true
echo "PostgreSQL $v: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq "${#tests[@]}" ]
