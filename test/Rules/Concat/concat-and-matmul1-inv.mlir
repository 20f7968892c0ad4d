// RUN: not tile-opt %s --tile-saturate="only=concat-and-matmul1-inv iterations=1 backoff=false propagate=false goal=%S/Inputs/concat-and-matmul1-inv.mlir" -o /dev/null 2>&1 | FileCheck %s

// concat-and-matmul1-inv: concat(a, c, 1) @ concat(b, d, 0) -> a @ b + c @ d for 2-d tiles, guarded by RankIs(a, 2),
// Contractible(a, b) and Contractible(c, d).

// @fires: concat(a, c, 1) @ concat(b, d, 0) with 2x2 tiles; the rule adds a @ b + c @ d
// CHECK-DAG: remark: goal @fires is represented
// @blocked: a has 1 column but b 2 rows (Contractible(a, b) is false); a @ b + c @ d is ill-typed, so the goal can only check that the root gained no new well-typed form (weak: the guard coincides with typing here)
// CHECK-DAG: error: goal @blocked is not represented

// Start: concat(a, c, 1) @ concat(b, d, 0) with 2x2 tiles
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
  %l = tile.concat %a, %c axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %k = tile.concat %b, %d axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.matmul %l, %k : !tile.tile<[2, 4], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// Start: a has 1 column but b 2 rows (Contractible(a, b) is false)
tile.program @blocked(
    %A: !tile.tensor<2x1xf32, input>,
    %B: !tile.tensor<2x2xf32, input>,
    %C: !tile.tensor<2x3xf32, input>,
    %D: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<2x1xf32, input> -> !tile.tile<[2, 1], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<2x3xf32, input> -> !tile.tile<[2, 3], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %l = tile.concat %a, %c axis 1 : !tile.tile<[2, 1], f32>, !tile.tile<[2, 3], f32> -> !tile.tile<[2, 4], f32>
  %k = tile.concat %b, %d axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.matmul %l, %k : !tile.tile<[2, 4], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}
