#!/usr/bin/env bash
# Server-assigned keys (uuid_ext_server_assigned) keep every id through what moves data:
# pg_dump/pg_restore in custom format and pg_dump in plain format replayed by psql (whose COPY
# loads the rows before the trigger exists), into a fresh cluster, after which the trigger still
# guards the column; and logical replication to a subscriber that has the same trigger (apply
# workers run as session_replication_role = replica, so row triggers do not fire there), for
# inserts, updates of other columns and deletes. On 15, 18 and 19 (whichever this run covers).
set -uo pipefail
source "$(dirname "$0")/lib.bash"

schema="CREATE EXTENSION uuid_ext;
CREATE TABLE entries (id uuid PRIMARY KEY, dn text NOT NULL);
CREATE TRIGGER entries_id BEFORE INSERT OR UPDATE ON entries
    FOR EACH ROW EXECUTE FUNCTION uuid_ext_server_assigned('id');"
ids="SELECT md5(string_agg(id::text || dn, ',' ORDER BY id)) FROM entries"
# Still server-assigned afterwards: an explicit key fails with 428C9, a missing one is assigned.
guarded() {
    sql "$1" "$2" "$3" -c "INSERT INTO entries (dn) VALUES ('cn=after')" \
        -c "INSERT INTO entries (id, dn) VALUES (uuid_generate_v4(), 'cn=spoof')" 2>&1 | grep -c 'cannot insert a non-DEFAULT value into column "id"'
}

for v in 15 18 19; do
    wants "$v" || continue
    up "assigned-src-$v" "$v" "-c wal_level=logical"
    src_bin=$BIN src_port=$PORT
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app"
    sql "$BIN" "$PORT" app -c "$schema" -c "INSERT INTO entries (dn) SELECT 'cn=user' || i FROM generate_series(1, 500) i"
    before=$(sql "$BIN" "$PORT" app -c "$ids")

    for format in custom plain; do
        name="PostgreSQL $v, $format dump"
        up "assigned-restore-$v-$format" "$v"
        dump=$LIFECYCLE/assigned-$v.$format
        case $format in
            custom) "$src_bin/pg_dump" -h 127.0.0.1 -p "$src_port" -U postgres -Fc --create -f "$dump" app
                    check_cmd "$name: restored" "$BIN/pg_restore" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres --create --exit-on-error "$dump" ;;
            plain)  "$src_bin/pg_dump" -h 127.0.0.1 -p "$src_port" -U postgres -Fp --create -f "$dump" app
                    check "$name: the data travels as COPY" "1" "$(grep -c '^COPY public.entries (id, dn) FROM stdin;$' "$dump")"
                    check_cmd "$name: restored" sql "$BIN" "$PORT" postgres -f "$dump" ;;
        esac
        check "$name: every id unchanged" "$before" "$(sql "$BIN" "$PORT" app -c "$ids")"
        check "$name: the column is still server-assigned" "1" "$(guarded "$BIN" "$PORT" app)"
        stop_cluster "$BIN" "$DATA"
    done

    name="PostgreSQL $v, logical replication"
    up "assigned-sub-$v" "$v"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE app"
    sql "$BIN" "$PORT" app -c "$schema"
    sql "$src_bin" "$src_port" app -c "CREATE PUBLICATION entries_pub FOR TABLE entries"
    sql "$BIN" "$PORT" app -c "CREATE SUBSCRIPTION entries_sub CONNECTION 'host=127.0.0.1 port=$src_port user=postgres dbname=app' PUBLICATION entries_pub"
    sql "$src_bin" "$src_port" app -c "INSERT INTO entries (dn) SELECT 'cn=later' || i FROM generate_series(1, 200) i" \
        -c "UPDATE entries SET dn = dn || ',o=example' WHERE dn LIKE 'cn=user1%'" -c "DELETE FROM entries WHERE dn LIKE 'cn=user2%'"
    want=$(sql "$src_bin" "$src_port" app -c "$ids")
    got=""
    for _ in $(seq 1 60); do
        got=$(sql "$BIN" "$PORT" app -c "$ids")
        [ "$got" = "$want" ] && break
        sleep 1
    done
    check "$name: the subscriber has the publisher's ids (initial copy, inserts, updates, deletes)" "$want" "$got"
    check "$name: the subscriber's own inserts are still server-assigned" "1" "$(guarded "$BIN" "$PORT" app)"
    sql "$BIN" "$PORT" app -c "DROP SUBSCRIPTION entries_sub"
    stop_cluster "$BIN" "$DATA"
    stop_cluster "$src_bin" "$LIFECYCLE/assigned-src-$v"
done
