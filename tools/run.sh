#!/usr/bin/env bash
# Runs grognard on a fresh machine: installs what is missing, builds, then opens the editor
# on the square-grid drill board when a display is present, or plays the three-turn demo in
# the terminal when there is none. Extra arguments go to `grognard` instead
# (`bash tools/run.sh play examples/hex-command.yaml --orders examples/hex-command.orders.yaml`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh >/dev/null
export PATH="$HOME/.cargo/bin:$PATH"
if [ $# -gt 0 ]; then
  exec cargo run --quiet --release -- "$@"
elif [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec cargo run --quiet --release -- edit rulesets/drill-square.yaml examples/drill-square.yaml
else
  echo "(no display: playing the demo in the terminal; on a desktop this opens the editor)"
  exec cargo run --quiet --release -- play examples/drill-square.yaml --orders examples/drill-square.orders.yaml
fi
