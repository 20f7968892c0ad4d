#!/usr/bin/env bash
# Saturates the six naive LLaMA-size workloads (examples/*.mlir) with
# Trinity's settings (8 iterations, 10 for ffn) and prints one table row per
# workload: wall time of tile-opt, saturation time, e-classes, e-nodes,
# log10 of programs represented, stop reason, and the legality queries
# (answered independent / conflict / unknown, Z3 calls and seconds).
# Usage: bench/saturation/run.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | iterations | tile-opt wall s | saturation s | e-classes | e-nodes | log10 programs | stop | legality queries (indep / conflict / unknown) | Z3 calls | Z3 s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for w in vanilla prenorm qknorm keyformer roco ffn; do
  it=8
  [ "$w" = ffn ] && it=10
  start=$(date +%s.%N)
  "$build/bin/tile-opt" "$root/examples/$w.mlir" \
    --tile-saturate="iterations=$it report=$tmp/$w.json" -o /dev/null
  end=$(date +%s.%N)
  python3 - "$tmp/$w.json" "$w" "$it" "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall = float(sys.argv[5]) - float(sys.argv[4])
l = d["legality"]
print("| %s | %s (ran %d) | %.2f | %.2f | %d | %d | %.1f | %s | %d (%d / %d / %d) | %d | %.2f |" % (
    sys.argv[2], sys.argv[3], d["iterations"], wall, d["seconds"],
    d["eclasses"], d["enodes"], d["log10_programs"], d["stop_reason"],
    l["queries"], l["independent"], l["conflicts"], l["unknown"],
    l["solver_calls"], l["solver_seconds"]))
PY
done
