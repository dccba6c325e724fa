#!/usr/bin/env bash
# Public IDs with the key file named in postgresql.conf, as docs/PUBLIC_IDS.md says, on a server
# that does not preload uuid_ext (so each session loads the library after reading the
# configuration), on every major of this run: a fresh session creates the extension and maps
# both ways; another session, whose first call loads the library, maps as well; a granted role
# maps and cannot read the setting; a misspelt uuid_ext.* setting is still refused.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

for v in "${RUN_MAJORS[@]}"; do
    up "public-ids-$v" "$v"
    keys=$DATA/uuid_ext_public_ids.keys
    runuser -u postgres -- sh -c "umask 077; echo 0123456789abcdeffedcba9876543210 > '$keys'"
    printf "uuid_ext.public_id_key_file = '%s'\nuuid_ext.public_id_key_fil = 'typo'\n" "$keys" >>"$DATA/postgresql.conf"
    sql "$BIN" "$PORT" postgres -c "SELECT pg_reload_conf()" >/dev/null
    sleep 0.5
    check "PostgreSQL $v: a new session creates the extension and maps with the key from postgresql.conf" "t|t" \
        "$(sql "$BIN" "$PORT" postgres -c "CREATE EXTENSION uuid_ext" -c "
            SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') = '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f',
                   uuid_v7_from_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f') = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'" 2>&1 \
           | grep -vE '^(WARNING|DETAIL|HINT):')"
    sql "$BIN" "$PORT" postgres -c "CREATE ROLE mapper LOGIN" \
        -c "GRANT EXECUTE ON FUNCTION uuid_v7_to_public(uuid), uuid_v7_from_public(uuid) TO mapper" >/dev/null
    out=$("$BIN/psql" -X -q -t -A -h 127.0.0.1 -p "$PORT" -U mapper -d postgres 2>&1 <<'SQL'
SELECT uuid_v7_from_public(uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f';
DO $$ BEGIN PERFORM current_setting('uuid_ext.public_id_key_file'); EXCEPTION WHEN OTHERS THEN RAISE NOTICE '%', SQLSTATE; END $$;
SQL
    )
    check "PostgreSQL $v: a granted role's first call loads the library and maps; it cannot read the setting" \
        "t|42501" "$(grep -vE '^(WARNING|DETAIL|HINT):' <<<"$out" | sed 's/^NOTICE:  //' | paste -sd'|' -)"
    check "PostgreSQL $v: a misspelt uuid_ext.* setting is refused once the library is loaded" "1" \
        "$(sql "$BIN" "$PORT" postgres -c "LOAD 'uuid_ext'" -c "SHOW uuid_ext.public_id_key_fil" 2>&1 | grep -c 'unrecognized configuration parameter')"
    stop_cluster "$BIN" "$DATA"
done
