#!/usr/bin/env bash
# The main job: build uuid_ext, install it into PostgreSQL (15 unless a major
# is given), start a throwaway cluster (as the `postgres` OS user, on 127.0.0.1,
# data under target/demo) and show the extension working. Opens psql on a terminal.
#
# Usage: scripts/run.sh [MAJOR]  build, install, (re)start, demo (MAJOR: 14..18)
#        scripts/run.sh stop     stop the demo cluster
#        scripts/run.sh clean    stop it and delete its data
set -euo pipefail
source "$(dirname "$0")/common.sh"
demo=$ROOT/target/demo
data=$demo/data
# The demo cluster's major, for stop/clean.
running_major() { cat "$demo/major" 2>/dev/null || echo 15; }

case ${1:-15} in
    stop) stop_cluster "$(bindir_for "$(running_major)")" "$data"; echo "demo cluster stopped"; exit 0 ;;
    clean) stop_cluster "$(bindir_for "$(running_major)")" "$data"; rm -rf "$demo"; echo "demo cluster removed"; exit 0 ;;
    14|15|16|17|18) major=${1:-15} ;;
    *) echo "usage: $0 [14|15|16|17|18|stop|clean]" >&2; exit 2 ;;
esac

"$ROOT/scripts/setup.sh"
cd "$ROOT"
pg_config=$(pg_config_for "$major")
bindir=$("$pg_config" --bindir)
say "building and installing uuid_ext (release) into PostgreSQL $major"
cargo pgrx install --release --no-default-features --features "pg$major" --pg-config "$pg_config"
install_refusals "$pg_config"

# Restart so the server loads the freshly installed library; a cluster of another major is replaced.
stop_cluster "$(bindir_for "$(running_major)")" "$data"
[ "$(cat "$data/PG_VERSION" 2>/dev/null || echo "$major")" = "$major" ] || rm -rf "$data"
mkdir -p "$demo"
echo "$major" >"$demo/major"
port=$(free_port)
start_cluster "$bindir" "$data" "$port" "$demo/server.log"
echo "$port" >"$demo/port"
psql_cmd=("$bindir/psql" -X -h 127.0.0.1 -p "$port" -U postgres)

say "demo"
"${psql_cmd[@]}" -q -d postgres -c "SELECT 1 FROM pg_database WHERE datname = 'uuid_ext_demo'" -tA | grep -q 1 \
    || "${psql_cmd[@]}" -q -d postgres -c "CREATE DATABASE uuid_ext_demo"
# PostgreSQL 17: the README's set-up, so uuid_extract_timestamp() reads v7 (see "PostgreSQL 17").
[ "$major" != 17 ] || "${psql_cmd[@]}" -q -d postgres \
    -c "ALTER DATABASE uuid_ext_demo SET search_path = \"\$user\", public, pg_catalog"
# Every session of the demo database loads the library, so time windows use the key's index.
"${psql_cmd[@]}" -q -d postgres -c "ALTER DATABASE uuid_ext_demo SET session_preload_libraries = 'uuid_ext'"
"${psql_cmd[@]}" -d uuid_ext_demo -v ON_ERROR_STOP=1 -e <<'SQL'
DROP TABLE IF EXISTS events;
DROP EXTENSION IF EXISTS uuid_ext CASCADE;
CREATE EXTENSION uuid_ext;
CREATE TABLE events (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7() CHECK (uuid_is_v7(id)),
    what text NOT NULL
);
INSERT INTO events (what) VALUES ('signed up'), ('logged in'), ('bought a book');
SELECT id, uuid_extract_timestamp(id), uuid_extract_version(id), what FROM events ORDER BY id;
-- 100,000 older events over the last 30 days: the "last hour" is served by the primary key.
INSERT INTO events SELECT uuid_timestamptz_to_v7(now() - interval '30 days' * random()), 'older'
FROM generate_series(1, 100000);
ANALYZE events;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
SELECT count(*) AS last_hour FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour';
SELECT uuid_generate_v5(uuid_ns_dns(), 'www.example.com') AS "RFC 9562 A.4",
       uuid_generate_v8(uuid_ns_dns(), 'www.example.com') AS "RFC 9562 B.2";
SQL


cat <<EOF

uuid_ext is installed in a PostgreSQL $major cluster on 127.0.0.1:$port.
  connect:  ${psql_cmd[*]} -d uuid_ext_demo
  stop:     scripts/run.sh stop      (scripts/run.sh clean also deletes the data)
EOF
if [ -t 0 ] && [ -t 1 ]; then
    exec "${psql_cmd[@]}" -d uuid_ext_demo
fi
