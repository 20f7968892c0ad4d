// RUN: not tile-opt %s --tile-saturate="only=factor-matmul-add iterations=1 backoff=false propagate=false goal=%S/Inputs/factor-matmul-add.mlir" -o /dev/null 2>&1 | FileCheck %s

// factor-matmul-add: a @ b + a @ c -> a @ (b + c), guarded by SameType(b, c).
// SameType(b, c) holds on every valid program (both products have the type of the tile.add, and b, c
// share a's element type and contraction extent), so the blocked case shows the structural condition
// instead: both products must share the left operand a.

// @fires: O = a @ b + a @ c; the rule adds a @ (b + c)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = a @ b + d @ c, no common left operand; a @ (b + c) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = a @ b + a @ c
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %D: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %x = tile.matmul %a, %b : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.matmul %a, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %r = tile.add %x, %y : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = a @ b + d @ c, no common left operand
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %D: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %x = tile.matmul %a, %b : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.matmul %d, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %r = tile.add %x, %y : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
