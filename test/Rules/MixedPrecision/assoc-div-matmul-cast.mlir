// RUN: not tile-opt %s --tile-saturate="only=assoc-div-matmul-cast iterations=1 backoff=false propagate=false goal=%S/Inputs/assoc-div-matmul-cast.mlir" -o /dev/null 2>&1 | FileCheck %s

// assoc-div-matmul-cast: cast_f16(a / bcast(s) [last]) @ c -> (a @ cast_f32(c)) / bcast(s),
// guarded by BroadcastsLastDim, SameElementType(s, result) and SameElementType(a, result).

// @fires: O = cast_f16(a / bcast(s) [1]) @ c, one divisor per row; the rule adds (a @ cast_f32(c)) / bcast(s) [1]
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = cast_f16(a / bcast(s) [0]) @ c, the divisor varies along the contraction (BroadcastsLastDim is false); (a @ cast_f32(c)) / bcast(s) [0] must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = cast_f16(a / bcast(s) [1]) @ c, one divisor per row
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf16, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf16, input> -> !tile.tile<[4, 4], f16>
  %sb = tile.bcast %s [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.div %a, %sb : !tile.tile<[4, 4], f32>
  %dh = tile.cast %d : !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f16>
  %r = tile.matmul %dh, %c : !tile.tile<[4, 4], f16>, !tile.tile<[4, 4], f16> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = cast_f16(a / bcast(s) [0]) @ c, the divisor varies along the contraction (BroadcastsLastDim is false)
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf16, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf16, input> -> !tile.tile<[4, 4], f16>
  %sb = tile.bcast %s [0] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.div %a, %sb : !tile.tile<[4, 4], f32>
  %dh = tile.cast %d : !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f16>
  %r = tile.matmul %dh, %c : !tile.tile<[4, 4], f16>, !tile.tile<[4, 4], f16> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
