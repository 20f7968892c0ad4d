#!/usr/bin/env bash
# On the GPU machine: checks every artifact under DIR against its expected
# outputs and times it (CUDA graph, median of 200 runs; per kernel).
#   bench/gpu/flash/run.sh DIR [tile-gpu-run]
set -uo pipefail
dir=${1:?usage: run.sh DIR [tile-gpu-run]}
runner=${2:-build/bin/tile-gpu-run}
for d in "$dir"/*/; do
  d=${d%/}
  echo "== $(basename "$d") $("$runner" "$d" 2>&1 | grep -E 'PASS|FAIL' | head -1)"
  "$runner" "$d" --graph --time --quiet --repetitions 200 2>&1 | grep median | head -1
  "$runner" "$d" --per-kernel --time --quiet 2>&1 | grep kernel
done
