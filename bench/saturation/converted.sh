#!/usr/bin/env bash
# Saturates the six LLaMA-size workloads as users write them
# (bench/workloads/llama/*.mlir, linalg), converted with
# --convert-linalg-to-tile, with the default --tile-saturate options, and
# prints one table row per workload (issue 46's measure: < 5 s each on the
# 2-core development machine with nothing else running). Columns as in
# run.sh, plus peak memory (max RSS of tile-opt).
# Usage: bench/saturation/converted.sh [BUILD_DIR] [REPEATS]
# With REPEATS > 1 each workload runs that many times and the row shows the
# median wall and saturation times.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
repeats=${2:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | iterations | tile-opt wall s | saturation s | e-classes | e-nodes | log10 programs | stop | legality queries (indep / conflict / unknown) | Z3 calls | Z3 s | max RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for w in vanilla prenorm qknorm keyformer roco ffn; do
  "$build/bin/tile-opt" "$root/bench/workloads/llama/$w.mlir" \
    --convert-linalg-to-tile -o "$tmp/$w.tile.mlir"
  for r in $(seq 1 "$repeats"); do
    /usr/bin/time -f "%e %M" -o "$tmp/$w.time.$r" \
      "$build/bin/tile-opt" "$tmp/$w.tile.mlir" \
      --tile-saturate="report=$tmp/$w.$r.json" -o /dev/null
  done
  /usr/bin/python3 - "$tmp" "$w" "$repeats" <<'PY'
import json, statistics, sys
tmp, w, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = []
for r in range(1, n + 1):
    d = json.load(open("%s/%s.%d.json" % (tmp, w, r)))
    wall, rss = open("%s/%s.time.%d" % (tmp, w, r)).read().split()
    runs.append((float(wall), d, int(rss)))
wall = statistics.median(r[0] for r in runs)
sat = statistics.median(r[1]["seconds"] for r in runs)
d = runs[0][1]
l = d["legality"]
print("| %s | %d | %.2f | %.2f | %d | %d | %.1f | %s | %d (%d / %d / %d) | %d | %.2f | %d |" % (
    w, d["iterations"], wall, sat, d["eclasses"], d["enodes"],
    d["log10_programs"], d["stop_reason"], l["queries"], l["independent"],
    l["conflicts"], l["unknown"], l["solver_calls"], l["solver_seconds"],
    max(r[2] for r in runs) // 1024))
PY
done
