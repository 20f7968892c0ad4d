#!/usr/bin/env bash
# Artifacts of Trinity Figure 4(d)'s FlashAttention loop at the llama decode
# shapes (figure4d-llama.mlir: 32 heads, 16 rows, d = 128, P = 1024; the
# attention core alone, no projections), lowered with warp loops at three
# tile widths and two splits, and with the block-level code (warp-loops
# off) for comparison. Run on the GPU machine with run.sh.
#   bench/gpu/flash/make-artifacts.sh OUT_DIR [BUILD_DIR]
set -euo pipefail
out=${1:?usage: make-artifacts.sh OUT_DIR [BUILD_DIR]}
bin=${2:-build}/bin
here=$(dirname "$0")
prog=$here/figure4d-llama.mlir
# Q small enough that exp(Q K^T) stays in f16's range without the max
# subtraction the program (as Trinity's) leaves out.
common=(--device cuda --chip sm_90 --compile-only --mma --init "Q=normal(0,0.05)"
        --min-blocks 2048 --fission-blocks 264)
for tp in 16 32 64; do
  for s in 8 16; do
    "$bin/tile-run" "$prog" "${common[@]}" --tile-sizes tile_p=$tp --split-k $s \
      --artifact "$out/warp-p$tp-s$s"
  done
done
"$bin/tile-run" "$prog" "${common[@]}" --warp-loops=false --tile-sizes tile_p=64 \
  --split-k 8 --artifact "$out/block-p64-s8"
"$bin/tile-run" "$prog" "${common[@]}" --warp-loops=false --tile-sizes tile_p=16 \
  --split-k 64 --artifact "$out/block-p16-s64"
