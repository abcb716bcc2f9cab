#!/usr/bin/env bash
# Renders a ruleset's printable sheet to PDF and PNG with headless Chromium, to look at it.
#
#   tools/render-sheet.sh RULESET [OUT_DIR]
#
# Writes OUT_DIR/NAME.html, NAME.pdf and NAME.png (OUT_DIR defaults to target/sheets).
# Needs `chromium` (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM=/path/to/chrome.
# Not part of CI: the tests check the HTML itself.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 RULESET [OUT_DIR]" >&2
  exit 2
fi
ruleset=$1
out_dir=${2:-target/sheets}
name=$(basename "${ruleset%.yaml}")
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [[ -z "$browser" ]]; then
  echo "error: no chromium found; install it (apt-get install chromium) or set CHROMIUM" >&2
  exit 1
fi

mkdir -p "$out_dir"
html="$out_dir/$name.html"
cargo run --quiet --release -- sheet "$ruleset" --out "$html"
url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-pdf-header-footer)
"$browser" "${flags[@]}" --print-to-pdf="$out_dir/$name.pdf" "$url" 2>/dev/null
"$browser" "${flags[@]}" --window-size=1100,2400 --screenshot="$out_dir/$name.png" "$url" 2>/dev/null
echo "wrote $html, $out_dir/$name.pdf and $out_dir/$name.png"
