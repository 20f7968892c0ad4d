// A split matmul accumulation by a transposed load (x @ W^T with nn.Linear's
// [N, K] weights: k runs along W's rows) at rows too few for the matrix
// units cuts each output's sum over k among adjacent threads, 8 consecutive
// k (one 16-byte vector) per lane and step, so that a warp reads along W's
// rows instead of one thread per output reading down its columns; the
// lanes' partial sums meet in shared memory. Lanes grow while the block
// holds them: 32 outputs x 8 lanes fill it; 64 outputs get 4 lanes.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 64, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 64, max_tile_size = 0, tile_sizes = {tile_n = 64}}" --canonicalize --cse | FileCheck %s --check-prefix=FOUR
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 64, max_tile_size = 0, reduce_lanes = 1}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 64, max_tile_size = 0, mma = true, thread_elements = 32, k_slices = 4}" --canonicalize --cse | FileCheck %s --check-prefix=MMA
// A grid with blocks enough (min_blocks = 2: not split) takes the lanes too,
// the block storing its sums, no atomics (attention's scores over 32K
// keys); never without lanes.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 2, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=BLOCKS
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 2, max_tile_size = 0, reduce_lanes = 1}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// The kernels compute what the program computes (host emulation against the
// interpreter, seeded normal inputs):
// RUN: tile-run %s --entry gemv_t --device emulate --gpu-config="split_k = 4, min_blocks = 2" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rows_t --device emulate --gpu-config="split_k = 4, min_blocks = 2" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry gemv_t --device emulate --gpu-config="split_k = 4, min_blocks = 64" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry gemv_t --device emulate --gpu-config="split_k = 4, min_blocks = 64, tile_sizes = {tile_n = 64}" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry gemv_t --device emulate --gpu-config="split_k = 2, min_blocks = 64, tile_sizes = {tile_n = 16, tile_k = 128}" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rows_t --device emulate --gpu-config="split_k = 4, min_blocks = 64" | FileCheck %s --check-prefix=EMU
// Without lanes (each sum on one thread, along W's rows in 16-byte runs):
// RUN: tile-run %s --entry gemv_t --device emulate --gpu-config="split_k = 4, min_blocks = 64, reduce_lanes = 1" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rows_t --device emulate --gpu-config="split_k = 4, min_blocks = 2, reduce_lanes = 1" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// CHECK-LABEL: gpu.func @gemv_t_k0
// CHECK-SAME: workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: scf.for %{{.*}} = %thread_id_x to %c256 step %c256 {
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<256xf16>, vector<8xf16>
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<32768xf16>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addf
// BLOCKS-LABEL: gpu.func @gemv_t_k0
// BLOCKS-SAME: workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// BLOCKS-SAME: known_block_size = array<i32: 256, 1, 1>
// BLOCKS: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<32768xf16>, vector<8xf16>
// BLOCKS: gpu.barrier
// BLOCKS-NOT: atomic_rmw
// BLOCKS: vector.store %{{.*}}, %arg2[%{{.*}}] {alignment = 16 : i64} : memref<128xf32>, vector<4xf32>
// BLOCKS-NOT: atomic_rmw
// BLOCKS: gpu.return
// FOUR-LABEL: gpu.func @gemv_t_k0
// FOUR-SAME: known_block_size = array<i32: 256, 1, 1>
// FOUR: scf.for %{{.*}} = %thread_id_x to %c256 step %c256 {
// FOUR: arith.remui %{{.*}}, %c4 : index
// FOUR: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<32768xf16>, vector<8xf16>
// Without lanes: one thread per output reading its row of W (and x) along k
// in 16-byte vectors, no lane sums combined in shared memory.
// OFF-LABEL: gpu.func @gemv_t_k0
// OFF-NOT: memref.load %arg1
// OFF: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<32768xf16>, vector<8xf16>
// OFF-NOT: memref.load %arg1
// OFF-NOT: memref.store %{{.*}}, %arg3
// OFF: gpu.return
tile.program @gemv_t(%X: !tile.tensor<1x256xf16, input>,
                     %W: !tile.tensor<128x256xf16, input>,
                     %S: !tile.tensor<1x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 64}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<1x256xf16, input> -> !tile.tile<[1, tile_k], f16>
  %w = tile.load %W[%tn, %tk] : !tile.tensor<128x256xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %wt = tile.permute %w [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %wt : !tile.tile<[1, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[1, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<1x128xf32, output> -> !tile.tile<[1, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[1, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[1, tile_n], f32>, !tile.tensor<1x128xf32, output>
  %lk = tile.loop %k = 0 to 256 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// 16 rows: with matrix units they take the product (B^T read along k by
// mma.sync's operand loads), not lanes. Without them each group of lanes
// computes the 16 rows of one column (`kLaneRows`), loading each run of
// W's row once for all of them (and X's 16 runs): 32 groups of 8 lanes
// (128 bytes of a row per step) fill the block in one turn. (Before, one
// output per group: 4096 lanes in 16 turns, each loading W's run again.)
// MMA-LABEL: gpu.func @rows_t_k0
// MMA: nvgpu.mma.sync
// CHECK-LABEL: gpu.func @rows_t_k0
// CHECK-SAME: workgroup(%{{.*}} : memref<4096xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.for %{{.*}} = %thread_id_x to %c256 step %c256 {
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-NEXT: arith
// CHECK-NOT: vector.load %arg0
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<8192xf16>, vector<8xf16>
// CHECK-NOT: vector.load %arg1
// CHECK-COUNT-16: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<2048xf16>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: scf.yield
// CHECK: gpu.return
tile.program @rows_t(%X: !tile.tensor<16x128xf16, input>,
                     %W: !tile.tensor<64x128xf16, input>,
                     %S: !tile.tensor<16x64xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 64}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x128xf16, input> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tn, %tk] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %wt = tile.permute %w [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %wt : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x64xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x64xf32, output>
  %lk = tile.loop %k = 0 to 128 step %sk body %st
  %ln = tile.loop %n = 0 to 64 step %sn body %lk
  tile.yield %ln
}

