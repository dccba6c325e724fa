#!/usr/bin/env bash
# Mutation testing of the core crate (crates/uuid_ext_core) with cargo-mutants: each mutant is a
# small change to the code (a function returning a default, an operator swapped, a condition
# negated); a test must fail for it ("caught"). "missed" mutants are either killed by a new test
# or listed in .cargo/mutants.toml with why they cannot matter (equivalent mutants). Not in CI:
# about 640 mutants, 20 minutes on 2 cores (DEVELOPING.md, "Mutation testing", has the last run).
#
# Usage: scripts/mutants.sh [cargo-mutants options]   (e.g. -f crates/uuid_ext_core/src/v7.rs for one file)
# Output: target/mutants/mutants.out/ (caught.txt, missed.txt, timeout.txt, unviable.txt).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ROOT"
version=27.1.0
if ! cargo mutants --version 2>/dev/null | grep -qx "cargo-mutants $version"; then
    say "installing cargo-mutants $version (crates.io)"
    cargo install --locked cargo-mutants --version "$version"
fi
# Each mutant is built and tested in a copy of the tree (the working tree is never changed);
# the tests take under a second unmutated, so a mutant that runs them for 10 s has hung them.
exec cargo mutants --package uuid_ext_core --output target/mutants --timeout 10 --profile mutants \
    --jobs "${UUID_EXT_MUTANTS_JOBS:-2}" "$@"
