// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={batch_loops = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// Each program, on the host emulation of its kernels, against the interpreter.
// RUN: tile-run %s --entry heads --device emulate --gpu-config="batch_loops = true" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry heads_bcast --device emulate --gpu-config="batch_loops = true" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry sum_heads --device emulate --gpu-config="batch_loops = true" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry shared_store --device emulate --gpu-config="batch_loops = true" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry indexed --device emulate --gpu-config="batch_loops = true" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// Batch loops (`batch_loops`, off by default, docs/GPULowering.md):
// attention's scores and
// their row max with the 4 heads whole in the tiles (`tile.full`, as
// extraction leaves them when it drops the head loop) run on one block per
// row tile; with a loop over the heads added around the statement, on
// 4 x 2.
// CHECK-LABEL: func.func @heads
// CHECK: gpu.launch_func @heads_kernels::@heads_k0 blocks in (%c8, %c1, %c1)
// OFF-LABEL: func.func @heads
// OFF: gpu.launch_func @heads_kernels::@heads_k0 blocks in (%c2, %c1, %c1)

tile.program @heads(
    %Q: !tile.tensor<4x32x16xf16, input>,
    %K: !tile.tensor<4x64x16xf16, input>,
    %S: !tile.tensor<4x32x64xf32, intermediate>,
    %M: !tile.tensor<4x32xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %p = tile.var "p"
  %c16 = tile.size 16
  %c32 = tile.size 32
  %ti = tile.tile %i
  %tp = tile.tile %p
  %q = tile.load %Q[%full, %ti, %full] : !tile.tensor<4x32x16xf16, input> -> !tile.tile<[4, 16, 16], f16>
  %k = tile.load %K[%full, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[4, 32, 16], f16>
  %kt = tile.permute %k [0, 2, 1] : !tile.tile<[4, 32, 16], f16> -> !tile.tile<[4, 16, 32], f16>
  %s = tile.matmul %q, %kt : !tile.tile<[4, 16, 16], f16>, !tile.tile<[4, 16, 32], f16> -> !tile.tile<[4, 16, 32], f32>
  %scale = tile.constant 0.25 : !tile.tile<[4, 16, 32], f32>
  %ss = tile.mul %s, %scale : !tile.tile<[4, 16, 32], f32>
  %st = tile.store %ss, %S[%full, %ti, %tp] : !tile.tile<[4, 16, 32], f32>, !tile.tensor<4x32x64xf32, intermediate>
  %m0 = tile.load %M[%full, %ti] : !tile.tensor<4x32xf32, output> -> !tile.tile<[4, 16], f32>
  %rm = tile.rmax %ss, 2 : !tile.tile<[4, 16, 32], f32> -> !tile.tile<[4, 16], f32>
  %m1 = tile.max %m0, %rm : !tile.tile<[4, 16], f32>
  %stm = tile.store %m1, %M[%full, %ti] : !tile.tile<[4, 16], f32>, !tile.tensor<4x32xf32, output>
  %body = tile.seq %st, %stm
  %lp = tile.loop %p = 0 to 64 step %c32 body %body
  %li = tile.loop %i = 0 to 32 step %c16 body %lp
  tile.yield %li
}

// -----

// A broadcast puts the batch dimension into a tile (the query positions of
// a mask, read by every head): the broadcast result is cut with the rest.
// CHECK-LABEL: func.func @heads_bcast
// CHECK: gpu.launch_func @heads_bcast_kernels::@heads_bcast_k0 blocks in (%c4, %c1, %c1)
// OFF-LABEL: func.func @heads_bcast
// OFF: gpu.launch_func @heads_bcast_kernels::@heads_bcast_k0 blocks in (%c1, %c1, %c1)

tile.program @heads_bcast(
    %A: !tile.tensor<4x8x16xf32, input>,
    %B: !tile.tensor<4x16x8xf32, input>,
    %W: !tile.tensor<8xf32, input>,
    %O: !tile.tensor<4x8x8xf32, output>) {
  %full = tile.full
  %k = tile.var "k"
  %c4 = tile.size 4
  %tk = tile.tile %k
  %o0 = tile.load %O[%full, %full, %full] : !tile.tensor<4x8x8xf32, output> -> !tile.tile<[4, 8, 8], f32>
  %a = tile.load %A[%full, %full, %tk] : !tile.tensor<4x8x16xf32, input> -> !tile.tile<[4, 8, 4], f32>
  %b = tile.load %B[%full, %tk, %full] : !tile.tensor<4x16x8xf32, input> -> !tile.tile<[4, 4, 8], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[4, 8, 4], f32>, !tile.tile<[4, 4, 8], f32> -> !tile.tile<[4, 8, 8], f32>
  %w = tile.load %W[%full] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %wb = tile.bcast %w [0, 1] : !tile.tile<[8], f32> -> !tile.tile<[4, 8, 8], f32>
  %abw = tile.mul %ab, %wb : !tile.tile<[4, 8, 8], f32>
  %o1 = tile.add %o0, %abw : !tile.tile<[4, 8, 8], f32>
  %st = tile.store %o1, %O[%full, %full, %full] : !tile.tile<[4, 8, 8], f32>, !tile.tensor<4x8x8xf32, output>
  %l = tile.loop %k = 0 to 16 step %c4 body %st
  tile.yield %l
}

// -----

// Must not: the statement sums over the heads (a reduction over the batch
// dimension), so its heads depend on each other.
// CHECK-LABEL: func.func @sum_heads
// CHECK: gpu.launch_func @sum_heads_kernels::@sum_heads_k0 blocks in (%c2, %c1, %c1)

tile.program @sum_heads(
    %A: !tile.tensor<4x8x16xf32, input>,
    %B: !tile.tensor<4x16x8xf32, input>,
    %O: !tile.tensor<8x8xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %a = tile.load %A[%full, %ti, %full] : !tile.tensor<4x8x16xf32, input> -> !tile.tile<[4, 4, 16], f32>
  %b = tile.load %B[%full, %full, %full] : !tile.tensor<4x16x8xf32, input> -> !tile.tile<[4, 16, 8], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[4, 4, 16], f32>, !tile.tile<[4, 16, 8], f32> -> !tile.tile<[4, 4, 8], f32>
  %p = tile.permute %ab [1, 2, 0] : !tile.tile<[4, 4, 8], f32> -> !tile.tile<[4, 8, 4], f32>
  %s = tile.rsum %p, 2 : !tile.tile<[4, 8, 4], f32> -> !tile.tile<[4, 8], f32>
  %st = tile.store %s, %O[%ti, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<8x8xf32, output>
  %l = tile.loop %i = 0 to 8 step %c4 body %st
  tile.yield %l
}

// -----

// Must not: the statement also stores a value without the heads (each head
// block would write it), so it keeps its one block per row tile.
// CHECK-LABEL: func.func @shared_store
// CHECK: gpu.launch_func @shared_store_kernels::@shared_store_k0 blocks in (%c2, %c1, %c1)

tile.program @shared_store(
    %A: !tile.tensor<4x8x16xf32, input>,
    %B: !tile.tensor<4x16x8xf32, input>,
    %X: !tile.tensor<8x16xf32, input>,
    %O: !tile.tensor<4x8x8xf32, output>,
    %P: !tile.tensor<8x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %a = tile.load %A[%full, %ti, %full] : !tile.tensor<4x8x16xf32, input> -> !tile.tile<[4, 4, 16], f32>
  %b = tile.load %B[%full, %full, %full] : !tile.tensor<4x16x8xf32, input> -> !tile.tile<[4, 16, 8], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[4, 4, 16], f32>, !tile.tile<[4, 16, 8], f32> -> !tile.tile<[4, 4, 8], f32>
  %st = tile.store %ab, %O[%full, %ti, %full] : !tile.tile<[4, 4, 8], f32>, !tile.tensor<4x8x8xf32, output>
  %x = tile.load %X[%ti, %full] : !tile.tensor<8x16xf32, input> -> !tile.tile<[4, 16], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 16], f32>
  %sp = tile.store %x2, %P[%ti, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<8x16xf32, output>
  %body = tile.seq %st, %sp
  %l = tile.loop %i = 0 to 8 step %c4 body %body
  tile.yield %l
}

// -----

// Must not: the output's head dimension is indexed by a loop (elem), not
// taken whole, so the heads already are a loop.
// CHECK-LABEL: func.func @indexed
// CHECK: gpu.launch_func @indexed_kernels::@indexed_k0 blocks in (%c4, %c1, %c1)

tile.program @indexed(
    %A: !tile.tensor<4x8x16xf32, input>,
    %B: !tile.tensor<4x16x8xf32, input>,
    %O: !tile.tensor<4x8x8xf32, output>) {
  %full = tile.full
  %h = tile.var "h"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %a = tile.load %A[%eh, %full, %full] : !tile.tensor<4x8x16xf32, input> -> !tile.tile<[1, 8, 16], f32>
  %b = tile.load %B[%eh, %full, %full] : !tile.tensor<4x16x8xf32, input> -> !tile.tile<[1, 16, 8], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[1, 8, 16], f32>, !tile.tile<[1, 16, 8], f32> -> !tile.tile<[1, 8, 8], f32>
  %st = tile.store %ab, %O[%eh, %full, %full] : !tile.tile<[1, 8, 8], f32>, !tile.tensor<4x8x8xf32, output>
  %l = tile.loop %h = 0 to 4 step %c1 body %st
  tile.yield %l
}
