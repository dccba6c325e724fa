#!/usr/bin/env bash
# pg_dump / pg_restore of a database using uuid_ext, on every major of this run, in custom and
# plain format: column defaults, a uuid_time_ops index and a primary key, a view calling
# extractors, a generated column and uuid_ext settings made for the database. Restored into a
# fresh cluster (pg_restore --create / psql, as a DBA moves a database), the data is identical
# byte for byte (COPY's output), the indexes are valid (amcheck) and serve queries, the
# defaults generate and the database's settings came along.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

# Every row, in the binary-exact text COPY writes, hashed; plus the database's settings.
fingerprint="SELECT md5(string_agg(t::text, E'\n' ORDER BY t::text)) FROM events t"
settings="SELECT string_agg(s, ',' ORDER BY s) FROM pg_db_role_setting, unnest(setconfig) s
          WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())"

for v in "${RUN_MAJORS[@]}"; do
    up "dump-source-$v" "$v"
    src_bin=$BIN src_port=$PORT
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app"
    sql "$BIN" "$PORT" postgres -c "ALTER DATABASE app SET uuid_ext.v7_method = 'counter'" \
                                -c "ALTER DATABASE app SET search_path = \"\$user\", public, pg_catalog"
    sql "$BIN" "$PORT" app <<'SQL'
CREATE EXTENSION uuid_ext;
CREATE TABLE events (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    legacy uuid DEFAULT uuid_generate_v1(),
    name_id uuid GENERATED ALWAYS AS (uuid_generate_v5(uuid_ns_url(), what)) STORED,
    what text NOT NULL
);
CREATE INDEX events_legacy_time ON events (legacy uuid_time_ops);
CREATE VIEW event_times AS SELECT id, uuid_extract_timestamp(id) AS at, uuid_ext_timestamp(legacy) AS legacy_at FROM events;
INSERT INTO events (what) SELECT 'event ' || i FROM generate_series(1, 2000) i;
SQL
    before=$(sql "$BIN" "$PORT" app -c "$fingerprint")
    before_settings=$(sql "$BIN" "$PORT" app -c "$settings")
    for format in custom plain; do
        name="PostgreSQL $v, $format dump"
        dump=$LIFECYCLE/app-$v.$format
        up "dump-target-$v-$format" "$v"
        case $format in
            custom)
                "$src_bin/pg_dump" -h 127.0.0.1 -p "$src_port" -U postgres -Fc --create -f "$dump" app
                check_cmd "$name: pg_restore --create into a fresh cluster" \
                    "$BIN/pg_restore" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres --create --exit-on-error "$dump" ;;
            plain)
                "$src_bin/pg_dump" -h 127.0.0.1 -p "$src_port" -U postgres -Fp --create -f "$dump" app
                check_cmd "$name: psql -f into a fresh cluster" sql "$BIN" "$PORT" postgres -f "$dump" ;;
        esac
        check "$name: data identical" "$before" "$(sql "$BIN" "$PORT" app -c "$fingerprint")"
        check "$name: the database's settings came along" "$before_settings" "$(sql "$BIN" "$PORT" app -c "$settings")"
        check "$name: indexes valid" "2|0" \
            "$(sql "$BIN" "$PORT" app -c "SELECT count(*), count(*) FILTER (WHERE NOT indisvalid) FROM pg_index WHERE indrelid = 'events'::regclass")"
        check_cmd "$name: amcheck on both indexes" sql "$BIN" "$PORT" app -c "CREATE EXTENSION amcheck" \
            -c "SELECT bt_index_parent_check('events_pkey', true), bt_index_parent_check('events_legacy_time', true)"
        check "$name: the uuid_time_ops index answers a time range" "t" \
            "$(sql "$BIN" "$PORT" app -c "SET enable_seqscan = off" -c "SELECT count(*) = (SELECT count(*) FROM events) FROM events WHERE legacy >=| uuid_time_lower_bound(now() - interval '1 day') AND legacy <| uuid_time_upper_bound(now())")"
        check "$name: defaults work, under the restored counter method" "counter|7|1|t|t" \
            "$(sql "$BIN" "$PORT" app -c "INSERT INTO events (what) VALUES ('after restore')
                RETURNING current_setting('uuid_ext.v7_method'), uuid_extract_version(id), uuid_extract_version(legacy),
                          name_id = uuid_generate_v5(uuid_ns_url(), 'after restore'), uuid_extract_timestamp(id) IS NOT NULL")"
        stop_cluster "$BIN" "$DATA"
    done
    stop_cluster "$src_bin" "$LIFECYCLE/dump-source-$v"
done
