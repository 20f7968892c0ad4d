// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// `tile.may_alias = [["A", "B"]]`: the caller may pass one buffer for A and
// B, so their accesses are compared as byte ranges of one row-major buffer.
// Without it, distinct tensors never conflict.

// B is written tile by tile, then A (an input) is read whole.
// Illegal: swapping the two loops when A and B may alias (the read of A
// sees the writes of B).
// Illegal: fusing them: B at i = 16 is written after A[16..] was read at
// i = 0.
tile.program @alias_write_then_read(
    %X: !tile.tensor<32xf32, input>,
    %A: !tile.tensor<32xf32, input>,
    %B: !tile.tensor<32xf32, output>,
    %O: !tile.tensor<2x32xf32, output>) attributes {tile.may_alias = [["A", "B"]]} {
  %i = tile.var "i"
  %c16 = tile.size 16
  %ti = tile.tile %i
  %ei = tile.elem %i
  %f = tile.full
  %x = tile.load %X[%ti] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %sb = tile.store %x, %B[%ti] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %l1 = tile.loop %i = 0 to 32 step %c16 body %sb
  %a = tile.load %A[%f] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[32], f32> -> !tile.tile<[1, 32], f32>
  %so = tile.store %au, %O[%ei, %f] : !tile.tile<[1, 32], f32>, !tile.tensor<2x32xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of A[full] in this statement conflict; witness: the previous statement at i = {{0|16}} and this statement both touch B[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of B[tile i] in the previous loop and read of A[full] in this loop conflict; witness: the previous loop at i = 16 and this loop at i = 0 both touch B[{{1[6-9]|2[0-9]|3[01]}}]
  %l2 = tile.loop %i = 0 to 32 step %c16 body %so
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// @alias_write_then_read without `tile.may_alias`.
// Legal: swapping the two loops. Legal: fusing them.
tile.program @no_alias_write_then_read(
    %X: !tile.tensor<32xf32, input>,
    %A: !tile.tensor<32xf32, input>,
    %B: !tile.tensor<32xf32, output>,
    %O: !tile.tensor<2x32xf32, output>) {
  %i = tile.var "i"
  %c16 = tile.size 16
  %ti = tile.tile %i
  %ei = tile.elem %i
  %f = tile.full
  %x = tile.load %X[%ti] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %sb = tile.store %x, %B[%ti] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %l1 = tile.loop %i = 0 to 32 step %c16 body %sb
  %a = tile.load %A[%f] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[32], f32> -> !tile.tile<[1, 32], f32>
  %so = tile.store %au, %O[%ei, %f] : !tile.tile<[1, 32], f32>, !tile.tensor<2x32xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 32 step %c16 body %so
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// In place through aliases: B[tile i] = X[tile i], then O[tile i] = A[tile i]
// with A and B of one shape and type.
// Legal: fusing them even though A and B may alias: iteration i of the
// first loop writes bytes [4 i, 4 i + 64), which iterations j < i of the
// second never read.
// Illegal: swapping them (with i = j they touch the same bytes).
tile.program @alias_same_tile(
    %X: !tile.tensor<32xf32, input>,
    %A: !tile.tensor<32xf32, input>,
    %B: !tile.tensor<32xf32, output>,
    %O: !tile.tensor<32xf32, output>) attributes {tile.may_alias = [["A", "B"]]} {
  %i = tile.var "i"
  %c16 = tile.size 16
  %ti = tile.tile %i
  %x = tile.load %X[%ti] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %sb = tile.store %x, %B[%ti] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %l1 = tile.loop %i = 0 to 32 step %c16 body %sb
  %a = tile.load %A[%ti] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %so = tile.store %a, %O[%ti] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of A[tile i] in this statement conflict; witness: the previous statement at i = [[I:0|16]] and this statement at i = [[I]] both touch B[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 32 step %c16 body %so
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Aliases of different element types: B is 32 x f32 (4 bytes), A is
// 64 x f16 (2 bytes). B[0:16] covers bytes [0, 64), that is A[0:32].
// Legal: swapping `B[0:16] = X` with a read of A[32:64] (bytes [64, 128)).
// Illegal: swapping `B[0:16] = X` with a read of A[31:32] (bytes [62, 64),
// the upper half of B[15]).
tile.program @alias_element_sizes(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<64xf16, input>,
    %B: !tile.tensor<32xf32, output>,
    %O: !tile.tensor<32xf16, output>,
    %P: !tile.tensor<1xf16, output>) attributes {tile.may_alias = [["A", "B"]]} {
  %f = tile.full
  %b0 = tile.const_tile 0, 16
  %a32 = tile.const_tile 32, 32
  %a31 = tile.const_tile 31, 1
  %x = tile.load %X[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %w = tile.store %x, %B[%b0] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %a = tile.load %A[%a32] : !tile.tensor<64xf16, input> -> !tile.tile<[32], f16>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %a, %O[%f] : !tile.tile<[32], f16>, !tile.tensor<32xf16, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %w2 = tile.store %x, %B[%b0] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %a1 = tile.load %A[%a31] : !tile.tensor<64xf16, input> -> !tile.tile<[1], f16>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[0:16] in the previous statement and read of A[31:32] in this statement conflict; witness: the previous statement and this statement both touch B[15]
  %r2 = tile.store %a1, %P[%f] : !tile.tile<[1], f16>, !tile.tensor<1xf16, output>
  %q3 = tile.seq %w2, %r2
  %q2 = tile.seq %r, %q3
  %q1 = tile.seq %w, %q2
  tile.yield %q1
}
// The middle pair (`O = A[32:64]`, `B[0:16] = X`) is the same legal pair in
// the other order (write after read).
// CHECK: remark: legality: 2 of 3 adjacent statement pairs may swap

// -----

// Aliases of different ranks: B is 2 x 32 x f32, A is 64 x f32; row 1 of B
// is A[32:64].
// Legal: swapping `B[1, :] = X` with a read of A[0:32].
// Illegal: swapping `B[1, :] = X` with a read of A[32:33] (= B[1, 0]).
tile.program @alias_ranks(
    %X: !tile.tensor<1x32xf32, input>,
    %A: !tile.tensor<64xf32, input>,
    %B: !tile.tensor<2x32xf32, output>,
    %O: !tile.tensor<32xf32, output>,
    %P: !tile.tensor<1xf32, output>) attributes {tile.may_alias = [["B", "A"]]} {
  %f = tile.full
  %row1 = tile.const_tile 1, 1
  %lo = tile.const_tile 0, 32
  %e32 = tile.const_tile 32, 1
  %x = tile.load %X[%f, %f] : !tile.tensor<1x32xf32, input> -> !tile.tile<[1, 32], f32>
  %w = tile.store %x, %B[%row1, %f] : !tile.tile<[1, 32], f32>, !tile.tensor<2x32xf32, output>
  %a = tile.load %A[%lo] : !tile.tensor<64xf32, input> -> !tile.tile<[32], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %a, %O[%f] : !tile.tile<[32], f32>, !tile.tensor<32xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %w2 = tile.store %x, %B[%row1, %f] : !tile.tile<[1, 32], f32>, !tile.tensor<2x32xf32, output>
  %a1 = tile.load %A[%e32] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[1:2, full] in the previous statement and read of A[32:33] in this statement conflict; witness: the previous statement and this statement both touch B[1, 0]
  %r2 = tile.store %a1, %P[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q3 = tile.seq %w2, %r2
  %q2 = tile.seq %r, %q3
  %q1 = tile.seq %w, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 2 of 3 adjacent statement pairs may swap

// -----

// A may alias B, but the statements touch C and A.
// Legal: swapping a write of C with a read of A (C is in no alias pair).
// Legal: swapping reads of A and B (reads never conflict, aliased or not).
tile.program @alias_elsewhere(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, inout>,
    %C: !tile.tensor<16xf32, output>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>) attributes {tile.may_alias = [["A", "B"]]} {
  %f = tile.full
  %x = tile.load %X[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %w = tile.store %x, %C[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %a, %O[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<16xf32, inout> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r2 = tile.store %b, %P[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %q2 = tile.seq %r, %r2
  %q1 = tile.seq %w, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 2 of 2 adjacent statement pairs may swap

// -----

// An inout tensor B that may alias an input A: reading A then updating B in
// place.
// Illegal: swapping `O = A` with `B = X` (write after read through the alias).
// Without the alias (@no_alias_war below) the same swap is legal.
tile.program @alias_war(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>) attributes {tile.may_alias = [["A", "B"]]} {
  %f = tile.full
  %e3 = tile.const_tile 3, 1
  %a = tile.load %A[%e3] : !tile.tensor<16xf32, input> -> !tile.tile<[1], f32>
  %ab = tile.bcast %a [0] : !tile.tile<[1], f32> -> !tile.tile<[16, 1], f32>
  %abs = tile.squeeze %ab, 1 : !tile.tile<[16, 1], f32> -> !tile.tile<[16], f32>
  %r = tile.store %abs, %O[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %x = tile.load %X[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of A[3:4] in the previous statement and write of B[full] in this statement conflict; witness: the previous statement and this statement both touch A[3]
  %w = tile.store %x, %B[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, inout>
  %q = tile.seq %r, %w
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// Legal: @alias_war without `tile.may_alias`.
tile.program @no_alias_war(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>) {
  %f = tile.full
  %e3 = tile.const_tile 3, 1
  %a = tile.load %A[%e3] : !tile.tensor<16xf32, input> -> !tile.tile<[1], f32>
  %ab = tile.bcast %a [0] : !tile.tile<[1], f32> -> !tile.tile<[16, 1], f32>
  %abs = tile.squeeze %ab, 1 : !tile.tile<[16, 1], f32> -> !tile.tile<[16], f32>
  %r = tile.store %abs, %O[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %x = tile.load %X[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %w = tile.store %x, %B[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, inout>
  %q = tile.seq %r, %w
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap
