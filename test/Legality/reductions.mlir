// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Legality of reordering reduction loops (accumulating stores
// `S = S + rsum(...)`) and their consumers.

// Illegal: fusing a reduction loop with the loop that consumes its result.
// The consumer at k = 0 would divide by the partial sum before the reducer
// at k = 16 adds the second half: iteration 1 of the reducer conflicts with
// iteration 0 of the consumer (the only such pair: 2 iterations).
// Illegal: swapping the two loops (the consumer reads S before it is summed).
tile.program @reduce_then_normalize(
    %A: !tile.tensor<32xf32, input>,
    %S: !tile.tensor<1xf32, intermediate>,
    %B: !tile.tensor<32xf32, output>) {
  %k = tile.var "k"
  %c16 = tile.size 16
  %tk = tile.tile %k
  %f = tile.full
  %a = tile.load %A[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %s = tile.load %S[%f] : !tile.tensor<1xf32, intermediate> -> !tile.tile<[1], f32>
  %r = tile.rsum %a, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rb = tile.bcast %r [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %rb : !tile.tile<[1], f32>
  %st = tile.store %n, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, intermediate>
  %l1 = tile.loop %k = 0 to 32 step %c16 body %st
  %s0 = tile.rsum %s, 0 : !tile.tile<[1], f32> -> !tile.tile<[], f32>
  %sb = tile.bcast %s0 [0] : !tile.tile<[], f32> -> !tile.tile<[16], f32>
  %d = tile.div %a, %sb : !tile.tile<[16], f32>
  %st2 = tile.store %d, %B[%tk] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[full] in the previous statement and read of S[full] in this statement conflict; witness: the previous statement and this statement both touch S[0]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of S[full] in the previous loop and read of S[full] in this loop conflict; witness: the previous loop at k = 16 and this loop at k = 0 both touch S[0]
  %l2 = tile.loop %k = 0 to 32 step %c16 body %st2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// Legal: fusing two independent reductions over the same loop (S1 sums A,
// S2 sums B; neither reads what the other writes). Legal: swapping them.
tile.program @two_reductions(
    %A: !tile.tensor<32xf32, input>,
    %B: !tile.tensor<32xf32, input>,
    %S1: !tile.tensor<1xf32, output>,
    %S2: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %c8 = tile.size 8
  %tk = tile.tile %k
  %f = tile.full
  %a = tile.load %A[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[8], f32>
  %s1 = tile.load %S1[%f] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %ra = tile.rsum %a, 0 : !tile.tile<[8], f32> -> !tile.tile<[], f32>
  %rab = tile.bcast %ra [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n1 = tile.add %s1, %rab : !tile.tile<[1], f32>
  %st1 = tile.store %n1, %S1[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %l1 = tile.loop %k = 0 to 32 step %c8 body %st1
  %b = tile.load %B[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[8], f32>
  %s2 = tile.load %S2[%f] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %rb = tile.rsum %b, 0 : !tile.tile<[8], f32> -> !tile.tile<[], f32>
  %rbb = tile.bcast %rb [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n2 = tile.add %s2, %rbb : !tile.tile<[1], f32>
  %st2 = tile.store %n2, %S2[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %k = 0 to 32 step %c8 body %st2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Row-wise softmax denominators: the reduction over p is nested in a loop
// over rows h, and the consumer reads only row h of S.
// Legal: fusing the two loops over h (row i of S is complete when the
// consumer reads it at iteration i, and later rows never touch row j < i).
// Illegal: swapping them (the consumer reads S[h] before it is summed).
tile.program @row_reduction(
    %E: !tile.tensor<2x16xf32, input>,
    %S: !tile.tensor<2x1xf32, intermediate>,
    %O: !tile.tensor<2x16xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c4 = tile.size 4
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %e = tile.load %E[%eh, %tp] : !tile.tensor<2x16xf32, input> -> !tile.tile<[1, 4], f32>
  %s = tile.load %S[%eh, %f] : !tile.tensor<2x1xf32, intermediate> -> !tile.tile<[1, 1], f32>
  %r = tile.rsum %e, 1 : !tile.tile<[1, 4], f32> -> !tile.tile<[1], f32>
  %rb = tile.bcast %r [1] : !tile.tile<[1], f32> -> !tile.tile<[1, 1], f32>
  %n = tile.add %s, %rb : !tile.tile<[1, 1], f32>
  %st = tile.store %n, %S[%eh, %f] : !tile.tile<[1, 1], f32>, !tile.tensor<2x1xf32, intermediate>
  %lp1 = tile.loop %p = 0 to 16 step %c4 body %st
  %lh1 = tile.loop %h = 0 to 2 step %c1 body %lp1
  %s2 = tile.squeeze %s, 1 : !tile.tile<[1, 1], f32> -> !tile.tile<[1], f32>
  %sb = tile.bcast %s2 [1] : !tile.tile<[1], f32> -> !tile.tile<[1, 4], f32>
  %d = tile.div %e, %sb : !tile.tile<[1, 4], f32>
  %st2 = tile.store %d, %O[%eh, %tp] : !tile.tile<[1, 4], f32>, !tile.tensor<2x16xf32, output>
  %lp2 = tile.loop %p = 0 to 16 step %c4 body %st2
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[elem h, full] in the previous statement and read of S[elem h, full] in this statement conflict; witness: the previous statement at h = [[H:[01]]] and this statement at h = [[H]] both touch S{{\[}}[[H]], 0]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lh2 = tile.loop %h = 0 to 2 step %c1 body %lp2
  %q = tile.seq %lh1, %lh2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Illegal: fusing a row reduction with a consumer that reads every row
// (S[full, full], e.g. a global max over the row sums): the reducer at
// h = 1 writes S[1] after the consumer at h = 0 would have read it.
tile.program @row_reduction_all_rows(
    %E: !tile.tensor<2x16xf32, input>,
    %S: !tile.tensor<2x1xf32, intermediate>,
    %O: !tile.tensor<2x2x1xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c16 = tile.size 16
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %e = tile.load %E[%eh, %tp] : !tile.tensor<2x16xf32, input> -> !tile.tile<[1, 16], f32>
  %s = tile.load %S[%eh, %f] : !tile.tensor<2x1xf32, intermediate> -> !tile.tile<[1, 1], f32>
  %r = tile.rsum %e, 1 : !tile.tile<[1, 16], f32> -> !tile.tile<[1], f32>
  %rb = tile.bcast %r [1] : !tile.tile<[1], f32> -> !tile.tile<[1, 1], f32>
  %n = tile.add %s, %rb : !tile.tile<[1, 1], f32>
  %st = tile.store %n, %S[%eh, %f] : !tile.tile<[1, 1], f32>, !tile.tensor<2x1xf32, intermediate>
  %lp1 = tile.loop %p = 0 to 16 step %c16 body %st
  %lh1 = tile.loop %h = 0 to 2 step %c1 body %lp1
  %all = tile.load %S[%f, %f] : !tile.tensor<2x1xf32, intermediate> -> !tile.tile<[2, 1], f32>
  %allu = tile.unsqueeze %all, 0 : !tile.tile<[2, 1], f32> -> !tile.tile<[1, 2, 1], f32>
  %st2 = tile.store %allu, %O[%eh, %f, %f] : !tile.tile<[1, 2, 1], f32>, !tile.tensor<2x2x1xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[elem h, full] in the previous statement and read of S[full, full] in this statement conflict
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of S[elem h, full] in the previous loop and read of S[full, full] in this loop conflict; witness: the previous loop at h = 1 and this loop at h = 0 both touch S[1, 0]
  %lh2 = tile.loop %h = 0 to 2 step %c1 body %st2
  %q = tile.seq %lh1, %lh2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse
