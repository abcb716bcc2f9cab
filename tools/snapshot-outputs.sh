#!/usr/bin/env bash
# Writes what the `grognard` binary prints and saves for every bundled ruleset and example
# into one folder, so two builds can be compared byte for byte:
#
#   tools/snapshot-outputs.sh BINARY OUT_DIR
#   diff -r OLD_DIR NEW_DIR
#
# Used to prove a refactoring changed no behaviour: plays, saves (full and redacted),
# replays, views for every side and the referee, reach, a short sim, and the designer tools
# (show, validate, schema, chart, diff, sheet), text and `--json`. Paths in the outputs are
# relative to the project, so two checkouts in different folders compare equal.
set -uo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"

# Runs one command, keeping its stdout, stderr and exit code under the name given.
run() {
  local name=$1
  shift
  "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}

for ruleset in rulesets/*.yaml; do
  r=$(basename "$ruleset" .yaml)
  run "show-$r" show "$ruleset"
  run "show-$r-json" show "$ruleset" --json
  run "validate-$r" validate "$ruleset" --json
  run "sheet-$r" sheet "$ruleset" --out "$out/sheet-$r.html"
  # Every chart's exact odds (names from `show --json`).
  for chart in $("$bin" show "$ruleset" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
charts = d.get("charts", [])
for c in charts:
    print(c["name"] if isinstance(c, dict) else c)
' 2>/dev/null); do
    run "chart-$r-$chart" chart "$ruleset" "$chart" --json
  done
done

for a in rulesets/*.yaml; do
  for b in rulesets/*.yaml; do
    if grep -q "^extends: *$(basename "$a")" "$b"; then
      run "diff-$(basename "$a" .yaml)-$(basename "$b" .yaml)" diff "$a" "$b"
      run "diff-$(basename "$a" .yaml)-$(basename "$b" .yaml)-json" diff "$a" "$b" --json
    fi
  done
done

for kind in ruleset scenario orders; do
  run "schema-$kind" schema "$kind"
done

for scenario in examples/*.yaml; do
  case $scenario in *.orders.yaml) continue ;; esac
  e=$(basename "$scenario" .yaml)
  orders=examples/$e.orders.yaml
  run "validate-$e" validate "$scenario" "$orders" --json
  run "play-$e" play "$scenario" --orders "$orders" --save "$out/$e.game.json"
  run "play-$e-json" play "$scenario" --orders "$orders" --json
  run "replay-$e" replay "$out/$e.game.json"
  run "replay-$e-json" replay "$out/$e.game.json" --json
  run "view-$e-referee" view "$scenario" --orders "$orders" --referee --json
  run "view-$e-referee-text" view "$scenario" --orders "$orders" --referee
  # Side names: the keys of the scenario's `sides:` map.
  sides=$(awk '/^sides:/{on=1; next} on && /^  [A-Za-z0-9_-]+:/{sub(/^  /,""); sub(/:.*/,""); print; next} on && /^[^ #]/{on=0}' "$scenario")
  for side in $sides; do
    run "view-$e-$side" view "$scenario" --orders "$orders" --side "$side" --json
    run "view-$e-$side-text" view "$scenario" --orders "$orders" --side "$side"
    run "view-$e-$side-start" view "$scenario" --side "$side" --json
    run "play-$e-$side" play "$scenario" --orders "$orders" --side "$side" --save "$out/$e.$side.game.json"
  done
  # Reach of each piece at the start (ids from the referee view).
  for unit in $("$bin" view "$scenario" --referee --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
pieces = d.get("pieces") or d.get("state", {}).get("pieces") or []
for p in pieces[:6]:
    name = p.get("name") or p.get("id")
    if isinstance(name, str):
        print(name)
' 2>/dev/null); do
    run "reach-$e-$unit" reach "$scenario" --unit "$unit" --json
  done
  run "sim-$e" sim "$scenario" --orders "$orders" --runs 40 --threads 1 --json
  run "sim-$e-text" sim "$scenario" --orders "$orders" --runs 40 --threads 2
done
# Absolute paths of the output folder never differ in content: make them relative.
grep -rl "$out" "$out" 2>/dev/null | xargs -r sed -i "s#$out#OUT#g"
echo "snapshot: $(ls "$out" | wc -l) files in $out"
