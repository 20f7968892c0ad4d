#!/usr/bin/env bash
# Compiles GPU artifacts (docs/Runtime.md) for the benchmark workloads on a
# machine with the tools built (no GPU needed): for each workload, the naive
# program (--convert-linalg-to-tile) and the optimized one (--tile-optimize,
# best candidate), lowered with the NVVM pipeline, inputs described by their
# seed, expected outputs computed by the linalg reference on the CPU.
# Run the artifacts on a GPU machine with bench/gpu/run-artifacts.sh.
#
# Usage: bench/gpu/make-artifacts.sh OUT_DIR [CONFIG...]   (default: llama falcon)
# Environment: BUILD_DIR (default build), CHIP (default sm_90),
# MAX_TILE (largest default tile size, default 32), SCALED=1 for the
# scaled-down workloads of test/Workloads instead.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BUILD_DIR:-$ROOT/build}/bin
OUT=${1:?usage: make-artifacts.sh OUT_DIR [CONFIG...]}
shift || true
CHIP=${CHIP:-sm_90}
MAX_TILE=${MAX_TILE:-32}
CONFIGS=("$@")
[ ${#CONFIGS[@]} -eq 0 ] && CONFIGS=(llama falcon)
[ "${SCALED:-0}" = 1 ] && CONFIGS=(scaled)
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cfg in "${CONFIGS[@]}"; do
  dir=$ROOT/bench/workloads/$cfg
  [ "$cfg" = scaled ] && dir=$ROOT/test/Workloads
  for w in vanilla prenorm qknorm keyformer roco ffn; do
    src=$dir/$w.mlir
    "$BIN/tile-opt" "$src" --convert-linalg-to-tile -o "$tmp/$cfg-$w-naive.mlir"
    "$BIN/tile-opt" "$src" --tile-optimize=top-k=1 -o "$tmp/$cfg-$w-opt.mlir" 2>/dev/null
    for variant in naive opt; do
      start=$(date +%s.%N)
      "$BIN/tile-run" "$tmp/$cfg-$w-$variant.mlir" --reference "$src" \
        --device cuda --chip "$CHIP" --max-tile-size "$MAX_TILE" \
        --compile-only --artifact "$OUT/$cfg-$w-$variant" | sed "s|^|$cfg $w $variant: |"
      end=$(date +%s.%N)
      printf '%s %s %s: %.1f s\n' "$cfg" "$w" "$variant" "$(echo "$end - $start" | bc)"
    done
  done
done
