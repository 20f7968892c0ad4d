// RUN: not tile-opt %s --tile-saturate="only=exp-mul iterations=1 backoff=false propagate=false goal=%S/Inputs/exp-mul.mlir" -o /dev/null 2>&1 | FileCheck %s

// exp-mul: exp(a) * exp(b) -> exp(a + b) (no guard; the root must be tile.mul).

// @fires: O = exp(a) * exp(b); the rule adds exp(a + b)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = exp(a) + exp(b); exp(a + b) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = exp(a) * exp(b)
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %ea = tile.exp %a : !tile.tile<[4, 4], f32>
  %eb = tile.exp %b : !tile.tile<[4, 4], f32>
  %r = tile.mul %ea, %eb : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = exp(a) + exp(b)
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %ea = tile.exp %a : !tile.tile<[4, 4], f32>
  %eb = tile.exp %b : !tile.tile<[4, 4], f32>
  %r = tile.add %ea, %eb : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
