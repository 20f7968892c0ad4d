// RUN: tile-opt %s --tile-lower-to-gpu="max-tile-size=32 min-blocks=8" --canonicalize | FileCheck %s --check-prefix=SHRINK
// RUN: tile-opt %s --tile-lower-to-gpu="max-tile-size=32 min-blocks=8 tile-sizes=tile_i=32" --canonicalize | FileCheck %s --check-prefix=KEEP
// RUN: tile-opt %s --tile-lower-to-gpu="max-tile-size=32 min-blocks=0" --canonicalize | FileCheck %s --check-prefix=KEEP

// Sizes bound by max-tile-size shrink until the kernel has min-blocks blocks
// (64 / 32 = 2 blocks, then 64 / 8 = 8); explicit sizes never change.
// SHRINK-LABEL: func.func @shrink
// SHRINK-SAME: tile.tile_sizes = {tile_i = 8 : i64}
// SHRINK: blocks in (%c8,
// KEEP-LABEL: func.func @shrink
// KEEP-SAME: tile.tile_sizes = {tile_i = 32 : i64}
// KEEP: blocks in (%c2,
tile.program @shrink(%A: !tile.tensor<64xf32, input>,
                     %B: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %s = tile.store %a, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}
