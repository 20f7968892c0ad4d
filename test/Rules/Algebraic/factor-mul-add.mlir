// RUN: not tile-opt %s --tile-saturate="only=factor-mul-add iterations=1 backoff=false propagate=false goal=%S/Inputs/factor-mul-add.mlir" -o /dev/null 2>&1 | FileCheck %s

// factor-mul-add: a * b + a * c -> a * (b + c), guarded by SameType(b, c).
// SameType(b, c) holds on every valid program (tile.mul needs one type for all operands), so the blocked
// case shows the structural condition instead: both products must share the factor a.

// @fires: O = a * b + a * c; the rule adds a * (b + c)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = a * b + d * c, no common factor; a * (b + c) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = a * b + a * c
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
  %x = tile.mul %a, %b : !tile.tile<[4, 4], f32>
  %y = tile.mul %a, %c : !tile.tile<[4, 4], f32>
  %r = tile.add %x, %y : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = a * b + d * c, no common factor
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
  %x = tile.mul %a, %b : !tile.tile<[4, 4], f32>
  %y = tile.mul %d, %c : !tile.tile<[4, 4], f32>
  %r = tile.add %x, %y : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
