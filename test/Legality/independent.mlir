// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Statements that only read shared data, or touch distinct tensors, always
// commute: two reads never conflict, and distinct tensors that are not
// declared `tile.may_alias` never share an element.

// Two loops reading the same intermediate X (overlapping tiles and all of X)
// and writing distinct outputs.
// Legal: swapping them. Legal: fusing them.
tile.program @reads_only(
    %X: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<4x16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %ei = tile.elem %i
  %f = tile.full
  %x = tile.load %X[%ti] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %s1 = tile.store %x, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %xa = tile.load %X[%f] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %xu = tile.unsqueeze %xa, 0 : !tile.tile<[16], f32> -> !tile.tile<[1, 16], f32>
  %s2 = tile.store %xu, %P[%ei, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// An input read by both statements, each writing its own output with the
// same index as the input read.
// Legal: swapping `O = exp(A)` and `P = A`.
// Legal: swapping `P = A` with a read of the inout cache Kc (read only here).
tile.program @shared_input(
    %A: !tile.tensor<16xf32, input>,
    %Kc: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %Q: !tile.tensor<16xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %s1 = tile.store %e, %O[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s2 = tile.store %a, %P[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %k = tile.load %Kc[%f] : !tile.tensor<16xf32, inout> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s3 = tile.store %k, %Q[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %q2 = tile.seq %s2, %s3
  %q1 = tile.seq %s1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 2 of 2 adjacent statement pairs may swap

// -----

// Input and output tensors of one shape touched at the same index: the write
// of O[tile i] and the read of A[tile i] are in distinct tensors.
// Legal: swapping `O[tile i] = B[tile i]` with a loop reading A[tile i].
// Legal: fusing them.
tile.program @distinct_tensors_same_index(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c8 = tile.size 8
  %ti = tile.tile %i
  %b = tile.load %B[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[8], f32>
  %s1 = tile.store %b, %O[%ti] : !tile.tile<[8], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c8 body %s1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[8], f32>
  %s2 = tile.store %a, %P[%ti] : !tile.tile<[8], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c8 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Legal: swapping a `tile.nop` with a store (it touches nothing).
tile.program @nop(
    %A: !tile.tensor<16xf32, input>,
    %O: !tile.tensor<16xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s = tile.store %a, %O[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %n = tile.nop
  %q = tile.seq %s, %n
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse; 0 solver calls, 0 unknown
