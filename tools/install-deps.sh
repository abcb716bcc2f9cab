#!/usr/bin/env bash
# Installs what a fresh machine needs to build, test and run grognard.
# Safe to run more than once. Needs a Rust toolchain from rustup (1.95 or newer).
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust 1.95+ with rustup first (https://rustup.rs)" >&2
  exit 1
fi

# Formatting and lints are part of the test run.
if command -v rustup >/dev/null 2>&1; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi

# The vendored Lua in mlua is compiled from C.
if ! command -v cc >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends build-essential
  else
    echo "a C compiler (cc) is needed: install build-essential (or your system's equivalent)" >&2
    exit 1
  fi
fi
echo "grognard: build dependencies present"
