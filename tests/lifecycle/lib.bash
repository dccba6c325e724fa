# Helpers for the lifecycle tests (sourced). Each test starts its own throwaway clusters as the
# `postgres` OS user on 127.0.0.1 and free ports, under target/lifecycle/, prints one
# "ok - …" / "not ok - …" line per check, and stops its clusters on exit.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"
LIFECYCLE=$ROOT/target/lifecycle
mkdir -p "$LIFECYCLE"
chmod 755 "$ROOT/target" "$LIFECYCLE"
# (By default the majors of where it runs: 14-18 on the machine, 19 in the sid chroot.)
if [ -n "${UUID_EXT_IN_SID-}" ]; then default_majors=19; else default_majors="${HOST_MAJORS[*]}"; fi
read -r -a RUN_MAJORS <<<"${UUID_EXT_MAJORS:-$default_majors}"
STARTED=()
trap 'for c in "${STARTED[@]}"; do stop_cluster "${c%%|*}" "${c#*|}"; done' EXIT

# wants MAJOR: true when this run covers MAJOR.
wants() { [[ " ${RUN_MAJORS[*]} " == *" $1 "* ]]; }

# up NAME MAJOR [SERVER OPTIONS]: a fresh cluster of MAJOR; sets PORT, BIN and DATA.
up() {
    local name=$1 major=$2 options=${3:-}
    BIN=$(bindir_for "$major")
    DATA=$LIFECYCLE/$name
    stop_cluster "$BIN" "$DATA"
    rm -rf "$DATA"
    PORT=$(free_port)
    start_cluster "$BIN" "$DATA" "$PORT" "$LIFECYCLE/$name.log" "$options"
    STARTED+=("$BIN|$DATA")
}

# sql BIN PORT DB SQL...: runs SQL (psql -tA, stop on error), prints the result.
sql() {
    local bin=$1 port=$2 db=$3
    shift 3
    "$bin/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$db" "$@"
}

# check NAME EXPECTED ACTUAL: ok when the two are equal and neither is empty. An empty side is a
# command that failed (sql prints errors to stderr) or found nothing, so two of them never
# agree; a claim that something is empty is check_empty's.
check() {
    if [ -z "$2" ] || [ -z "$3" ]; then
        echo "not ok - $1 (empty: expected '$2', got '$3')"
    elif [ "$2" = "$3" ]; then
        echo "ok - $1"
    else
        echo "not ok - $1 (expected '$2', got '$3')"
    fi
}

# both A B: "A|B" for check's sides made of two results; nothing when either is empty (so the
# check fails rather than compare two failures).
both() {
    if [ -n "$1" ] && [ -n "$2" ]; then echo "$1|$2"; fi
}

# counted N: N when it is a count above 0; nothing otherwise (a count that found nothing to
# count is no expectation to compare with).
counted() {
    if [ "${1:-0}" -gt 0 ] 2>/dev/null; then echo "$1"; fi
}

# check_empty NAME ACTUAL: ok when ACTUAL is empty. The caller makes sure the command that
# produced it ran (its errors are part of ACTUAL, or another check shows it).
check_empty() {
    if [ -z "$2" ]; then echo "ok - $1"; else echo "not ok - $1 (expected nothing, got '$2')"; fi
}

# check_cmd NAME COMMAND...: ok when COMMAND succeeds; its output is shown when it fails.
check_cmd() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then echo "ok - $name"; else echo "not ok - $name"; echo "$out" | tail -20; fi
}

# sqlstate: the SQLSTATE of the first ERROR in psql output on stdin (run with VERBOSITY=verbose).
sqlstate() { sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\):.*/\1/p' | head -1; }

# ok_lines LABEL RC: passes a program's "ok - …" / "not ok - …" lines (stdin) through, and adds
# one "not ok" unless the program exited 0 (RC), printed nothing else (a traceback) and ended with
# its "ok - …: ran to the end" line (a program killed halfway prints none).
ok_lines() {
    local out
    out=$(cat)
    grep -E '^(not )?ok - ' <<<"$out"
    if [ "$2" != 0 ] || grep -vqE '^(not )?ok - ' <<<"$out" || ! tail -n 1 <<<"$out" | grep -qE '^ok - .*: ran to the end'; then
        echo "not ok - $1: ran to the end, exit status 0 (got $2): $(grep -vE '^(not )?ok - ' <<<"$out" | tail -5 | tr '\n' ' ')"
    fi
}
