// RUN: not tile-opt %s --tile-saturate="only=matmul-rebase iterations=1 backoff=false propagate=false goal=%S/Inputs/matmul-rebase.mlir" -o /dev/null 2>&1 | FileCheck %s

// matmul-rebase: (exp(y - bcast m1) @ w) * bcast(exp(m1 - m2)) -> exp(y - bcast m2) @ w,
// guarded by BroadcastsLastDim: the online-softmax repair of the running P.V accumulator.

// @fires: O = (exp(y - bcast m1) @ w) * bcast(exp(m1 - m2)); the rule adds exp(y - bcast m2) @ w
// CHECK-DAG: remark: goal @fires is represented
// @blocked: the factor is exp(m3 - m2), not taken from the exponentials' max m1; the rebased product must not appear
// CHECK-DAG: error: goal @blocked is not represented

tile.program @fires(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %b1 = tile.bcast %m1 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d1 = tile.sub %y, %b1 : !tile.tile<[4, 8], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4, 8], f32>
  %p = tile.matmul %e1, %w : !tile.tile<[4, 8], f32>, !tile.tile<[8, 8], f32> -> !tile.tile<[4, 8], f32>
  %d2 = tile.sub %m1, %m2 : !tile.tile<[4], f32>
  %e2 = tile.exp %d2 : !tile.tile<[4], f32>
  %f = tile.bcast %e2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %r = tile.mul %p, %f : !tile.tile<[4, 8], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %st
}

tile.program @blocked(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %b1 = tile.bcast %m1 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d1 = tile.sub %y, %b1 : !tile.tile<[4, 8], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4, 8], f32>
  %p = tile.matmul %e1, %w : !tile.tile<[4, 8], f32>, !tile.tile<[8, 8], f32> -> !tile.tile<[4, 8], f32>
  %d2 = tile.sub %m3, %m2 : !tile.tile<[4], f32>
  %e2 = tile.exp %d2 : !tile.tile<[4], f32>
  %f = tile.bcast %e2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %r = tile.mul %p, %f : !tile.tile<[4, 8], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %st
}
