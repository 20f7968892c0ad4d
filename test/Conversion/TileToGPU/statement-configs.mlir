// RUN: tile-opt %s --tile-select-gpu-config --tile-lower-to-gpu | FileCheck %s
// RUN: tile-opt %s --tile-select-gpu-config="config={statement_configs = false}" --tile-lower-to-gpu | FileCheck %s --check-prefix=SHARED

// A softmax-style program: the GEMM statement and the row max that reads
// its result. Configured apart (select-gpu-config.mlir), the max statement
// steps by sizes of its own: its row tile takes its max_tile_size (1024,
// here the whole row of 512) while the GEMM's stays 64, and its kernel
// reduces rows by a whole block (no element loops). One block would hold all 16
// rows: its own sizes shrink (tile_j_s1 to 256, which keeps a loop over the
// row, then tile_i_s1 to 1), one row per block
// (shrink-reduction-tiles.mlir). With statement_configs off, both step by
// tile_j = 64 and the max runs element loops (SHARED).
// CHECK-LABEL: func.func @softmax_like
// CHECK-SAME: tile.tile_sizes = {tile_i = 16 : i64, tile_i_s1 = 1 : i64, tile_j = 64 : i64, tile_j_s1 = 256 : i64, tile_k = 64 : i64}
// CHECK: @softmax_like_k0 blocks in (%c32,
// CHECK: @softmax_like_k1 blocks in (%c16, %c1, %c1) threads in (%c32
// SHARED-LABEL: func.func @softmax_like
// SHARED-SAME: tile.tile_sizes = {tile_i = {{[0-9]+}} : i64, tile_j = {{[0-9]+}} : i64, tile_k = 64 : i64}
// SHARED-NOT: _s1
tile.program @softmax_like(%A: !tile.tensor<16x256xf16, input>,
                           %B: !tile.tensor<256x512xf16, input>,
                           %C: !tile.tensor<16x512xf32, intermediate>,
                           %M: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, intermediate>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  %c2 = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rmax %c2, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %o = tile.load %M[%xi] : !tile.tensor<16xf32, output> -> !tile.tile<[tile_i], f32>
  %x = tile.max %o, %r : !tile.tile<[tile_i], f32>
  %t = tile.store %x, %M[%xi] : !tile.tile<[tile_i], f32>, !tile.tensor<16xf32, output>
  %mj = tile.loop %j = 0 to 512 step %tj body %t
  %mi = tile.loop %i = 0 to 16 step %ti body %mj
  %seq = tile.seq %li, %mi
  tile.yield %seq
}
