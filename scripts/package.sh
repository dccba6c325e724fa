#!/usr/bin/env bash
# Builds installable packages of uuid_ext, per PostgreSQL major, from `cargo pgrx package`:
#   target/dist/postgresql-NN-uuid-ext_VERSION_amd64.deb   Debian's (and PGDG's) layout,
#       Depends: postgresql-NN; install with `apt-get install ./postgresql-NN-uuid-ext_…deb`
#   target/dist/uuid_ext-VERSION-pgNN-linux-x86_64.tar.gz  any layout: unpack, then
#       ./install.sh /path/to/pg_config   (copies the files where that server looks for them)
#   target/dist/uuid_ext-VERSION-pgNN-image.tar.gz  (18 and later) an extension image's root, for
#       CloudNativePG's image volumes: lib/uuid_ext.so, share/extension/*, and a Containerfile
#       that makes it an image (FROM scratch); the server finds it through extension_control_path
#       and dynamic_library_path, and nothing is written into its own directories
#   target/dist/uuid_ext-VERSION.zip + META.json             the source distribution for PGXN
# Installing any of them needs no Rust toolchain. Each package holds the library, the control
# file, the install script of this version and every upgrade script (sql/uuid_ext--A--B.sql),
# scripts in place of earlier releases' install scripts that refuse (sql/uuid_ext--X.sql),
# the licence (MIT OR Apache-2.0: LICENSE-MIT, LICENSE-APACHE; Debian's copyright file), and the
# SQL edition's files (sql-edition/: the doc directory of the .deb, sql-edition/ of the tarball).
#
# Usage: scripts/package.sh [MAJOR ...]     (default: 14 15 16 17 18; 19 on request)
#   UUID_EXT_PACKAGE_PROFILE=release (default) or dev (faster to build; for tests)
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"

majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=("${HOST_MAJORS[@]}")
# 19's are built here too, against the headers in the sid chroot (scripts/sid.sh setup, which
# makes it if needed): a library linked on Debian 12 loads on its glibc (2.36) and any newer.
if [[ " ${majors[*]} " == *" 19 "* ]] && [ -z "${UUID_EXT_IN_SID-}" ]; then
    "$ROOT/scripts/sid.sh" setup
    export UUID_EXT_PG19_BUILDS=1   # pg_config_for 19: the chroot's, for this build
fi
profile=${UUID_EXT_PACKAGE_PROFILE:-release}
version=$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)
dist=$ROOT/target/dist
edition=(sql-edition/uuid_ext_sql.sql sql-edition/pg_tle_install.sql sql-edition/uuid_ext_sql.control
         sql-edition/uuid_ext_sql--*--*.sql sql-edition/pg_tle_update.sql)
mkdir -p "$dist"

# Debian's machine-readable copyright file (DEP-5); MIT is not among Debian's common licences,
# so both texts are included in full.
debian_copyright() {
    printf '%s\n' "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
        "Upstream-Name: uuid_ext" "Source: uuid_ext $version" "" "Files: *" \
        "Copyright: 2026 The uuid_ext developers" "License: MIT or Apache-2.0" "" "License: MIT"
    sed 's/^$/./; s/^/ /' LICENSE-MIT
    printf '\n%s\n' "License: Apache-2.0"
    sed 's/^$/./; s/^/ /' LICENSE-APACHE
}

for v in "${majors[@]}"; do
    pg_config=$(pg_config_for "$v")
    out=$ROOT/target/package/pg$v
    say "PostgreSQL $v: cargo pgrx package ($profile)"
    # Nothing of an earlier build of this major is left to be taken for this one's.
    rm -rf "$out" "$ROOT/target/package/uuid_ext-$version-pg$v-"* "$ROOT/target/package/deb-$v" \
        "$dist/postgresql-$v-uuid-ext_"*.deb "$dist/uuid_ext-$version-pg$v-"* "$dist/run-pg$v"
    # (19 is not in `cargo pgrx init`'s configuration here: pgrx's build takes its pg_config from
    # the environment instead.)
    pg_env=()
    [ "$v" != 19 ] || pg_env=(PGRX_PG_CONFIG_PATH="$pg_config")
    env "${pg_env[@]}" cargo pgrx package --profile "$profile" --no-default-features --features "pg$v" \
        --pg-config "$pg_config" --out-dir "$out" >"$ROOT/target/package-pg$v.log" 2>&1 \
        || { tail -30 "$ROOT/target/package-pg$v.log"; exit 1; }
    # cargo pgrx package lays the files out under the build server's own paths.
    lib=$out$("$pg_config" --pkglibdir)/uuid_ext.so
    ext=$out$("$pg_config" --sharedir)/extension
    [ -f "$lib" ] && [ -f "$ext/uuid_ext.control" ] && [ -f "$ext/uuid_ext--$version.sql" ] \
        || { echo "cargo pgrx package left no library or control file under $out" >&2; exit 1; }

    # Debian: /usr/lib/postgresql/NN/lib and /usr/share/postgresql/NN/extension.
    deb=$ROOT/target/package/deb-$v
    rm -rf "$deb"
    install -D -m 644 "$lib" "$deb/usr/lib/postgresql/$v/lib/uuid_ext.so"
    install -d "$deb/usr/share/postgresql/$v/extension" "$deb/DEBIAN" "$deb/usr/share/doc/postgresql-$v-uuid-ext"
    install -m 644 "$ext"/uuid_ext* "$deb/usr/share/postgresql/$v/extension/"
    # In place of earlier releases' install scripts: ones that refuse (docs/SECURITY.md).
    install -m 644 sql/uuid_ext--?.?.?.sql "$deb/usr/share/postgresql/$v/extension/"
    install -m 644 README.md LICENSE-MIT LICENSE-APACHE "$deb/usr/share/doc/postgresql-$v-uuid-ext/"
    # The SQL edition, for servers that cannot load the library (docs/MANAGED.md).
    install -D -m 644 -t "$deb/usr/share/doc/postgresql-$v-uuid-ext/sql-edition" "${edition[@]}"
    debian_copyright >"$deb/usr/share/doc/postgresql-$v-uuid-ext/copyright"
    cat >"$deb/DEBIAN/control" <<EOF
Package: postgresql-$v-uuid-ext
Version: $version
Architecture: amd64
Maintainer: uuid_ext developers <uuid_ext@localhost>
Depends: postgresql-$v, libc6
Section: database
Priority: optional
Installed-Size: $(du -sk "$deb/usr" | cut -f1)
Description: RFC 9562 UUIDs (versions 1-8, Nil, Max) for PostgreSQL $v
 uuid_ext generates and inspects UUIDs as RFC 9562 defines them: monotonic
 UUIDv7 for primary keys, uuid-ossp's and pg_uuidv7's functions, PostgreSQL
 18's uuidv7() and uuid_extract_timestamp() on every major, and an operator
 class ordering v1/v6/v7 by their time. CREATE EXTENSION uuid_ext; after install.
EOF
    dpkg-deb --root-owner-group -Zxz --build "$deb" "$dist/postgresql-$v-uuid-ext_${version}_amd64.deb" >/dev/null

    # Tarball for any layout, with its own install script (POSIX sh, no Rust).
    name=uuid_ext-$version-pg$v-linux-x86_64
    tree=$ROOT/target/package/$name
    rm -rf "$tree"
    install -D -m 755 "$lib" "$tree/lib/uuid_ext.so"
    install -d "$tree/extension"
    install -m 644 "$ext"/uuid_ext* "$tree/extension/"
    install -m 644 sql/uuid_ext--?.?.?.sql "$tree/extension/"
    install -m 644 README.md LICENSE-MIT LICENSE-APACHE "$tree/"
    install -D -m 644 -t "$tree/sql-edition" "${edition[@]}"
    cat >"$tree/install.sh" <<EOF
#!/bin/sh
# Installs uuid_ext $version for PostgreSQL $v into the server that pg_config describes:
# the library into \$(pg_config --pkglibdir), the control and SQL files into
# \$(pg_config --sharedir)/extension, removing uuid_ext's files there that this release does not
# ship. Run it as a user who may write there (e.g. root).
# Usage: ./install.sh [/path/to/pg_config]      (default: the pg_config on PATH)
set -eu
here=\$(cd "\$(dirname "\$0")" && pwd)
pg_config=\${1:-pg_config}
major=\$("\$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if [ "\$major" != "$v" ]; then
    echo "this package is for PostgreSQL $v, but \$pg_config is PostgreSQL \$major" >&2
    exit 1
fi
libdir=\$("\$pg_config" --pkglibdir)
extdir=\$("\$pg_config" --sharedir)/extension
# Files of uuid_ext that this release does not ship are an older release's: an install script
# left behind lets anyone who may create the extension pick that version (docs/SECURITY.md,
# "Old versions' SQL"). Remove them, as the .deb's package manager does.
for f in "\$extdir"/uuid_ext--*.sql "\$extdir"/uuid_ext--*.control; do
    [ -e "\$f" ] || continue
    if [ ! -e "\$here/extension/\$(basename "\$f")" ]; then
        echo "removing \$f (not part of uuid_ext $version)"
        rm -f "\$f"
    fi
done
# The library as a new file renamed over the old one, never the old one rewritten in place:
# running backends have it mapped, and a rewrite under them can crash the server.
cp "\$here/lib/uuid_ext.so" "\$libdir/.uuid_ext.so.new"
chmod 755 "\$libdir/.uuid_ext.so.new"
mv -f "\$libdir/.uuid_ext.so.new" "\$libdir/uuid_ext.so"
for f in "\$here"/extension/*; do
    cp "\$f" "\$extdir/"
    chmod 644 "\$extdir/\$(basename "\$f")"
done
echo "uuid_ext $version installed into \$libdir and \$extdir; now: CREATE EXTENSION uuid_ext;"
EOF
    chmod 755 "$tree/install.sh"
    tar -C "$ROOT/target/package" --owner=0 --group=0 -czf "$dist/$name.tar.gz" "$name"
    echo "PostgreSQL $v: $dist/postgresql-$v-uuid-ext_${version}_amd64.deb, $dist/$name.tar.gz"
    # Which run built them (scripts/test.sh's UUID_EXT_RUN_ID): 19's are installed in the chroot.
    echo "${UUID_EXT_RUN_ID:-}" >"$dist/run-pg$v"

    # An extension image's root (PostgreSQL 18's extension_control_path): docs/KUBERNETES.md.
    [ "$v" -ge 18 ] || continue
    name=uuid_ext-$version-pg$v-image
    tree=$ROOT/target/package/$name
    rm -rf "$tree"
    install -D -m 755 "$lib" "$tree/lib/uuid_ext.so"
    install -d "$tree/share/extension"
    install -m 644 "$ext"/uuid_ext* "$tree/share/extension/"
    install -m 644 sql/uuid_ext--?.?.?.sql "$tree/share/extension/"
    install -D -m 644 -t "$tree/licenses" LICENSE-MIT LICENSE-APACHE
    cat >"$tree/Containerfile" <<EOF
# uuid_ext $version for PostgreSQL $v, as an extension image (CloudNativePG image volumes;
# docs/KUBERNETES.md). From this directory:
#   podman build -t REGISTRY/uuid_ext:$version-pg$v -f Containerfile .    (or docker build)
# The image holds files only; the server mounts it and finds them through
# extension_control_path (share/) and dynamic_library_path (lib/).
FROM scratch
COPY lib/ /lib/
COPY share/ /share/
COPY licenses/ /licenses/
LABEL org.opencontainers.image.title="uuid_ext" \\
      org.opencontainers.image.version="$version" \\
      org.opencontainers.image.description="RFC 9562 UUIDs for PostgreSQL $v (linux/amd64)" \\
      org.opencontainers.image.licenses="MIT OR Apache-2.0"
EOF
    tar -C "$ROOT/target/package" --owner=0 --group=0 -czf "$dist/$name.tar.gz" "$name"
    echo "PostgreSQL $v: $dist/$name.tar.gz (extension image root and its Containerfile)"
done

# PGXN: META.json (spec 1.0.0) and the source distribution it describes.
cat >"$dist/META.json" <<EOF
{
   "name": "uuid_ext",
   "abstract": "RFC 9562 UUIDs (versions 1-8, Nil, Max) for PostgreSQL, built on pgrx",
   "description": "Generates and inspects UUIDs as RFC 9562 defines them: monotonic UUIDv7 for primary keys, uuid-ossp's and pg_uuidv7's functions, PostgreSQL 18's uuidv7() and uuid_extract_timestamp() on every major, and a btree operator class ordering v1/v6/v7 by their time.",
   "version": "$version",
   "maintainer": "uuid_ext developers",
   "license": { "mit": "https://opensource.org/licenses/MIT", "apache_2_0": "https://www.apache.org/licenses/LICENSE-2.0" },
   "provides": {
      "uuid_ext": {
         "abstract": "RFC 9562 UUIDs for PostgreSQL",
         "file": "src/lib.rs",
         "docfile": "README.md",
         "version": "$version"
      }
   },
   "prereqs": {
      "runtime": { "requires": { "PostgreSQL": "14.0.0" } }
   },
   "release_status": "stable",
   "tags": [ "uuid", "uuidv7", "rfc9562", "uuid-ossp", "pg_uuidv7", "primary key" ],
   "generated_by": "scripts/package.sh",
   "meta-spec": { "version": "1.0.0", "url": "https://pgxn.org/meta/spec.txt" }
}
EOF
python3 -m json.tool "$dist/META.json" >/dev/null
git -C "$ROOT" archive --format=zip --prefix="uuid_ext-$version/" --add-file="$dist/META.json" \
    -o "$dist/uuid_ext-$version.zip" HEAD
echo "PGXN: $dist/META.json, $dist/uuid_ext-$version.zip"
