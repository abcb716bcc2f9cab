#!/usr/bin/env bash
# The test run (what CI runs on a clean clone): installs what is missing, then formatting,
# the browser client's modules, every test of the workspace (the browser tests included),
# a short fuzz of every example, lints, the API docs, spelling, and licences and sources.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh test
export PATH="$HOME/.cargo/bin:$PATH"
# A clean clone gains nothing from incremental caches; without them the build takes
# about a third less disk (CI shares a small disk).
export CARGO_INCREMENTAL=0
cargo fmt --all -- --check
# The browser client's modules parse (Node checks each as an ES module: web/package.json).
for module in crates/grognard-server/web/js/*.js; do node --check "$module"; done
# The browser tests run here, in headless Chromium: a missing browser fails them.
export GROGNARD_BROWSER_TESTS=1
cargo test --workspace
# Fuzz every bundled example briefly with the binary the tests just built: random legal
# games to their end, every order checked (see `grognard fuzz --help`).
for scenario in examples/*.yaml; do
  case $scenario in *.orders.yaml) continue ;; esac
  target/debug/grognard fuzz "$scenario" --games 2
done
# A sharded simulation with GNU parallel, merged and compared with the whole run.
bash tools/sim-shards.sh target/debug/grognard examples/hex-command.yaml 12 4
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --quiet
typos
# `advisories` needs the advisory database from the network, so it is left out here.
cargo deny --log-level error check licenses bans sources
echo "grognard: all checks passed"
