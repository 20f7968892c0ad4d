// RUN: not tile-opt %s --tile-saturate="only=dist-mul-sub iterations=1 backoff=false propagate=false goal=%S/Inputs/dist-mul-sub.mlir" -o /dev/null 2>&1 | FileCheck %s

// dist-mul-sub: a * (b - c) -> a * b - a * c (no guard; the inner op must be tile.sub).

// @fires: O = a * (b - c); the rule adds a * b - a * c
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = a * (b + c); the inner op is a add, a * b - a * c must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = a * (b - c)
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.sub %b, %c : !tile.tile<[4, 4], f32>
  %r = tile.mul %a, %t : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = a * (b + c)
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.add %b, %c : !tile.tile<[4, 4], f32>
  %r = tile.mul %a, %t : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
