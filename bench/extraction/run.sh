#!/usr/bin/env bash
# Saturates, extracts and checks the six naive LLaMA-size workloads
# (examples/*.mlir) with --tile-extract's defaults (8 saturation iterations,
# 10 for ffn; top-k 4) and prints one row per workload: wall time of the
# whole run, saturation, extraction, candidates kept / dropped, and the
# best candidate's kernels, loop crossings and loops, and its check error.
# A second table does the same from the linalg workloads with --tile-optimize.
# Usage: bench/extraction/run.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | wall s | saturation s | extraction s | kept / dropped | best: kernels, crossings, loops | best check max rel err | input kernels |"
echo "|---|---|---|---|---|---|---|---|"
for w in vanilla prenorm qknorm keyformer roco ffn; do
  it=8
  [ "$w" = ffn ] && it=10
  start=$(date +%s.%N)
  "$build/bin/tile-opt" "$root/examples/$w.mlir" \
    --tile-extract="iterations=$it report=$tmp/$w.json" -o "$tmp/$w.out.mlir" 2>/dev/null
  end=$(date +%s.%N)
  "$build/bin/tile-opt" "$root/examples/$w.mlir" --tile-program-stats="output=$tmp/$w.stats" -o /dev/null
  python3 - "$tmp/$w.json" "$w" "$start" "$end" "$tmp/$w.stats" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))[0]
wall = float(sys.argv[4]) - float(sys.argv[3])
c = [x for x in d["candidates"] if x.get("check") == "passed"]
best = c[0] if c else None
stats = open(sys.argv[5]).read()
m = re.search(r"top-level loop nests: (\d+)", stats)
print("| %s | %.1f | %.2f | %.2f | %d / %d | %s | %s | %s |" % (
    sys.argv[2], wall, d["saturation"]["seconds"], d["extraction"]["seconds"],
    len(c), d["dropped"],
    "%d, %d, %d" % (best["kernels"], best["crossings"], best["loops"]) if best else "-",
    "%.1e" % best["max_rel_error"] if best else "-",
    m.group(1) if m else "?"))
PY
done

# The same through --tile-optimize from the linalg workloads (convert,
# saturate, extract, check).
echo
echo "| workload (linalg, --tile-optimize) | wall s | saturate+extract s | kernels per round | kept / dropped | best: kernels, crossings, loops | best check max rel err |"
echo "|---|---|---|---|---|---|---|"
for w in vanilla prenorm qknorm keyformer roco ffn; do
  it=8
  [ "$w" = ffn ] && it=10
  start=$(date +%s.%N)
  "$build/bin/tile-opt" "$root/bench/workloads/llama/$w.mlir" \
    --tile-optimize="iterations=$it report=$tmp/$w.opt.json" -o /dev/null 2>/dev/null
  end=$(date +%s.%N)
  python3 - "$tmp/$w.opt.json" "$w" "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))[0]
wall = float(sys.argv[4]) - float(sys.argv[3])
c = [x for x in d["candidates"] if x.get("check") == "passed"]
best = c[0] if c else None
rounds = " -> ".join(str(r["kernels"]) for r in d.get("rounds", []))
print("| %s | %.1f | %.2f | %s | %d / %d | %s | %s |" % (
    sys.argv[2], wall, d.get("seconds", 0), rounds,
    len(c), d["dropped"],
    "%d, %d, %d" % (best["kernels"], best["crossings"], best["loops"]) if best else "-",
    "%.1e" % best["max_rel_error"] if best else "-"))
PY
done
