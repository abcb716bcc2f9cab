#!/usr/bin/env bash
# Installs what a fresh machine needs, and skips what is already there. Safe to run again.
#
#   tools/install-deps.sh        what building and running grognard needs
#   tools/install-deps.sh test   that, plus the checkers the test run uses (typos, cargo-deny,
#                                chromium and chromedriver for the browser tests, node)
#
# Installs Rust with rustup when cargo is missing (1.95 or newer is needed).
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  # No Rust yet: install the stable toolchain with rustup (https://rustup.rs).
  if command -v curl >/dev/null 2>&1; then
    echo "installing Rust with rustup (once)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "cargo not found and no curl to fetch it: install Rust 1.95+ with rustup (https://rustup.rs)" >&2
    exit 1
  fi
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

if [ "${1:-}" = test ]; then
  # Spelling: the `typos` package on PyPI ships the prebuilt binary.
  if ! command -v typos >/dev/null 2>&1; then
    if command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1; then
      "$(command -v pip3 || command -v pip)" install --quiet typos
      hash -r
    else
      echo "typos is needed for the spelling check: pip install typos (or cargo install typos-cli)" >&2
      exit 1
    fi
  fi
  # GNU parallel: the test run plays a sharded simulation with it (docs/scale-out.md).
  if ! command -v parallel >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      apt-get install -y -qq --no-install-recommends parallel >/dev/null \
        || { apt-get update -qq && apt-get install -y -qq --no-install-recommends parallel >/dev/null; }
    else
      echo "GNU parallel is needed for the sharded simulation check: install it (apt install parallel)" >&2
      exit 1
    fi
  fi
  # The browser client's tests: headless Chromium driven by chromedriver
  # (crates/grognard-server/tests/browser.rs), and Node to check the client's modules.
  missing=()
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  if [ "${#missing[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      echo "the browser tests need ${missing[*]}: install them (apt install chromium chromium-driver nodejs)" >&2
      exit 1
    fi
  fi
  # Licences, banned crates and sources. Built once (a few minutes), then skipped.
  if ! command -v cargo-deny >/dev/null 2>&1; then
    echo "installing cargo-deny (once; a few minutes)"
    cargo install --locked --quiet cargo-deny
  fi
fi
echo "grognard: dependencies present"
