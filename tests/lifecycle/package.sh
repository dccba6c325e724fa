#!/usr/bin/env bash
# Installing from a package, without Rust: scripts/package.sh builds the .deb for Debian's
# PostgreSQL 15 and the tarball for PostgreSQL 18 (PyPI layout); each is installed from a state
# where uuid_ext is not installed, with no cargo on PATH, exactly as README "Installing from a
# package" says; then CREATE EXTENSION and a few calls. On 19 (in the sid chroot, scripts/sid.sh)
# the .deb and the tarball scripts/test.sh built on the machine (scripts/package.sh 19: a library
# linked against Debian 12's glibc) are installed into Debian's PostgreSQL 19 there, which was
# not built here (the chroot has Rust, for `scripts/sid.sh run scripts/regress.sh 19`'s debug
# build: these installs run with a PATH that has every program of the chroot but Rust's). Under scripts/test.sh every test on 19,
# the pg_regress suite first, runs on that tarball's library (common.sh, install_debug).
# Afterwards the development build (on 19 under scripts/test.sh: the tarball's library) is put
# back, so later tests find the installation as it was.
# UUID_EXT_PACKAGE_PROFILE=dev builds the packages faster (default: release, what ships).
set -uo pipefail
source "$(dirname "$0")/lib.bash"
VERSION=$(grep -m1 '^version' "$ROOT/Cargo.toml" | cut -d'"' -f2)
DIST=$ROOT/target/dist
NO_CARGO_PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
majors=()
for v in 15 18; do wants "$v" && majors+=("$v"); done

# uninstall_files MAJOR: removes every uuid_ext file from that server's directories.
uninstall_files() {
    local pg_config
    pg_config=$(pg_config_for "$1")
    rm -f "$("$pg_config" --pkglibdir)/uuid_ext.so" "$("$pg_config" --sharedir)"/extension/uuid_ext*
}

# works MAJOR NAME: a fresh cluster of MAJOR creates the extension and answers.
works() {
    up "package-$1" "$1"
    check "$2: CREATE EXTENSION and calls" "$VERSION|7|2ed6657d-e927-568b-95e1-2665a8aea6a2" \
        "$(sql "$BIN" "$PORT" postgres -c "CREATE EXTENSION uuid_ext" \
             -c "SELECT extversion, uuid_extract_version(uuid_generate_v7()), uuid_generate_v5(uuid_ns_dns(), 'www.example.com') FROM pg_extension WHERE extname = 'uuid_ext'")"
    stop_cluster "$BIN" "$DATA"
}

if wants 19 && [ -n "${UUID_EXT_IN_SID-}" ]; then
    deb=$DIST/postgresql-19-uuid-ext_${VERSION}_amd64.deb
    tarball=$DIST/uuid_ext-$VERSION-pg19-linux-x86_64.tar.gz
    check "PostgreSQL 19: the .deb and the tarball built on the machine are there" "2" "$(ls "$deb" "$tarball" 2>/dev/null | wc -l)"
    check "PostgreSQL 19: ... built by this run (scripts/test.sh)" "${UUID_EXT_RUN_ID-}" "$(cat "$DIST/run-pg19" 2>/dev/null)"
    check "Debian package for 19: metadata" "postgresql-19-uuid-ext|$VERSION|amd64|postgresql-19, libc6" \
        "$(dpkg-deb -f "$deb" Package Version Architecture Depends | cut -d' ' -f2- | paste -sd'|')"
    # The chroot has sid's Rust (for 19's debug builds) in /usr/bin: the installs run with a PATH
    # of every program there but Rust's, so they are shown to do without it.
    no_rust=$LIFECYCLE/no-rust-bin
    rm -rf "$no_rust" && mkdir -p "$no_rust"
    for program in /usr/sbin/* /usr/bin/*; do
        case ${program##*/} in cargo | cargo-* | rustc | rustdoc | rustfmt | rustup | rust-* | clippy-driver) continue ;; esac
        [ -e "$no_rust/${program##*/}" ] || ln -s "$program" "$no_rust/${program##*/}"
    done
    check_empty "PostgreSQL 19: no Rust on the PATH the installs run with" \
        "$(PATH=$no_rust command -v cargo rustc || true)"
    # (A package an interrupted earlier run left installed is purged first.)
    dpkg --purge postgresql-19-uuid-ext >/dev/null 2>&1
    uninstall_files 19
    check_cmd "PostgreSQL 19: apt-get install ./postgresql-19-uuid-ext_${VERSION}_amd64.deb" \
        env PATH="$no_rust" DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb"
    check "PostgreSQL 19: the package owns the library and the SQL" "3" \
        "$(dpkg -L postgresql-19-uuid-ext | grep -cE '/lib/uuid_ext\.so$|/uuid_ext\.control$|/uuid_ext--'"$VERSION"'\.sql$')"
    works 19 "PostgreSQL 19 from the .deb"
    check_cmd "PostgreSQL 19: apt-get remove takes it away" env PATH="$no_rust" apt-get remove -y -q postgresql-19-uuid-ext
    check "PostgreSQL 19: no file left behind" "0" \
        "$(ls /usr/lib/postgresql/19/lib/uuid_ext.so /usr/share/postgresql/19/extension/uuid_ext* 2>/dev/null | wc -l)"
    unpack=$LIFECYCLE/package-unpacked-19
    rm -rf "$unpack" && mkdir -p "$unpack"
    tar -xzf "$tarball" -C "$unpack"
    check_cmd "PostgreSQL 19 tarball: ./install.sh /path/to/pg_config" \
        env PATH="$no_rust" sh "$unpack/uuid_ext-$VERSION-pg19-linux-x86_64/install.sh" "$(pg_config_for 19)"
    works 19 "PostgreSQL 19 from the tarball"
    install_debug 19 "$LIFECYCLE/package-reinstall-19.log" || echo "not ok - reinstall the development build into 19"
fi
if [ ${#majors[@]} -eq 0 ]; then
    [ -n "${UUID_EXT_IN_SID-}" ] || echo "ok - packages: neither 15 nor 18 in this run, nothing to do"
    exit 0
fi

if ! bash "$ROOT/scripts/package.sh" "${majors[@]}" >"$LIFECYCLE/package-build.log" 2>&1; then
    echo "not ok - scripts/package.sh ${majors[*]}"; tail -20 "$LIFECYCLE/package-build.log"; exit 0
fi
echo "ok - scripts/package.sh ${majors[*]}"
check "META.json is valid PGXN metadata for this version" "$VERSION|$VERSION|1.0.0" \
    "$(python3 -c "import json; m = json.load(open('$DIST/META.json')); print(m['version'], m['provides']['uuid_ext']['version'], m['meta-spec']['version'], sep='|')")"
check "the PGXN source distribution carries META.json" "1" \
    "$(python3 -c "import zipfile; print(sum(n == 'uuid_ext-$VERSION/META.json' for n in zipfile.ZipFile('$DIST/uuid_ext-$VERSION.zip').namelist()))")"
check "the PGXN source distribution carries both licence files" "2" \
    "$(python3 -c "import zipfile; print(sum(n in ('uuid_ext-$VERSION/LICENSE-MIT', 'uuid_ext-$VERSION/LICENSE-APACHE') for n in zipfile.ZipFile('$DIST/uuid_ext-$VERSION.zip').namelist()))")"
check_empty "no cargo on the PATH the installs run with" "$(PATH=$NO_CARGO_PATH command -v cargo || true)"

if wants 15; then
    deb=$DIST/postgresql-15-uuid-ext_${VERSION}_amd64.deb
    check "Debian package metadata" "postgresql-15-uuid-ext|$VERSION|amd64|postgresql-15, libc6" \
        "$(dpkg-deb -f "$deb" Package Version Architecture Depends | cut -d' ' -f2- | paste -sd'|')"
    check "Debian package: copyright file and both licence texts" "3" \
        "$(dpkg-deb -c "$deb" | grep -cE '/usr/share/doc/postgresql-15-uuid-ext/(copyright|LICENSE-MIT|LICENSE-APACHE)$')"
    check "Debian package: the SQL edition's files (script, pg_tle script, control file)" "3" \
        "$(dpkg-deb -c "$deb" | grep -cE '/usr/share/doc/postgresql-15-uuid-ext/sql-edition/(uuid_ext_sql\.sql|pg_tle_install\.sql|uuid_ext_sql\.control)$')"
    check "Debian package: copyright file names the licence" "1" \
        "$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/postgresql-15-uuid-ext/copyright | grep -c '^License: MIT or Apache-2.0$')"
    uninstall_files 15
    up package-15-before 15
    check "PostgreSQL 15: uuid_ext is not installed before the package" "1" \
        "$(sql "$BIN" "$PORT" postgres -c "CREATE EXTENSION uuid_ext" 2>&1 | grep -c 'extension "uuid_ext" is not available')"
    stop_cluster "$BIN" "$DATA"
    # README, "Installing from a package": the command a DBA runs.
    check_cmd "PostgreSQL 15: apt-get install ./postgresql-15-uuid-ext_${VERSION}_amd64.deb" \
        env PATH=$NO_CARGO_PATH DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb"
    check "PostgreSQL 15: the package owns the library and the SQL" "3" \
        "$(dpkg -L postgresql-15-uuid-ext | grep -cE '/lib/uuid_ext\.so$|/uuid_ext\.control$|/uuid_ext--'"$VERSION"'\.sql$')"
    works 15 "PostgreSQL 15 from the .deb"
    check_cmd "PostgreSQL 15: apt-get remove takes it away" env PATH=$NO_CARGO_PATH apt-get remove -y -q postgresql-15-uuid-ext
    check "PostgreSQL 15: no file left behind" "0" \
        "$(ls /usr/lib/postgresql/15/lib/uuid_ext.so /usr/share/postgresql/15/extension/uuid_ext* 2>/dev/null | wc -l)"
fi

if wants 18; then
    tarball=$DIST/uuid_ext-$VERSION-pg18-linux-x86_64.tar.gz
    check "PostgreSQL 18 tarball: both licence files" "2" \
        "$(tar -tzf "$tarball" | grep -cE '^uuid_ext-[^/]+/LICENSE-(MIT|APACHE)$')"
    check "PostgreSQL 18 tarball: the SQL edition's files, as in the repository" "$(counted "$(ls "$ROOT"/sql-edition/*.sql "$ROOT"/sql-edition/*.control | wc -l)")" \
        "$(for f in $(cd "$ROOT/sql-edition" && ls *.sql *.control); do
               tar -xzOf "$tarball" "uuid_ext-$VERSION-pg18-linux-x86_64/sql-edition/$f" | cmp -s - "$ROOT/sql-edition/$f" && echo same
           done | grep -c same)"
    uninstall_files 18
    unpack=$LIFECYCLE/package-unpacked
    rm -rf "$unpack" && mkdir -p "$unpack"
    tar -xzf "$tarball" -C "$unpack"
    check "PostgreSQL 18 tarball: install.sh refuses another major" "1" \
        "$(env PATH=$NO_CARGO_PATH sh "$unpack"/uuid_ext-*/install.sh "$(pg_config_for 15)" 2>&1 | grep -c 'is for PostgreSQL 18')"
    # An older release's install script left behind (docs/SECURITY.md, "Old versions' SQL").
    ext18=$("$(pg_config_for 18)" --sharedir)/extension
    install -m 644 "$ROOT/tests/lifecycle/fixtures/released/uuid_ext--0.3.0.sql" "$ext18/"
    install -m 644 "$ROOT/tests/lifecycle/fixtures/released/uuid_ext--0.3.0.sql" "$ext18/uuid_ext--0.0.1.sql"
    # README, "Installing from a package": the commands a DBA runs.
    check_cmd "PostgreSQL 18 tarball: ./install.sh /path/to/pg_config" \
        env PATH=$NO_CARGO_PATH sh "$unpack/uuid_ext-$VERSION-pg18-linux-x86_64/install.sh" "$(pg_config_for 18)"
    check "PostgreSQL 18 tarball: install.sh replaced 0.3.0's install script by one that refuses, removed a file it does not ship, kept its own" \
        "1|0|1" "$(grep -c "RAISE EXCEPTION 'uuid_ext 0.3.0 can no longer be installed'" "$ext18"/uuid_ext--0.3.0.sql)|$(ls "$ext18"/uuid_ext--0.0.1.sql 2>/dev/null | wc -l)|$(ls "$ext18/uuid_ext--$VERSION.sql" | wc -l)"
    works 18 "PostgreSQL 18 from the tarball"
    # Again over itself, as an upgrade under a running server does: a new file renamed into place
    # (another inode), never the loaded one rewritten (backends that map it could crash).
    lib18=$("$(pg_config_for 18)" --pkglibdir)/uuid_ext.so
    before=$(stat -c %i "$lib18" 2>/dev/null)
    env PATH=$NO_CARGO_PATH sh "$unpack/uuid_ext-$VERSION-pg18-linux-x86_64/install.sh" "$(pg_config_for 18)" >/dev/null 2>&1
    check "PostgreSQL 18 tarball: install.sh over an installed library renames a new file into place (another inode)" "yes" \
        "$([ -n "$before" ] && [ "$(stat -c %i "$lib18" 2>/dev/null)" != "$before" ] && echo yes || echo no)"
fi

# Put the development build back.
for v in "${majors[@]}"; do
    install_debug "$v" "$LIFECYCLE/package-reinstall-$v.log" || echo "not ok - reinstall the development build into $v"
done
