#!/usr/bin/env bash
# The test run (what CI runs on a clean clone): installs what is missing, then formatting,
# every test of the workspace, lints, the API docs, spelling, and licences and sources.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh test
export PATH="$HOME/.cargo/bin:$PATH"
cargo fmt --all -- --check
cargo test --workspace
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --quiet
typos
# `advisories` needs the advisory database from the network, so it is left out here.
cargo deny --log-level error check licenses bans sources
echo "grognard: all checks passed"
