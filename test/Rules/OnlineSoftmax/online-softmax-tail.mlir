// RUN: not tile-opt %s --tile-saturate="only=online-softmax-tail iterations=1 backoff=false propagate=false goal=%S/Inputs/online-softmax-tail.mlir" -o /dev/null 2>&1 | FileCheck %s

// online-softmax(-tail): loop r (M = max(M, rmax X)); loop r (Z += rsum(exp(X - M)); A += exp(X - M) @ V)
//   -> loop r (Z = Z * alpha + rsum(exp(X - M')); A = A * bcast(alpha) + exp(X - M') @ V; M = M')
// with M' = max(M, rmax X), alpha = exp(min(M - safe(M'), 0)), safe(M') = select(M' == -inf, 0, M'),
// guarded by OnlineSoftmaxLegal (lib/Rules/OnlineSoftmax.cpp).

// @fires: a running row max, then a running sum and P.V against it; Z and A are zero-start accumulators
// CHECK-DAG: remark: goal @fires is represented
// @not_zero_start: Z is set to 1 before the loops, so rescaling its start would change it
// CHECK-DAG: error: goal @not_zero_start is not represented
// @affine: the accumulation adds exp(X - M) + 1, which is not linear in exp(-M)
// CHECK-DAG: error: goal @affine is not represented
// @reads_accumulator: the P.V term is scaled by the running sum Z, an accumulator of the same loop
// CHECK-DAG: error: goal @reads_accumulator is not represented

tile.program @fires(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %mb = tile.bcast %m [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %z, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %pv = tile.matmul %e, %v : !tile.tile<[4, 4], f32>, !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %a2 = tile.add %a, %pv : !tile.tile<[4, 8], f32>
  %s3 = tile.store %a2, %A[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %b2 = tile.seq %s2, %s3
  %l2 = tile.loop %r = 0 to 16 step %c4 body %b2
  %root = tile.seq %l1, %l2
  tile.yield %root
}

tile.program @not_zero_start(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %one = tile.constant 1.0 : !tile.tile<[4], f32>
  %s0 = tile.store %one, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %mb = tile.bcast %m [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %z, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l2 = tile.loop %r = 0 to 16 step %c4 body %s2
  %root0 = tile.seq %l1, %l2
  %root = tile.seq %s0, %root0
  tile.yield %root
}

tile.program @affine(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %mb = tile.bcast %m [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %one = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %e1 = tile.add %e, %one : !tile.tile<[4, 4], f32>
  %se = tile.rsum %e1, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %z, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l2 = tile.loop %r = 0 to 16 step %c4 body %s2
  %root = tile.seq %l1, %l2
  tile.yield %root
}

tile.program @reads_accumulator(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %mb = tile.bcast %m [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %z, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %zb = tile.bcast %z [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %ez = tile.mul %e, %zb : !tile.tile<[4, 4], f32>
  %pv = tile.matmul %ez, %v : !tile.tile<[4, 4], f32>, !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %a2 = tile.add %a, %pv : !tile.tile<[4, 8], f32>
  %s3 = tile.store %a2, %A[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %b2 = tile.seq %s2, %s3
  %l2 = tile.loop %r = 0 to 16 step %c4 body %b2
  %root = tile.seq %l1, %l2
  tile.yield %root
}
