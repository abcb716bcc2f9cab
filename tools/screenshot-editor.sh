#!/usr/bin/env bash
# Starts the editor under a virtual X display (Xvfb) and saves a screenshot as PNG.
#
#   bash tools/screenshot-editor.sh [OUT.png] [grognard edit arguments...]
#
# Default: docs/editor.png of the square drill scenario on the Play tab. Needs xvfb,
# x11-apps (xwd) and netpbm; on Debian/Ubuntu as root it installs them. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-docs/editor.png}"
shift || true
if [ "$#" -eq 0 ]; then
  set -- rulesets/drill-square.yaml examples/drill-square.yaml
fi

need=()
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
command -v xwd >/dev/null 2>&1 || need+=(x11-apps)
command -v pnmtopng >/dev/null 2>&1 || need+=(netpbm)
if [ "${#need[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    # The window itself needs X keyboard support and a GL/Vulkan driver (Mesa llvmpipe).
    apt-get install -y -qq --no-install-recommends "${need[@]}" \
      libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxi6 libxrandr2 \
      libgl1 libegl1 mesa-vulkan-drivers >/dev/null
  else
    echo "needs: ${need[*]} (install them, then run again)" >&2
    exit 1
  fi
fi

cargo build --quiet --bin grognard
bin="$PWD/target/debug/grognard"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The editor opens on the Play tab when it remembers it; start it with fresh settings.
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"
xvfb-run --auto-servernum --server-args="-screen 0 1440x900x24" bash -c '
  set -euo pipefail
  "$0" edit "${@:2}" >"$1/editor.log" 2>&1 &
  pid=$!
  # Software rendering is slow to start; wait for the first frames.
  sleep "${SCREENSHOT_WAIT:-12}"
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "the editor exited early:" >&2
    cat "$1/editor.log" >&2
    exit 1
  fi
  xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng >"$1/shot.png"
  kill "$pid"
' "$bin" "$tmp" "$@"
mv "$tmp/shot.png" "$out"
echo "screenshot: $out"
