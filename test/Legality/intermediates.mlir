// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Intermediates that are written, read, and reused.

// X is reused: X = A; O1 = X; X = B; O2 = X.
// Illegal: swapping `O1 = X` above `X = A` (read after write).
// Illegal: swapping `X = B` above `O1 = X` (write after read: O1 would get B).
// Illegal: swapping `O2 = X` above `X = B` (read after write).
tile.program @reused_intermediate(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %O1: !tile.tensor<16xf32, output>,
    %O2: !tile.tensor<16xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s1 = tile.store %a, %X[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %x = tile.load %X[%f] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[full] in the previous statement and read of X[full] in this statement conflict; witness: the previous statement and this statement both touch X[{{[0-9]+}}]
  %s2 = tile.store %x, %O1[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of X[full] in the previous statement and write of X[full] in this statement conflict; witness: the previous statement and this statement both touch X[{{[0-9]+}}]
  %s3 = tile.store %b, %X[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[full] in the previous statement and read of X[full] in this statement conflict; witness: the previous statement and this statement both touch X[{{[0-9]+}}]
  %s4 = tile.store %x, %O2[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %q3 = tile.seq %s3, %s4
  %q2 = tile.seq %s2, %q3
  %q1 = tile.seq %s1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 0 of 3 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// @reused_intermediate after giving the second value its own intermediate Y:
// X = A; O1 = X; Y = B; O2 = Y.
// Legal: swapping `Y = B` above `O1 = X` (the write-after-read is gone).
tile.program @renamed_intermediate(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Y: !tile.tensor<16xf32, intermediate>,
    %O1: !tile.tensor<16xf32, output>,
    %O2: !tile.tensor<16xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s1 = tile.store %a, %X[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %x = tile.load %X[%f] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement
  %s2 = tile.store %x, %O1[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s3 = tile.store %b, %Y[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %y = tile.load %Y[%f] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement
  %s4 = tile.store %y, %O2[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %q3 = tile.seq %s3, %s4
  %q2 = tile.seq %s2, %q3
  %q1 = tile.seq %s1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 3 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// An intermediate reused by halves: the second producer writes only X[8:16]
// while the first consumer read only X[0:8].
// Legal: swapping `X[8:16] = B` above `O1 = X[0:8]` (the slices touch but do
// not overlap).
// Illegal: swapping `O2 = X[4:12]` above `X[8:16] = B`: they share X[8:12].
tile.program @reused_halves(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<8xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %O1: !tile.tensor<8xf32, output>,
    %O2: !tile.tensor<8xf32, output>) {
  %f = tile.full
  %lo = tile.const_tile 0, 8
  %mid = tile.const_tile 4, 8
  %hi = tile.const_tile 8, 8
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s1 = tile.store %a, %X[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %x = tile.load %X[%lo] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[full] in the previous statement and read of X[0:8] in this statement conflict; witness: the previous statement and this statement both touch X[{{[0-7]}}]
  %s2 = tile.store %x, %O1[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s3 = tile.store %b, %X[%hi] : !tile.tile<[8], f32>, !tile.tensor<16xf32, intermediate>
  %x2 = tile.load %X[%mid] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[8:16] in the previous statement and read of X[4:12] in this statement conflict; witness: the previous statement and this statement both touch X[{{8|9|10|11}}]
  %s4 = tile.store %x2, %O2[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %q3 = tile.seq %s3, %s4
  %q2 = tile.seq %s2, %q3
  %q1 = tile.seq %s1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 3 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// Two loops producing unrelated intermediates X and Y from one input.
// Legal: swapping them. Legal: fusing them.
tile.program @independent_producers(
    %A: !tile.tensor<32xf32, input>,
    %X: !tile.tensor<32xf32, intermediate>,
    %Y: !tile.tensor<32xf32, intermediate>) {
  %i = tile.var "i"
  %c8 = tile.size 8
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<32xf32, input> -> !tile.tile<[8], f32>
  %e = tile.exp %a : !tile.tile<[8], f32>
  %s1 = tile.store %e, %X[%ti] : !tile.tile<[8], f32>, !tile.tensor<32xf32, intermediate>
  %l1 = tile.loop %i = 0 to 32 step %c8 body %s1
  %s2 = tile.store %a, %Y[%ti] : !tile.tile<[8], f32>, !tile.tensor<32xf32, intermediate>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 32 step %c8 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse
