// RUN: not tile-opt %s --tile-saturate="only=concat-and-matmul0-inv iterations=1 backoff=false propagate=false goal=%S/Inputs/concat-and-matmul0-inv.mlir" -o /dev/null 2>&1 | FileCheck %s

// concat-and-matmul0-inv: concat(x @ y, x @ z, 1) -> x @ concat(y, z, 1) for 2-d tiles, guarded by RankIs(x, 2)
// and Concatenable(y, z, 1).

// @fires: concat(x @ y, x @ z, 1) with 2x2 tiles; the rule adds x @ concat(y, z, 1)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: 3-d tiles: axis 1 stacks the rows of x @ y and x @ z, and concat(y, z, 1) stacks contraction rows (RankIs is false); the rule must not build concat(y, z, 1)
// CHECK-DAG: error: goal @blocked is not represented

// Start: concat(x @ y, x @ z, 1) with 2x2 tiles
tile.program @fires(
    %X: !tile.tensor<2x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %a = tile.matmul %x, %y : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %b = tile.matmul %x, %z : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %r = tile.concat %a, %b axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 4], f32>, !tile.tensor<2x4xf32, output>
  tile.yield %st
}

// Start: 3-d tiles: axis 1 stacks the rows of x @ y and x @ z, and concat(y, z, 1) stacks contraction rows (RankIs is false)
tile.program @blocked(
    %X: !tile.tensor<1x2x4xf32, input>,
    %Y: !tile.tensor<1x4x3xf32, input>,
    %Z: !tile.tensor<1x4x3xf32, input>,
    %O: !tile.tensor<1x4x3xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full, %full] : !tile.tensor<1x2x4xf32, input> -> !tile.tile<[1, 2, 4], f32>
  %y = tile.load %Y[%full, %full, %full] : !tile.tensor<1x4x3xf32, input> -> !tile.tile<[1, 4, 3], f32>
  %z = tile.load %Z[%full, %full, %full] : !tile.tensor<1x4x3xf32, input> -> !tile.tile<[1, 4, 3], f32>
  %a = tile.matmul %x, %y : !tile.tile<[1, 2, 4], f32>, !tile.tile<[1, 4, 3], f32> -> !tile.tile<[1, 2, 3], f32>
  %b = tile.matmul %x, %z : !tile.tile<[1, 2, 4], f32>, !tile.tile<[1, 4, 3], f32> -> !tile.tile<[1, 2, 3], f32>
  %r = tile.concat %a, %b axis 1 : !tile.tile<[1, 2, 3], f32>, !tile.tile<[1, 2, 3], f32> -> !tile.tile<[1, 4, 3], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 4, 3], f32>, !tile.tensor<1x4x3xf32, output>
  tile.yield %st
}
