#!/usr/bin/env bash
# The GNU parallel recipe of docs/scale-out.md, run on this machine: a simulation split
# into shards played side by side, the parts merged, and the merged summary compared byte
# for byte with the unsharded run's.
#
#   tools/sim-shards.sh [BINARY] [SCENARIO] [RUNS] [SHARDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/grognard}
scenario=${2:-examples/hex-command.yaml}
runs=${3:-12}
shards=${4:-4}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One job per shard; on a cluster `-S host1,host2 --return` runs them over ssh instead.
parallel --will-cite --halt now,fail=1 -j 2 \
  "$bin" sim "$scenario" --policy random --runs "$runs" --threads 1 \
  --shard {}/"$shards" --out "$dir"/part-{}.json --json ::: $(seq "$shards")
"$bin" sim-merge "$dir"/part-*.json >"$dir/merged.txt"
"$bin" sim "$scenario" --policy random --runs "$runs" >"$dir/whole.txt"
cmp "$dir/whole.txt" "$dir/merged.txt"
echo "sim-shards: $shards shards of $scenario ($runs games) merge into the whole run's summary"
