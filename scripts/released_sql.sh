#!/usr/bin/env bash
# Writes the install script each earlier release of uuid_ext generated (`cargo pgrx schema` of
# that release's git commit, for PostgreSQL 15) into tests/lifecycle/fixtures/released/.
# tests/lifecycle/old_versions.sh puts them into a server's extension directory and installs this
# build over them, as installing every release in turn leaves it (each release's update scripts
# are overwritten by this one's; install scripts of other versions stay), and attacks every
# version they reach. pgrx's install scripts do not depend on the major for these
# releases (their only cfg(feature) items are not SQL objects), so one set serves every major.
# Run it once per new release (it builds each old commit: about 2 minutes each); the output is
# committed. Releases up to 0.5.0 are on pgrx 0.18.1 and need cargo-pgrx 0.18.1; from 0.5.1 on,
# pgrx 0.19.3 (scripts/common.sh's cargo-pgrx): name the versions to write only those.
#
# Usage: scripts/released_sql.sh [VERSION...]
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ROOT"

# Each release: its version and the last commit at that version.
releases=("0.1.0 e1555ac" "0.2.0 5f15df1" "0.3.0 255cf05" "0.4.0 9993ecf" "0.4.1 bbb7635" "0.5.0 7824b3f"
          "0.5.1 a24729f")
out=$ROOT/tests/lifecycle/fixtures/released
mkdir -p "$out"
for r in "${releases[@]}"; do
    read -r version commit <<<"$r"
    if (($#)) && [[ " $* " != *" $version "* ]]; then continue; fi
    src=$ROOT/target/released/src-$version
    rm -rf "$src" && mkdir -p "$src"
    git archive "$commit" | tar -x -C "$src"
    say "uuid_ext $version ($commit): cargo pgrx schema"
    (cd "$src" && CARGO_TARGET_DIR=$ROOT/target/released/build cargo pgrx schema --no-default-features \
        --features pg15 --pg-config "$(pg_config_for 15)" --out "$out/uuid_ext--$version.sql" pg15) \
        >"$ROOT/target/released/schema-$version.log" 2>&1 \
        || { tail -30 "$ROOT/target/released/schema-$version.log"; exit 1; }
    rm -rf "$src"
done
ls -l "$out"
