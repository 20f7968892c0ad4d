// RUN: not tile-opt %s --tile-saturate="only=assoc-matmul iterations=1 backoff=false propagate=false goal=%S/Inputs/assoc-matmul.mlir" -o /dev/null 2>&1 | FileCheck %s

// assoc-matmul: a @ (b @ c) -> (a @ b) @ c, guarded by SameElementType(a|b|c, result):
// no matmul of the chain may widen the element type.

// @fires: all f32, O = a @ (b @ c); the rule adds (a @ b) @ c
// CHECK-DAG: remark: goal @fires is represented
// @blocked: f16 operands, the outer matmul widens to f32 (SameElementType(a, f32) is false); (a @ b : f16) @ c must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: all f32, O = a @ (b @ c)
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.matmul %b, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %r = tile.matmul %a, %t : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: f16 operands, the outer matmul widens to f32 (SameElementType(a, f32) is false)
tile.program @blocked(
    %A: !tile.tensor<4x4xf16, input>,
    %B: !tile.tensor<4x4xf16, input>,
    %C: !tile.tensor<4x4xf16, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf16, input> -> !tile.tile<[4, 4], f16>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf16, input> -> !tile.tile<[4, 4], f16>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf16, input> -> !tile.tile<[4, 4], f16>
  %t = tile.matmul %b, %c : !tile.tile<[4, 4], f16>, !tile.tile<[4, 4], f16> -> !tile.tile<[4, 4], f16>
  %r = tile.matmul %a, %t : !tile.tile<[4, 4], f16>, !tile.tile<[4, 4], f16> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
