// The stores of one iteration share the values they both evaluate: a
// matmul, reduction or their operands that one store computed into a
// buffer is read from that buffer by the next stores of the iteration
// (split-KV's per-chunk max, sum and product of one scores tile; the stores
// of an online-softmax step), while no store in between writes what it
// reads. Its buffer is kept only while a later store reads it.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu --canonicalize --cse | FileCheck %s
// The kernels compute what the programs compute (host emulation against
// the interpreter):
// RUN: tile-run %s --entry shared --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rewritten --device emulate | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// @shared: P = X W once (one loop of multiplies into the shared buffer),
// then its row max and its row sum, each from that buffer; the row sum's
// buffer goes after P's (P is still read), where the row max's was.
// CHECK-LABEL: gpu.func @shared_k0
// CHECK-SAME: workgroup(%[[SH:.*]] : memref<68xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[SH]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK-NOT: arith.mulf
// CHECK: memref.store %{{.*}}, %arg2
// CHECK-NOT: arith.mulf
// CHECK: memref.store %{{.*}}, %arg3
// CHECK: gpu.return
tile.program @shared(%X: !tile.tensor<64x32xf32, input>,
                     %W: !tile.tensor<32x16xf32, input>,
                     %M: !tile.tensor<64xf32, output>,
                     %S: !tile.tensor<64xf32, output>) {
  %r = tile.var "r"
  %c4 = tile.size 4
  %full = tile.full
  %tr = tile.tile %r
  %x = tile.load %X[%tr, %full] : !tile.tensor<64x32xf32, input> -> !tile.tile<[4, 32], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<32x16xf32, input> -> !tile.tile<[32, 16], f32>
  %p = tile.matmul %x, %w : !tile.tile<[4, 32], f32>, !tile.tile<[32, 16], f32> -> !tile.tile<[4, 16], f32>
  %m = tile.rmax %p, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %s = tile.rsum %p, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %st1 = tile.store %m, %M[%tr] : !tile.tile<[4], f32>, !tile.tensor<64xf32, output>
  %st2 = tile.store %s, %S[%tr] : !tile.tile<[4], f32>, !tile.tensor<64xf32, output>
  %b = tile.seq %st1, %st2
  %l = tile.loop %r = 0 to 64 step %c4 body %b
  tile.yield %l
}

// -----

// @rewritten: the store between them writes X, which P reads: the row sum
// computes P again from the new X (a second loop of multiplies).
// CHECK-LABEL: gpu.func @rewritten_k0
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %arg2
// CHECK: memref.store %{{.*}}, %arg0
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %arg3
// CHECK: gpu.return
tile.program @rewritten(%X: !tile.tensor<64x32xf32, inout>,
                        %W: !tile.tensor<32x16xf32, input>,
                        %M: !tile.tensor<64xf32, output>,
                        %S: !tile.tensor<64xf32, output>) {
  %r = tile.var "r"
  %c4 = tile.size 4
  %full = tile.full
  %tr = tile.tile %r
  %x = tile.load %X[%tr, %full] : !tile.tensor<64x32xf32, inout> -> !tile.tile<[4, 32], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<32x16xf32, input> -> !tile.tile<[32, 16], f32>
  %p = tile.matmul %x, %w : !tile.tile<[4, 32], f32>, !tile.tile<[32, 16], f32> -> !tile.tile<[4, 16], f32>
  %m = tile.rmax %p, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %s = tile.rsum %p, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %two = tile.constant 2.0 : !tile.tile<[4, 32], f32>
  %x2 = tile.mul %x, %two : !tile.tile<[4, 32], f32>
  %st1 = tile.store %m, %M[%tr] : !tile.tile<[4], f32>, !tile.tensor<64xf32, output>
  %stx = tile.store %x2, %X[%tr, %full] : !tile.tile<[4, 32], f32>, !tile.tensor<64x32xf32, inout>
  %st2 = tile.store %s, %S[%tr] : !tile.tile<[4], f32>, !tile.tensor<64xf32, output>
  %b1 = tile.seq %stx, %st2
  %b = tile.seq %st1, %b1
  %l = tile.loop %r = 0 to 64 step %c4 body %b
  tile.yield %l
}
