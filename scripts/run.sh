#!/usr/bin/env bash
# The main job: build uuid_ext, install it into PostgreSQL 15, start a
# throwaway cluster (as the `postgres` OS user, on 127.0.0.1, data under
# target/demo) and show the extension working. Opens psql on a terminal.
#
# Usage: scripts/run.sh          build, install, (re)start, demo
#        scripts/run.sh stop     stop the demo cluster
#        scripts/run.sh clean    stop it and delete its data
set -euo pipefail
source "$(dirname "$0")/common.sh"
bindir=$PG15_BIN
demo=$ROOT/target/demo
data=$demo/data

case ${1:-run} in
    stop) stop_cluster "$bindir" "$data"; echo "demo cluster stopped"; exit 0 ;;
    clean) stop_cluster "$bindir" "$data"; rm -rf "$demo"; echo "demo cluster removed"; exit 0 ;;
    run) ;;
    *) echo "usage: $0 [run|stop|clean]" >&2; exit 2 ;;
esac

"$ROOT/scripts/setup.sh"
cd "$ROOT"
say "building and installing uuid_ext (release) into PostgreSQL 15"
cargo pgrx install --release --no-default-features --features pg15 --pg-config "$bindir/pg_config"

# Restart so the server loads the freshly installed library.
stop_cluster "$bindir" "$data"
mkdir -p "$demo"
port=$(free_port)
start_cluster "$bindir" "$data" "$port" "$demo/server.log"
echo "$port" >"$demo/port"
psql_cmd=("$bindir/psql" -X -h 127.0.0.1 -p "$port" -U postgres)

say "demo"
"${psql_cmd[@]}" -q -d postgres -c "SELECT 1 FROM pg_database WHERE datname = 'uuid_ext_demo'" -tA | grep -q 1 \
    || "${psql_cmd[@]}" -q -d postgres -c "CREATE DATABASE uuid_ext_demo"
"${psql_cmd[@]}" -d uuid_ext_demo -v ON_ERROR_STOP=1 -e <<'SQL'
DROP TABLE IF EXISTS events;
DROP EXTENSION IF EXISTS uuid_ext CASCADE;
CREATE EXTENSION uuid_ext;
CREATE TABLE events (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    what text NOT NULL
);
INSERT INTO events (what) VALUES ('signed up'), ('logged in'), ('bought a book');
SELECT id, uuid_extract_timestamp(id), uuid_extract_version(id), what FROM events ORDER BY id;
SELECT uuid_generate_v5(uuid_ns_dns(), 'www.example.com') AS "RFC 9562 A.4",
       uuid_generate_v8(uuid_ns_dns(), 'www.example.com') AS "RFC 9562 B.2";
SQL


cat <<EOF

uuid_ext is installed in a PostgreSQL 15 cluster on 127.0.0.1:$port.
  connect:  ${psql_cmd[*]} -d uuid_ext_demo
  stop:     scripts/run.sh stop      (scripts/run.sh clean also deletes the data)
EOF
if [ -t 0 ] && [ -t 1 ]; then
    exec "${psql_cmd[@]}" -d uuid_ext_demo
fi
