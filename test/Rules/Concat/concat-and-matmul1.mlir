// RUN: not tile-opt %s --tile-saturate="only=concat-and-matmul1 iterations=1 backoff=false propagate=false goal=%S/Inputs/concat-and-matmul1.mlir" -o /dev/null 2>&1 | FileCheck %s

// concat-and-matmul1: a @ b + c @ d -> concat(a, c, 1) @ concat(b, d, 0) for 2-d tiles, guarded by RankIs(a, 2),
// Concatenable(a, c, 1) and Concatenable(b, d, 0).

// @fires: a @ b + c @ d with 2x2 tiles; the rule adds concat(a, c, 1) @ concat(b, d, 0)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: 3-d tiles [1, 2, 2]: axis 1 is not the contraction axis of a (RankIs is false); the rule must not build concat(a, c, 1)
// CHECK-DAG: error: goal @blocked is not represented

// Start: a @ b + c @ d with 2x2 tiles
tile.program @fires(
    %A: !tile.tensor<2x2xf32, input>,
    %B: !tile.tensor<2x2xf32, input>,
    %C: !tile.tensor<2x2xf32, input>,
    %D: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %x = tile.matmul %a, %b : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %y = tile.matmul %c, %d : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %r = tile.add %x, %y : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// Start: 3-d tiles [1, 2, 2]: axis 1 is not the contraction axis of a (RankIs is false)
tile.program @blocked(
    %A: !tile.tensor<1x2x2xf32, input>,
    %B: !tile.tensor<1x2x2xf32, input>,
    %C: !tile.tensor<1x2x2xf32, input>,
    %D: !tile.tensor<1x2x2xf32, input>,
    %O: !tile.tensor<1x2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %b = tile.load %B[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %c = tile.load %C[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %d = tile.load %D[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %x = tile.matmul %a, %b : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %y = tile.matmul %c, %d : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %r = tile.add %x, %y : !tile.tile<[1, 2, 2], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 2, 2], f32>, !tile.tensor<1x2x2xf32, output>
  tile.yield %st
}
