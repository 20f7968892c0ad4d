// RUN: not tile-opt %s --tile-saturate="only=exp-rebase iterations=1 backoff=false propagate=false goal=%S/Inputs/exp-rebase.mlir" -o /dev/null 2>&1 | FileCheck %s

// exp-rebase: exp(y - m1) * exp(m1 - m2) -> exp(y - m2) (no guard; the two
// exponents must share m1: the online-softmax repair of one exponential).

// @fires: O = exp(y - m1) * exp(m1 - m2); the rule adds exp(y - m2)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = exp(y - m1) * exp(m2 - m1) (the factor goes the other way); exp(y - m2) must not appear
// CHECK-DAG: error: goal @blocked is not represented

tile.program @fires(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %d1 = tile.sub %m3, %m1 : !tile.tile<[4], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4], f32>
  %d2 = tile.sub %m1, %m2 : !tile.tile<[4], f32>
  %e2 = tile.exp %d2 : !tile.tile<[4], f32>
  %r = tile.mul %e1, %e2 : !tile.tile<[4], f32>
  %st = tile.store %r, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}

tile.program @blocked(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %d1 = tile.sub %m3, %m1 : !tile.tile<[4], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4], f32>
  %d2 = tile.sub %m2, %m1 : !tile.tile<[4], f32>
  %e2 = tile.exp %d2 : !tile.tile<[4], f32>
  %r = tile.mul %e1, %e2 : !tile.tile<[4], f32>
  %st = tile.store %r, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}
