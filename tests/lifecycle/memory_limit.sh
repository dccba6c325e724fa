#!/usr/bin/env bash
# No role can take the server down through uuid_ext by making it allocate (issue 26, item 3).
# Rust aborts the whole process when an allocation fails, and PostgreSQL then restarts every
# backend: 0.4.0's uuid_generate_v2() kept every (domain, id) it saw and its error messages
# copied a bad input several times, so an ordinary role's query ended in "terminated by
# signal 6" for everyone. Here the server runs under an address-space limit (ulimit -v, as
# vm.overcommit_memory = 2 would limit it), an ordinary role runs those queries and their
# siblings, each ends in an ordinary ERROR with its own SQLSTATE, and the server never
# restarts. On every major of the run.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

# Address space per server process: shared memory and libraries take ~300 MB of it.
LIMIT_KB=1048576

for v in "${RUN_MAJORS[@]}"; do
    BIN=$(bindir_for "$v")
    DATA=$LIFECYCLE/memory-$v
    log=$LIFECYCLE/memory-$v.log
    stop_cluster "$BIN" "$DATA"
    rm -rf "$DATA" "$log"
    init_cluster "$BIN" "$DATA"
    touch "$log" && chown postgres:postgres "$log"
    PORT=$(free_port)
    as_postgres bash -c "ulimit -v $LIMIT_KB && exec '$BIN/pg_ctl' -D '$DATA' -l '$log' -w -t 60 \
        -o '-p $PORT -k $DATA -c listen_addresses=127.0.0.1 -c autovacuum=off' start" >/dev/null
    STARTED+=("$BIN|$DATA")
    sql "$BIN" "$PORT" postgres -c "CREATE ROLE mem LOGIN" \
        -c "CREATE DATABASE latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0 OWNER mem"
    sql "$BIN" "$PORT" latin1 -c "CREATE EXTENSION uuid_ext"
    # Each query as the ordinary role: its SQLSTATE.
    state() {
        "$BIN/psql" -X -q -t -A -h 127.0.0.1 -p "$PORT" -U mem -d latin1 \
            -c "\\set VERBOSITY sqlstate" -c "$1" 2>&1 | tail -1
    }
    name="PostgreSQL $v, under a ${LIMIT_KB} kB limit"
    check "$name: uuid_generate_v2() over 40 million (domain, id) pairs stops at its bound (2200H)" "ERROR:  2200H" \
        "$(state "SELECT count(uuid_generate_v2(0, a * 5000 + b)) FROM generate_series(0, 7999) a, generate_series(1, 5000) b")"
    check "$name: uuid_decode() of 100 MB of control bytes is 22P02" "ERROR:  22P02" \
        "$(state "SELECT uuid_decode(repeat(E'\\x01', 100000000), 'hex')")"
    check "$name: uuid_decode() with a 100 MB format name is 22023" "ERROR:  22023" \
        "$(state "SELECT uuid_decode('x', repeat(E'\\x01', 100000000))")"
    check "$name: uuid_from_typeid() of 100 MB is 22P02" "ERROR:  22P02" \
        "$(state "SELECT uuid_from_typeid(repeat(E'\\xe9', 100000000))")"
    check "$name: uuid_to_typeid() with a 100 MB prefix is 22023" "ERROR:  22023" \
        "$(state "SELECT uuid_to_typeid(repeat(E'\\xe9', 100000000), uuid_nil())")"
    check "$name: uuid_from_urn() of 100 MB is 22P02" "ERROR:  22P02" \
        "$(state "SELECT uuid_from_urn(repeat(E'\\x01', 100000000))")"
    check "$name: the server never restarted" "0" \
        "$(grep -cE 'terminated by signal|was terminated|reinitializing' "$log")"
    check "$name: and still answers" "7" "$(sql "$BIN" "$PORT" latin1 -c "SELECT uuid_extract_version(uuid_generate_v7())")"
    stop_cluster "$BIN" "$DATA"
done
