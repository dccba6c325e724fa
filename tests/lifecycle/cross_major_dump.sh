#!/usr/bin/env bash
# A dump taken on an older major restores on a newer one (17, 18 and 19): pg_dump writes every
# call to an extension function schema-qualified (public.uuidv7(), public.uuid_extract_timestamp()),
# so those functions must exist on every major, even where pg_catalog has its own.
# Each older major's own pg_dump writes the dump; the newer major's pg_restore restores it. On 19
# (in the sid chroot, scripts/sid.sh) the dumps are those the machine's part of the run wrote,
# with their rows' fingerprints, when the same run (UUID_EXT_RUN_ID, scripts/test.sh) wrote them.
set -uo pipefail
source "$(dirname "$0")/lib.bash"

declare -A BINS PORTS
# (Times as text in UTC: the chroot's servers and the machine's may have other time zones.)
fingerprint="SELECT md5(string_agg(concat_ws('|', id, ts AT TIME ZONE 'UTC', version, other, later), ',' ORDER BY id)) FROM ev"
for v in "${RUN_MAJORS[@]}"; do
    # On 17 the README's set-up, so the table uses uuid_ext's uuid_extract_timestamp().
    up "dump-$v" "$v" "$(pg17_options "$v")"
    BINS[$v]=$BIN PORTS[$v]=$PORT
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE source"
    sql "$BIN" "$PORT" source <<'SQL'
CREATE EXTENSION uuid_ext;
CREATE TABLE ev (
    id uuid PRIMARY KEY DEFAULT uuidv7(),
    ts timestamptz GENERATED ALWAYS AS (uuid_extract_timestamp(id)) STORED,
    version smallint GENERATED ALWAYS AS (uuid_extract_version(id)) STORED,
    other uuid DEFAULT uuidv4(),
    later uuid DEFAULT uuidv7('1 hour')
);
CREATE INDEX ev_time ON ev (id uuid_time_ops);
CREATE VIEW ev_view AS SELECT id, uuid_extract_timestamp(id) AS ts FROM ev;
INSERT INTO ev (id) SELECT uuid_generate_v7() FROM generate_series(1, 500);
INSERT INTO ev (id) VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'), (DEFAULT);
SQL
    rm -f "$LIFECYCLE/dump-$v.dump" "$LIFECYCLE/dump-$v.fingerprint"
    "$BIN/pg_dump" -h 127.0.0.1 -p "$PORT" -U postgres -Fc -f "$LIFECYCLE/dump-$v.dump" source
    sql "$BIN" "$PORT" source -c "$fingerprint" >"$LIFECYCLE/dump-$v.fingerprint"
    echo "${UUID_EXT_RUN_ID:-}" >"$LIFECYCLE/dump-$v.run"
done

sources=("${RUN_MAJORS[@]}")
if [ -n "${UUID_EXT_IN_SID-}" ]; then
    for v in "${HOST_MAJORS[@]}"; do
        if [ -n "${UUID_EXT_RUN_ID-}" ] && [ "$(cat "$LIFECYCLE/dump-$v.run" 2>/dev/null)" = "$UUID_EXT_RUN_ID" ]; then
            sources+=("$v")
        else
            echo "skipped - a dump of $v restored on 19: this run made none on the machine (scripts/test.sh with $v and 19 does)"
        fi
    done
fi
for target in 17 18 19; do
    wants "$target" || continue
    for v in "${sources[@]}"; do
        [ "$v" -lt "$target" ] || continue
        name="dump on $v, restored on $target"
        db="from_$v"
        bin=${BINS[$target]} port=${PORTS[$target]}
        sql "$bin" "$port" postgres -c "CREATE DATABASE $db"
        if ! "$bin/pg_restore" -h 127.0.0.1 -p "$port" -U postgres -d "$db" --exit-on-error \
                "$LIFECYCLE/dump-$v.dump" >"$LIFECYCLE/restore-$v-$target.log" 2>&1; then
            echo "not ok - $name: pg_restore"; tail -5 "$LIFECYCLE/restore-$v-$target.log"; continue
        fi
        echo "ok - $name: pg_restore without errors"
        check "$name: same rows, same generated timestamps" \
            "$(cat "$LIFECYCLE/dump-$v.fingerprint")" "$(sql "$bin" "$port" "$db" -c "$fingerprint")"
        check "$name: defaults and generated columns work" "7|t|4" \
            "$(sql "$bin" "$port" "$db" -c "INSERT INTO ev DEFAULT VALUES RETURNING version, ts BETWEEN now() - interval '1 minute' AND now() + interval '1 minute', uuid_extract_version(other)")"
        check "$name: the view reads v7 times" "0" \
            "$(sql "$bin" "$port" "$db" -c "SELECT count(*) FROM ev_view WHERE ts IS NULL")"
    done
done
