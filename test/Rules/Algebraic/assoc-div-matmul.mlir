// RUN: not tile-opt %s --tile-saturate="only=assoc-div-matmul iterations=1 backoff=false propagate=false goal=%S/Inputs/assoc-div-matmul.mlir" -o /dev/null 2>&1 | FileCheck %s

// assoc-div-matmul: (a / bcast(s) [last]) @ c -> (a @ c) / bcast(s), guarded by
// BroadcastsLastDim (one divisor per row of a) and SameElementType(s, result).

// @fires: O = (a / bcast(s) [1]) @ c, s divides each row; the rule adds (a @ c) / bcast(s) [1]
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = (a / bcast(s) [0]) @ c, s divides each column, i.e. along the contraction (BroadcastsLastDim is false); (a @ c) / bcast(s) [0] must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = (a / bcast(s) [1]) @ c, s divides each row
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %sb = tile.bcast %s [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.div %a, %sb : !tile.tile<[4, 4], f32>
  %r = tile.matmul %d, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = (a / bcast(s) [0]) @ c, s divides each column, i.e. along the contraction (BroadcastsLastDim is false)
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %sb = tile.bcast %s [0] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.div %a, %sb : !tile.tile<[4, 4], f32>
  %r = tile.matmul %d, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
