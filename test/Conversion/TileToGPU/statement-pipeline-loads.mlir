// RUN: tile-opt %s --tile-select-gpu-config --tile-lower-to-gpu | FileCheck %s
// RUN: tile-opt %s --tile-select-gpu-config --tile-lower-to-gpu --tile-merge-kernels | FileCheck %s --check-prefix=MERGED
// RUN: tile-opt %s --tile-select-gpu-config="config={statement_configs = false}" --tile-lower-to-gpu | FileCheck %s --check-prefix=PROGRAM

// Load pipelining per kernel. A softmax-style program (a max reduction
// beside its matmul) pipelines its loads one iteration ahead, but the
// statement that reduces rows without a matmul is configured apart without
// pipelining (softmax@V's row max on the H200: 29.0 -> 15.2 us, every
// attention program unchanged; bench/results/h200-2026-11-28-pipeline-
// loads.md). Its kernel carries `tile.pipeline_loads = 0`, which
// --tile-merge-kernels keeps (kernels merge only with kernels that pipeline
// alike) and --tile-pipeline-loads reads in place of the module's 1.
// CHECK: gpu.module @softmax_like_kernels attributes {tile.gpu_config = #tile.gpu_config<{{.*}}pipeline_loads = 1
// CHECK: gpu.func @softmax_like_k0(
// CHECK-NOT: tile.pipeline_loads
// CHECK: gpu.func @softmax_like_k1({{.*}} tile.pipeline_loads = 0 : i64
// MERGED: gpu.func @softmax_like_k1({{.*}} tile.pipeline_loads = 0 : i64
// Without statement configurations, every kernel has the program's.
// PROGRAM-NOT: tile.pipeline_loads =
// pipeline-loads.mlir tests the pass reading the attribute.
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
