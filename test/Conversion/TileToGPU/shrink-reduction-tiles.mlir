// A kernel that stores one tile per block (its loops folded away) is not a
// reason to shrink sizes other kernels share, but a kernel reducing rows
// may shrink sizes of its own until it has `min_blocks` blocks. Here the
// row max's one tile of 32 x 1024 (tile_i is shared with the -inf
// initialization, tile_j is its own) halves tile_j, which makes the
// reduction a loop again, and then the row tile: one row per block, 32
// blocks, where it was one block. (Attention's max over 1024 keys, 32 rows
// in one block: 26 us on the H200, 5.5 us on 32 blocks;
// bench/results/h200-2026-11-28-gemv.md.) An elementwise tile keeps its
// sizes: splitting it only makes smaller blocks.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 1024, min_blocks = 64, element_loops = false}" --canonicalize --cse | FileCheck %s
// RUN: tile-run %s --entry row_max --device emulate --gpu-config="max_tile_size = 1024, min_blocks = 64, element_loops = false" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// CHECK-LABEL: func.func @row_max
// CHECK: gpu.launch_func @row_max_kernels::@row_max_k1 blocks in (%c32, %c1, %c1)
tile.program @row_max(%X: !tile.tensor<32x1024xf32, input>,
                      %M: !tile.tensor<32xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %si = tile.size "tile_i"
  %sj = tile.size "tile_j"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %ninf = tile.constant -inf : !tile.tile<[tile_i], f32>
  %init = tile.store %ninf, %M[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<32xf32, output>
  %linit = tile.loop %i = 0 to 32 step %si body %init
  %x = tile.load %X[%ti, %tj] : !tile.tensor<32x1024xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rmax %x, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %m = tile.load %M[%ti] : !tile.tensor<32xf32, output> -> !tile.tile<[tile_i], f32>
  %mx = tile.max %m, %r : !tile.tile<[tile_i], f32>
  %st = tile.store %mx, %M[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<32xf32, output>
  %lj = tile.loop %j = 0 to 1024 step %sj body %st
  %li = tile.loop %i = 0 to 32 step %si body %lj
  %seq = tile.seq %linit, %li
  tile.yield %seq
}

// -----

// CHECK-LABEL: func.func @scale
// CHECK: gpu.launch_func @scale_kernels::@scale_k0 blocks in (%c1, %c1, %c1)
tile.program @scale(%X: !tile.tensor<32x1024xf32, input>,
                    %Y: !tile.tensor<32x1024xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %si = tile.size "tile_i"
  %sj = tile.size "tile_j"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %x = tile.load %X[%ti, %tj] : !tile.tensor<32x1024xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %y = tile.add %x, %x : !tile.tile<[tile_i, tile_j], f32>
  %st = tile.store %y, %Y[%ti, %tj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<32x1024xf32, output>
  %lj = tile.loop %j = 0 to 1024 step %sj body %st
  %li = tile.loop %i = 0 to 32 step %si body %lj
  tile.yield %li
}
