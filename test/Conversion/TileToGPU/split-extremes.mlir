// A row max (or min) over long rows with few rows splits its rows' tiles
// across blocks as a sum does (`split_k`): each block takes the max of its
// chunk of tiles, starting from the identity (-inf; +inf for a min), and
// combines it into the result with one `atomic_rmw maxnumf` (`minnumf`) per
// element. The result starts from what the program stored before (-inf
// here; zeros for @row_min's output). Without `split_k` the rows stay whole
// in one block each, and so do rows of fewer than 16 tiles (the SHORT run: 8
// tiles of 512; splitting 4 tiles lost 5-8% on decode attention, the H200).
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 8, min_blocks = 64, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 8, min_blocks = 64, max_tile_size = 0, tile_sizes = {tile_j = 512}}" --canonicalize --cse | FileCheck %s --check-prefix=SHORT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, min_blocks = 64, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// The kernels compute what the program computes (host emulation against the
// interpreter, seeded normal inputs: both signs):
// RUN: tile-run %s --entry row_max --device emulate --gpu-config="split_k = 8, min_blocks = 64" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry row_min --device emulate --gpu-config="split_k = 8, min_blocks = 64" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry row_max --device emulate --gpu-config="split_k = 3, min_blocks = 64, tile_sizes = {tile_j = 128}" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry col_max --device emulate --gpu-config="split_k = 8, min_blocks = 64, element_loops = true, max_tile_size = 0" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// CHECK-LABEL: func.func @row_max
// CHECK: @row_max_k1 blocks in (%c64, %c1, %c1)
// CHECK: gpu.func @row_max_k1
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maxnumf
// CHECK: memref.atomic_rmw maxnumf
// SHORT-LABEL: func.func @row_max
// SHORT: @row_max_k1 blocks in (%c4, %c1, %c1)
// SHORT-NOT: atomic_rmw
// SHORT-LABEL: func.func @row_min
// OFF-LABEL: func.func @row_max
// OFF: @row_max_k1 blocks in (%c4, %c1, %c1)
// OFF-NOT: atomic_rmw
// OFF: gpu.module
tile.program @row_max(%X: !tile.tensor<4x4096xf32, input>,
                      %M: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_i = 1, tile_j = 256}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %si = tile.size "tile_i"
  %sj = tile.size "tile_j"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %ninf = tile.constant -inf : !tile.tile<[tile_i], f32>
  %init = tile.store %ninf, %M[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<4xf32, output>
  %linit = tile.loop %i = 0 to 4 step %si body %init
  %x = tile.load %X[%ti, %tj] : !tile.tensor<4x4096xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rmax %x, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %m = tile.load %M[%ti] : !tile.tensor<4xf32, output> -> !tile.tile<[tile_i], f32>
  %mx = tile.max %m, %r : !tile.tile<[tile_i], f32>
  %st = tile.store %mx, %M[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<4xf32, output>
  %lj = tile.loop %j = 0 to 4096 step %sj body %st
  %li = tile.loop %i = 0 to 4 step %si body %lj
  %seq = tile.seq %linit, %li
  tile.yield %seq
}

// -----

// CHECK-LABEL: func.func @row_min
// CHECK: gpu.func @row_min_k0
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minnumf
// CHECK: memref.atomic_rmw minnumf
tile.program @row_min(%X: !tile.tensor<4x4096xf32, input>,
                      %M: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_i = 1, tile_j = 256}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %si = tile.size "tile_i"
  %sj = tile.size "tile_j"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %x = tile.load %X[%ti, %tj] : !tile.tensor<4x4096xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rmin %x, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %m = tile.load %M[%ti] : !tile.tensor<4xf32, output> -> !tile.tile<[tile_i], f32>
  %mn = tile.min %m, %r : !tile.tile<[tile_i], f32>
  %st = tile.store %mn, %M[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<4xf32, output>
  %lj = tile.loop %j = 0 to 4096 step %sj body %st
  %li = tile.loop %i = 0 to 4 step %si body %lj
  tile.yield %li
}

// -----

// A column max: each thread keeps the max of its columns over its chunk of
// rows in registers (an element loop), from -inf, then one atomic per
// column.
// CHECK-LABEL: func.func @col_max
// CHECK: gpu.func @col_max_k1
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NINF]]) -> (f32)
// CHECK: arith.maxnumf
// CHECK: memref.atomic_rmw maxnumf
tile.program @col_max(%X: !tile.tensor<4096x64xf32, input>,
                      %M: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 64, tile_c = 32}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %si = tile.size "tile_i"
  %sj = tile.size "tile_c"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %ninf = tile.constant -inf : !tile.tile<[tile_c], f32>
  %init = tile.store %ninf, %M[%tj] : !tile.tile<[tile_c], f32>, !tile.tensor<64xf32, output>
  %linit = tile.loop %j = 0 to 64 step %sj body %init
  %x = tile.load %X[%ti, %tj] : !tile.tensor<4096x64xf32, input> -> !tile.tile<[tile_i, tile_c], f32>
  %r = tile.rmax %x, 0 : !tile.tile<[tile_i, tile_c], f32> -> !tile.tile<[tile_c], f32>
  %m = tile.load %M[%tj] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_c], f32>
  %mx = tile.max %m, %r : !tile.tile<[tile_c], f32>
  %st = tile.store %mx, %M[%tj] : !tile.tile<[tile_c], f32>, !tile.tensor<64xf32, output>
  %li = tile.loop %i = 0 to 4096 step %si body %st
  %lj = tile.loop %j = 0 to 64 step %sj body %li
  %seq = tile.seq %linit, %lj
  tile.yield %seq
}
