// RUN: not tile-opt %s --tile-saturate="only=assoc-add2 iterations=1 backoff=false propagate=false goal=%S/Inputs/assoc-add2.mlir" -o /dev/null 2>&1 | FileCheck %s

// assoc-add2: (a + b) + c -> a + (b + c) (no guard; the inner op must be tile.add).

// @fires: O = (a + b) + c; the rule adds a + (b + c)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = (a - b) + c; the inner op is a sub, a + (b + c) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = (a + b) + c
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.add %a, %b : !tile.tile<[4, 4], f32>
  %r = tile.add %t, %c : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = (a - b) + c
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.sub %a, %b : !tile.tile<[4, 4], f32>
  %r = tile.add %t, %c : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
