#!/usr/bin/env bash
# Kubernetes extension images (docs/KUBERNETES.md), on 18 and later (19's image built on the
# machine, used in the sid chroot: scripts/sid.sh): scripts/package.sh writes
# an image's root (lib/, share/extension/, licenses/, Containerfile), and the server uses it as
# CloudNativePG mounts it — read-only at /extensions/uuid_ext (here a directory of the test's),
# found through the settings CloudNativePG writes, extension_control_path =
# '$system:MOUNT/share' and dynamic_library_path = '$libdir:MOUNT/lib' — with no uuid_ext file
# in the server's own directories. The life of it:
#   1. the previous release's image mounted (this library, the previous release's install SQL
#      from tests/lifecycle/fixtures/released/ and a control file defaulting to it: that
#      release's image was never built), CREATE EXTENSION by the database's owner, data written;
#   2. the image changed to this one and the server restarted (the pod rolls), ALTER EXTENSION
#      UPDATE: the data and the default work, the library mapped is the mount's, a fresh
#      install is this version and an old one refuses;
#   3. preloaded from the mount: cluster scope (shared_preload_libraries) and the time-window
#      hook (session_preload_libraries per database).
# Afterwards the development build (on 19 under scripts/test.sh: the 19 tarball's library,
# common.sh install_debug) is put back, so later tests find the installation as it was.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
VERSION=$(grep -m1 '^version' "$ROOT/Cargo.toml" | cut -d'"' -f2)
# The release this one updates from: the update script that ends at this version.
PREV=$(cd "$ROOT/sql" && ls uuid_ext--*--"$VERSION".sql | sed 's/^uuid_ext--\(.*\)--.*$/\1/' | head -1)
majors=()
for v in "${RUN_MAJORS[@]}"; do [ "$v" -ge 18 ] && majors+=("$v"); done
[ ${#majors[@]} -gt 0 ] || { echo "ok - image volumes: no major of 18 or later in this run, nothing to do"; exit 0; }

for v in "${majors[@]}"; do
    pg_config=$(pg_config_for "$v")
    image=$ROOT/target/package/uuid_ext-$VERSION-pg$v-image
    if [ -n "${UUID_EXT_IN_SID-}" ]; then
        # 19's image, built on the machine (scripts/test.sh runs scripts/package.sh 19 there).
        [ -f "$image/lib/uuid_ext.so" ] || { echo "not ok - PostgreSQL $v: no image root built on the machine ($image)"; continue; }
        check "PostgreSQL $v: the image root was built by this run (scripts/test.sh)" "${UUID_EXT_RUN_ID-}" \
            "$(cat "$ROOT/target/dist/run-pg$v" 2>/dev/null)"
    elif ! bash "$ROOT/scripts/package.sh" "$v" >"$LIFECYCLE/image-package-$v.log" 2>&1; then
        echo "not ok - PostgreSQL $v: scripts/package.sh $v"; tail -20 "$LIFECYCLE/image-package-$v.log"; continue
    fi
    check "PostgreSQL $v: the image's root: the library, this version's SQL, every update script, the refusing scripts, licences" \
        "$( (cd "$ROOT/sql" && ls uuid_ext--*.sql | sed 's|^|share/extension/|'; echo share/extension/uuid_ext.control; echo lib/uuid_ext.so; echo licenses/LICENSE-APACHE; echo licenses/LICENSE-MIT; echo "share/extension/uuid_ext--$VERSION.sql") | sort -u)" \
        "$(cd "$image" && find lib share licenses -type f | sort)"
    check "PostgreSQL $v: its Containerfile copies the three directories into an empty image" "FROM scratch|COPY lib/ /lib/|COPY share/ /share/|COPY licenses/ /licenses/" \
        "$(grep -E '^(FROM|COPY) ' "$image/Containerfile" | paste -sd'|' -)"
    check "PostgreSQL $v: the image tarball holds that root" "$(cd "$ROOT/target/package" && find "uuid_ext-$VERSION-pg$v-image" -type f | sort | paste -sd' ' -)" \
        "$(tar -tzf "$ROOT/target/dist/uuid_ext-$VERSION-pg$v-image.tar.gz" | grep -v '/$' | sort | paste -sd' ' -)"

    # The server's own directories hold no uuid_ext.
    rm -f "$("$pg_config" --pkglibdir)/uuid_ext.so" "$("$pg_config" --sharedir)"/extension/uuid_ext*
    # The previous release's image (its SQL, this library), mounted read-only.
    mounts=$LIFECYCLE/image-mounts-$v
    mnt=$mounts/extensions/uuid_ext
    chmod -R u+w "$mounts" 2>/dev/null; rm -rf "$mounts"
    mkdir -p "$mounts/prev/share/extension" "$mounts/new" "$mounts/extensions"
    cp -r "$image/lib" "$mounts/prev/"
    cp "$image"/share/extension/uuid_ext--*--*.sql "$mounts/prev/share/extension/"
    cp "$ROOT/tests/lifecycle/fixtures/released/uuid_ext--$PREV.sql" "$mounts/prev/share/extension/"
    sed "s/^default_version = .*/default_version = '$PREV'/" "$image/share/extension/uuid_ext.control" \
        >"$mounts/prev/share/extension/uuid_ext.control"
    cp -r "$image/lib" "$image/share" "$image/licenses" "$mounts/new/"
    mount_image() { # prev|new: what /extensions/uuid_ext holds, read-only
        chmod -R u+w "$mounts/extensions"; rm -rf "$mnt"
        cp -r "$mounts/$1" "$mnt" && chmod -R a+rX,a-w "$mnt"
    }
    # (pg_ctl restart starts the server again with the options it was started with)
    restart() { as_postgres env LD_LIBRARY_PATH="$(cd "$BIN/../lib" && pwd)" "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 restart >/dev/null; }

    # ---- 1. the previous release's image ------------------------------------------------------
    mount_image prev
    up "image-$v" "$v"
    check "PostgreSQL $v: without the settings, the server offers no uuid_ext (none in its directories)" "0|0" \
        "$(sql "$BIN" "$PORT" postgres -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'uuid_ext'")|$(ls "$("$pg_config" --pkglibdir)"/uuid_ext* "$("$pg_config" --sharedir)"/extension/uuid_ext* 2>/dev/null | wc -l)"
    sql "$BIN" "$PORT" postgres -c "ALTER SYSTEM SET extension_control_path = '\$system:$mnt/share'" \
        -c "ALTER SYSTEM SET dynamic_library_path = '\$libdir:$mnt/lib'"
    restart
    sql "$BIN" "$PORT" postgres -c "CREATE ROLE app LOGIN" -c "CREATE DATABASE app OWNER app" -c "CREATE DATABASE fresh OWNER app"
    check "PostgreSQL $v: with the settings CloudNativePG writes, the image's uuid_ext is offered" \
        "\$system:$mnt/share|\$libdir:$mnt/lib|$PREV" \
        "$(sql "$BIN" "$PORT" postgres -c "SHOW extension_control_path")|$(sql "$BIN" "$PORT" postgres -c "SHOW dynamic_library_path")|$(sql "$BIN" "$PORT" postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'uuid_ext'")"
    out=$("$BIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U app -d app 2>&1 <<'SQL'
CREATE EXTENSION uuid_ext;
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7() CHECK (uuid_is_v7(id)), what text);
INSERT INTO events (what) SELECT 'e' || g FROM generate_series(1, 1000) g;
CREATE VIEW event_times AS SELECT id, uuid_extract_timestamp(id) AS at FROM events;
SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext';
SQL
    )
    check "PostgreSQL $v: from the previous release's image: CREATE EXTENSION by the database's owner, a table with v7 keys" "$PREV" "$out"
    before=$(sql "$BIN" "$PORT" app -c "SELECT md5(string_agg(e::text || t.at, ',' ORDER BY e.id)) FROM events e JOIN event_times t USING (id)")

    # ---- 2. this release's image: the pod rolls (a restart, the mount's contents replaced), then
    # ALTER EXTENSION UPDATE ---------------------------------------------------------------------
    mount_image new
    restart
    check "PostgreSQL $v: with this image mounted: the update is offered" "$VERSION|$PREV" \
        "$(sql "$BIN" "$PORT" app -c "SELECT default_version || '|' || installed_version FROM pg_available_extensions WHERE name = 'uuid_ext'")"
    check "PostgreSQL $v: ALTER EXTENSION uuid_ext UPDATE, by the database's owner" "$VERSION" \
        "$("$BIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U app -d app \
             -c "ALTER EXTENSION uuid_ext UPDATE" -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'" 2>&1)"
    check "PostgreSQL $v: after the update: the rows and the view unchanged, the default makes v7" "$before|1001|7" \
        "$(sql "$BIN" "$PORT" app -c "SELECT md5(string_agg(e::text || t.at, ',' ORDER BY e.id)) FROM events e JOIN event_times t USING (id)")|$(sql "$BIN" "$PORT" app \
             -c "INSERT INTO events (what) VALUES ('after')" -c "SELECT count(*) || '|' || (SELECT uuid_extract_version(id) FROM events WHERE what = 'after') FROM events")"
    check "PostgreSQL $v: the backend maps the library from the mount" "$mnt/lib/uuid_ext.so" \
        "$(sql "$BIN" "$PORT" app -c "SELECT uuid_generate_v4() IS NULL" -c "SELECT string_agg(DISTINCT substring(l FROM '(/\\S*uuid_ext[^/]*\\.so)$'), ',')
                                         FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\\n') l WHERE l LIKE '%uuid_ext%.so'" | tail -1)"
    check "PostgreSQL $v: a fresh CREATE EXTENSION is $VERSION; $PREV's install script refuses (0A000)" "$VERSION|0A000" \
        "$("$BIN/psql" -X -q -t -A -h 127.0.0.1 -p "$PORT" -U app -d fresh -c "CREATE EXTENSION uuid_ext" \
             -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'" 2>&1)|$(sql "$BIN" "$PORT" postgres -v VERBOSITY=verbose \
             -c "CREATE DATABASE old" -c "\\c old" -c "CREATE EXTENSION uuid_ext VERSION '$PREV'" 2>&1 | sqlstate)"

    # ---- 3. preloaded from the mount ------------------------------------------------------------
    sql "$BIN" "$PORT" postgres -c "ALTER SYSTEM SET shared_preload_libraries = 'uuid_ext'"
    restart
    check "PostgreSQL $v: shared_preload_libraries = 'uuid_ext' from the mount: cluster scope works" "uuid_ext|7" \
        "$(sql "$BIN" "$PORT" app -c "SHOW shared_preload_libraries")|$(sql "$BIN" "$PORT" app -c "SET uuid_ext.v7_scope = 'cluster'" -c "SELECT uuid_extract_version(uuid_generate_v7())")"
    sql "$BIN" "$PORT" postgres -c "ALTER SYSTEM RESET shared_preload_libraries"
    restart
    sql "$BIN" "$PORT" postgres -c "ALTER DATABASE app SET session_preload_libraries = 'uuid_ext'" -c "ANALYZE" >/dev/null
    check "PostgreSQL $v: session_preload_libraries = 'uuid_ext' from the mount: a time window is an index condition on the key" "1" \
        "$(sql "$BIN" "$PORT" app -c "SET enable_seqscan = off" \
             -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'" \
             | grep -c 'Index Cond: (id >= uuid_v7_lower_bound')"
    check "PostgreSQL $v: nothing of uuid_ext was written into the server's directories" "0" \
        "$(ls "$("$pg_config" --pkglibdir)"/uuid_ext* "$("$pg_config" --sharedir)"/extension/uuid_ext* 2>/dev/null | wc -l)"
    stop_cluster "$BIN" "$DATA"
    chmod -R u+w "$mounts"

    # Put the development build back.
    install_debug "$v" "$LIFECYCLE/image-reinstall-$v.log" || echo "not ok - reinstall the development build into $v"
done
