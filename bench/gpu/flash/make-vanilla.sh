#!/usr/bin/env bash
# Artifacts of the fused llama vanilla attention (Trinity Figure 4(f)) with
# warp loops and tf32 P.V, against the unfused program the benchmark times:
#   core-4f-*   the attention core of Figure 4(f) (figure4f-llama.mlir): P.V
#               multiplies the unnormalized f32 logits by cast(V); Q drawn
#               as the workload's projections are, N(0, 1.28^2), so that
#               exp(Q K^T) reaches about 1e9 (beyond f16's range)
#   core-4d-*   Figure 4(d) (f16 P), Q = N(0, 0.05^2) to keep exp in range
#   vanilla-4f-*  the whole vanilla goal examples/goals/vanilla-fig4f.mlir
#               (one head loop; fission_blocks gives its parts own grids),
#               checked against the linalg workload with its data
#   vanilla-4d-*  the goal examples/goals/vanilla-fig4d.mlir: the naive
#               projections, then the fused attention loop
#   vanilla-naive  the unfused program with the H100 tuning cache's entry
#               (the benchmark's best, bench/results/...-vecatomics.md)
# "-block" variants lower without tf32: the f32 product keeps the loop on
# the block-level path. Run on the GPU machine with run.sh.
#   bench/gpu/flash/make-vanilla.sh OUT_DIR [BUILD_DIR]
set -euo pipefail
out=${1:?usage: make-vanilla.sh OUT_DIR [BUILD_DIR]}
bin=${2:-build}/bin
here=$(dirname "$0")
root=$here/../../..
# The #tile.gpu_config fields every artifact shares; the rest are the
# strategy's (docs/GPULowering.md, "Choosing a configuration"; the core-*
# artifacts of bench/results/h100-80gb-hbm3-2026-11-25-tf32.md predate it:
# add "max_tile_size = 32, k_slices = 8, pipeline_loads = 0", the knobs'
# defaults then, to make those).
common=(--device cuda --chip sm_90 --compile-only)
config="mma = true, min_blocks = 2048, fission_blocks = 264"
core=("${common[@]}" --init "Q=normal(0,1.28)")
# tile_p, split_k: blocks of 1024 / tile_p / split_k warps, whose sums are
# added up in shared memory when there are several.
for v in 16:8 16:16 32:4 32:8 32:16 64:4 64:8 64:16; do
  tp=${v%:*} s=${v#*:}
  "$bin/tile-run" "$here/figure4f-llama.mlir" "${core[@]}" \
    --gpu-config="$config, tf32 = true, split_k = $s" \
    --tile-sizes tile_p=$tp --artifact "$out/core-4f-p$tp-s$s"
done
"$bin/tile-run" "$here/figure4f-llama.mlir" "${core[@]}" \
  --gpu-config="$config, split_k = 8" --tile-sizes tile_p=64 \
  --artifact "$out/core-4f-block-p64-s8"
"$bin/tile-run" "$here/figure4d-llama.mlir" "${common[@]}" \
  --init "Q=normal(0,0.05)" --gpu-config="$config, split_k = 16" \
  --tile-sizes tile_p=64 --artifact "$out/core-4d-p64-s16"

ref=$root/bench/workloads/llama/vanilla.mlir
goal=$root/examples/goals/vanilla-fig4f.mlir
whole=(--reference "$ref" "${common[@]}" --max-tile-size 64)
wconfig="$config, k_slices = 2, pipeline_loads = 2"
for v in 16:32:8 32:32:8 64:32:8 32:32:16 32:64:8; do
  tp=${v%%:*} rest=${v#*:}
  tk=${rest%:*} s=${rest#*:}
  "$bin/tile-run" "$goal" "${whole[@]}" --gpu-config="$wconfig, tf32 = true, split_k = $s" \
    --tile-sizes tile_p=$tp,tile_k=$tk --artifact "$out/vanilla-4f-p$tp-k$tk-s$s"
done
"$bin/tile-run" "$goal" "${whole[@]}" --gpu-config="$wconfig, split_k = 8" \
  --tile-sizes tile_p=64,tile_k=32 --artifact "$out/vanilla-4f-block-p64-k32-s8"
# Figure 4(d): the naive projections (their tiles as the tuning cache's
# naive entry: 64 columns, k by 32), then the fused attention loop.
goal4d=$root/examples/goals/vanilla-fig4d.mlir
for v in 16:8 64:8; do
  tp=${v%:*} s=${v#*:}
  "$bin/tile-run" "$goal4d" "${whole[@]}" \
    --gpu-config="$wconfig, tf32 = true, thread_elements = 16, split_k = $s" \
    --tile-sizes tile_p=$tp,tile_k=32,tile_n=64 --artifact "$out/vanilla-4d-p$tp-s$s"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/tile-opt" "$ref" --convert-linalg-to-tile -o "$tmp/naive.mlir"
"$bin/tile-run" "$tmp/naive.mlir" --reference "$ref" --device cuda \
  --chip sm_90 --compile-only --tuning "$root/bench/tuning/nvidia-h100.json" \
  --artifact "$out/vanilla-naive"
# The best candidate --tile-optimize extracts from the linalg workload (the
# FlashAttention loop inside the loop over the heads, P dropped; tile_i8 the
# KV length, tile_i4 the head dimension of the scores, tile_r0 the
# projections' reduction), lowered as the Figure 4(f) goal is. With the
# whole head dimension in one tile (tile_i4=128) the scores' accumulation is
# a plain store and the KV loop a warp loop; tile_i4=32 keeps the
# block-level path, for comparison.
"$bin/tile-opt" "$ref" --tile-optimize=top-k=1 -o "$tmp/opt.mlir" 2>/dev/null
for v in 16:128:8 32:128:8 64:128:8 16:128:16 64:128:4 32:32:8; do
  tp=${v%%:*} rest=${v#*:}
  td=${rest%:*} s=${rest#*:}
  "$bin/tile-run" "$tmp/opt.mlir" "${whole[@]}" --gpu-config="$wconfig, tf32 = true, split_k = $s" \
    --tile-sizes tile_i8=$tp,tile_i4=$td,tile_r0=32 \
    --artifact "$out/vanilla-opt-p$tp-d$td-s$s"
done
