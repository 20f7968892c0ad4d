// RUN: not tile-opt %s --tile-saturate="only=concat-and-matmul0 iterations=1 backoff=false propagate=false goal=%S/Inputs/concat-and-matmul0.mlir" -o /dev/null 2>&1 | FileCheck %s

// concat-and-matmul0: x @ concat(y, z, 1) -> concat(x @ y, x @ z, 1) for 2-d tiles, guarded by RankIs(x, 2).
// In 3-d, axis 1 is the contraction axis of y and z and the rewrite would be ill-typed, so the blocked case is the
// 3-d column split (axis 2), which is the correct 3-d identity but outside the rule (rank and axis condition).

// @fires: x @ concat(y, z, 1) with 2x2 tiles; the rule adds concat(x @ y, x @ z, 1)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: 3-d tiles, x @ concat(y, z, 2); concat(x @ y, x @ z, 2) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: x @ concat(y, z, 1) with 2x2 tiles
tile.program @fires(
    %X: !tile.tensor<2x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c = tile.concat %y, %z axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %r = tile.matmul %x, %c : !tile.tile<[2, 2], f32>, !tile.tile<[2, 4], f32> -> !tile.tile<[2, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 4], f32>, !tile.tensor<2x4xf32, output>
  tile.yield %st
}

// Start: 3-d tiles, x @ concat(y, z, 2)
tile.program @blocked(
    %X: !tile.tensor<1x2x2xf32, input>,
    %Y: !tile.tensor<1x2x2xf32, input>,
    %Z: !tile.tensor<1x2x2xf32, input>,
    %O: !tile.tensor<1x2x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %y = tile.load %Y[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %z = tile.load %Z[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %c = tile.concat %y, %z axis 2 : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 4], f32>
  %r = tile.matmul %x, %c : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 4], f32> -> !tile.tile<[1, 2, 4], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 2, 4], f32>, !tile.tensor<1x2x4xf32, output>
  tile.yield %st
}
