// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Loop-carried accumulators: a store `T = T + x` in every iteration of a loop.

// Illegal: fusing two accumulations into the same S (S += rsum(A) then
// S += rsum(B)). Fused, the sum is taken in the order A0 B0 A1 B1 instead of
// A0 A1 B0 B1: floating-point addition does not reassociate, and the analysis
// sees the reducer at k = 16 and the second reducer at k = 0 touch S.
// Illegal: swapping the two loops, for the same reason.
tile.program @same_accumulator(
    %A: !tile.tensor<32xf32, input>,
    %B: !tile.tensor<32xf32, input>,
    %S: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %c16 = tile.size 16
  %tk = tile.tile %k
  %f = tile.full
  %s = tile.load %S[%f] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %a = tile.load %A[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %ra = tile.rsum %a, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rab = tile.bcast %ra [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n1 = tile.add %s, %rab : !tile.tile<[1], f32>
  %st1 = tile.store %n1, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %l1 = tile.loop %k = 0 to 32 step %c16 body %st1
  %b = tile.load %B[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %rb = tile.rsum %b, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rbb = tile.bcast %rb [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n2 = tile.add %s, %rbb : !tile.tile<[1], f32>
  %st2 = tile.store %n2, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: {{read|write}} of S[full] in the previous statement and {{read|write}} of S[full] in this statement conflict; witness: the previous statement and this statement both touch S[0]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: {{read|write}} of S[full] in the previous loop and {{read|write}} of S[full] in this loop conflict; witness: the previous loop at k = 16 and this loop at k = 0 both touch S[0]
  %l2 = tile.loop %k = 0 to 32 step %c16 body %st2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// A running (prefix) sum: each iteration adds a tile to S, then writes the
// partial sum to O[tile k].
// Illegal: swapping the two statements of the loop body (O would get the sum
// before this tile is added).
tile.program @prefix_sum_body(
    %A: !tile.tensor<32xf32, input>,
    %S: !tile.tensor<1xf32, intermediate>,
    %O: !tile.tensor<32xf32, output>) {
  %k = tile.var "k"
  %c16 = tile.size 16
  %tk = tile.tile %k
  %f = tile.full
  %s = tile.load %S[%f] : !tile.tensor<1xf32, intermediate> -> !tile.tile<[1], f32>
  %a = tile.load %A[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %ra = tile.rsum %a, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rab = tile.bcast %ra [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %rab : !tile.tile<[1], f32>
  %acc = tile.store %n, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, intermediate>
  %s0 = tile.rsum %s, 0 : !tile.tile<[1], f32> -> !tile.tile<[], f32>
  %sb = tile.bcast %s0 [0] : !tile.tile<[], f32> -> !tile.tile<[16], f32>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[full] in the previous statement and read of S[full] in this statement conflict; witness: the previous statement and this statement both touch S[0]
  %emit = tile.store %sb, %O[%tk] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  %body = tile.seq %acc, %emit
  %l = tile.loop %k = 0 to 32 step %c16 body %body
  tile.yield %l
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// The prefix sum of @prefix_sum_body after loop fission. Fission is legal
// exactly when fusing the two resulting loops back is.
// Illegal: fission (= this fusion): the accumulator at k = 16 writes S after
// the emitter at k = 0 read it in the original program. The fissioned program
// writes the total into every tile of O instead of the running sums.
// Illegal: swapping the two loops.
tile.program @prefix_sum_fissioned(
    %A: !tile.tensor<32xf32, input>,
    %S: !tile.tensor<1xf32, intermediate>,
    %O: !tile.tensor<32xf32, output>) {
  %k = tile.var "k"
  %c16 = tile.size 16
  %tk = tile.tile %k
  %f = tile.full
  %s = tile.load %S[%f] : !tile.tensor<1xf32, intermediate> -> !tile.tile<[1], f32>
  %a = tile.load %A[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[16], f32>
  %ra = tile.rsum %a, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rab = tile.bcast %ra [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %rab : !tile.tile<[1], f32>
  %acc = tile.store %n, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, intermediate>
  %l1 = tile.loop %k = 0 to 32 step %c16 body %acc
  %s0 = tile.rsum %s, 0 : !tile.tile<[1], f32> -> !tile.tile<[], f32>
  %sb = tile.bcast %s0 [0] : !tile.tile<[], f32> -> !tile.tile<[16], f32>
  %emit = tile.store %sb, %O[%tk] : !tile.tile<[16], f32>, !tile.tensor<32xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[full] in the previous statement and read of S[full] in this statement conflict; witness: the previous statement and this statement both touch S[0]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of S[full] in the previous loop and read of S[full] in this loop conflict; witness: the previous loop at k = 16 and this loop at k = 0 both touch S[0]
  %l2 = tile.loop %k = 0 to 32 step %c16 body %emit
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// One loop accumulating two independent sums (S1 over A, S2 over B).
// Legal: swapping the two accumulations in the body (and so fission of the
// loop: each accumulator is carried by its own statement only).
tile.program @two_accumulators_body(
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
  %b = tile.load %B[%tk] : !tile.tensor<32xf32, input> -> !tile.tile<[8], f32>
  %s2 = tile.load %S2[%f] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %rb = tile.rsum %b, 0 : !tile.tile<[8], f32> -> !tile.tile<[], f32>
  %rbb = tile.bcast %rb [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n2 = tile.add %s2, %rbb : !tile.tile<[1], f32>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %st2 = tile.store %n2, %S2[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %body = tile.seq %st1, %st2
  %l = tile.loop %k = 0 to 32 step %c8 body %body
  tile.yield %l
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// Matmul accumulators Q[:, n-tile] += X[:, k-tile] @ WQ[k-tile, n-tile] and
// the same for K, each an n loop around a k loop (Trinity's Q1/K1).
// Legal: fusing the two n loops (they write different tensors and only read
// inputs). Legal: swapping them.
// Then E[:, n-tile] = exp(Q[:, n-tile]) follows the K loop, whose tensors it
// neither reads nor writes. Legal: swapping it with the K loop. Legal: fusing
// it with the K loop.
tile.program @matmul_accumulators(
    %X: !tile.tensor<4x16xf16, input>,
    %WQ: !tile.tensor<16x16xf16, input>,
    %WK: !tile.tensor<16x16xf16, input>,
    %Q: !tile.tensor<4x16xf32, intermediate>,
    %K: !tile.tensor<4x16xf32, output>,
    %E: !tile.tensor<4x16xf32, output>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c8 = tile.size 8
  %f = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%f, %tk] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, 8], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[8, 8], f16>
  %q = tile.load %Q[%f, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[4, 8], f16>, !tile.tile<[8, 8], f16> -> !tile.tile<[4, 8], f32>
  %qn = tile.add %q, %xq : !tile.tile<[4, 8], f32>
  %sq = tile.store %qn, %Q[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, intermediate>
  %lqk = tile.loop %k = 0 to 16 step %c8 body %sq
  %lq = tile.loop %n = 0 to 16 step %c8 body %lqk
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[8, 8], f16>
  %kk = tile.load %K[%f, %tn] : !tile.tensor<4x16xf32, output> -> !tile.tile<[4, 8], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[4, 8], f16>, !tile.tile<[8, 8], f16> -> !tile.tile<[4, 8], f32>
  %kn = tile.add %kk, %xk : !tile.tile<[4, 8], f32>
  %sk = tile.store %kn, %K[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %lkk = tile.loop %k = 0 to 16 step %c8 body %sk
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lk = tile.loop %n = 0 to 16 step %c8 body %lkk
  %e = tile.exp %q : !tile.tile<[4, 8], f32>
  %se = tile.store %e, %E[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %le = tile.loop %n = 0 to 16 step %c8 body %se
  %s2 = tile.seq %lk, %le
  %s1 = tile.seq %lq, %s2
  tile.yield %s1
}
// CHECK: remark: legality: 2 of 2 adjacent statement pairs may swap, 2 of 2 adjacent loop pairs may fuse

// -----

// Legal: fusing the matmul accumulation loop over n with its consumer
// E[:, n-tile] = exp(Q[:, n-tile]): the k loop completes Q's n-tile within
// iteration n, and other iterations touch other columns.
// Illegal: swapping them (E reads Q before it is accumulated).
tile.program @matmul_then_consumer(
    %X: !tile.tensor<4x16xf16, input>,
    %WQ: !tile.tensor<16x16xf16, input>,
    %Q: !tile.tensor<4x16xf32, intermediate>,
    %E: !tile.tensor<4x16xf32, output>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c8 = tile.size 8
  %f = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%f, %tk] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, 8], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[8, 8], f16>
  %q = tile.load %Q[%f, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[4, 8], f16>, !tile.tile<[8, 8], f16> -> !tile.tile<[4, 8], f32>
  %qn = tile.add %q, %xq : !tile.tile<[4, 8], f32>
  %sq = tile.store %qn, %Q[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, intermediate>
  %lqk = tile.loop %k = 0 to 16 step %c8 body %sq
  %lq = tile.loop %n = 0 to 16 step %c8 body %lqk
  %e = tile.exp %q : !tile.tile<[4, 8], f32>
  %se = tile.store %e, %E[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of Q[full, tile n] in the previous statement and read of Q[full, tile n] in this statement conflict; witness: the previous statement at n = [[N:0|8]] and this statement at n = [[N]] both touch Q[{{[0-3]}}, {{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %le = tile.loop %n = 0 to 16 step %c8 body %se
  %s1 = tile.seq %lq, %le
  tile.yield %s1
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Illegal: fusing the matmul accumulation loop over n with a consumer that
// reads all of Q (a row max needs every column): the accumulation at n = 8
// writes columns 8..15 after the consumer at n = 0 read them.
// Illegal: swapping them (the consumer reads Q before it is accumulated).
tile.program @matmul_then_full_consumer(
    %X: !tile.tensor<4x16xf16, input>,
    %WQ: !tile.tensor<16x16xf16, input>,
    %Q: !tile.tensor<4x16xf32, intermediate>,
    %E: !tile.tensor<4x16xf32, output>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c8 = tile.size 8
  %f = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%f, %tk] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, 8], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[8, 8], f16>
  %q = tile.load %Q[%f, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[4, 8], f16>, !tile.tile<[8, 8], f16> -> !tile.tile<[4, 8], f32>
  %qn = tile.add %q, %xq : !tile.tile<[4, 8], f32>
  %sq = tile.store %qn, %Q[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, intermediate>
  %lqk = tile.loop %k = 0 to 16 step %c8 body %sq
  %lq = tile.loop %n = 0 to 16 step %c8 body %lqk
  %qall = tile.load %Q[%f, %f] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %m = tile.rmax %qall, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %mb = tile.bcast %m [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d = tile.sub %q, %mb : !tile.tile<[4, 8], f32>
  %se = tile.store %d, %E[%f, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of Q[full, tile n] in the previous statement and read of Q[full, full] in this statement conflict; witness: the previous statement at n = {{0|8}} and this statement both touch Q[{{[0-3]}}, {{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of Q[full, tile n] in the previous loop and read of Q[full, full] in this loop conflict; witness: the previous loop at n = 8 and this loop at n = 0 both touch Q[{{[0-3]}}, {{8|9|1[0-5]}}]
  %le = tile.loop %n = 0 to 16 step %c8 body %se
  %s1 = tile.seq %lq, %le
  tile.yield %s1
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse
