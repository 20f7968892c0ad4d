// RUN: not tile-opt %s --tile-saturate="only=geometry-of-concat-inv iterations=1 backoff=false propagate=false goal=%S/Inputs/geometry-of-concat-inv.mlir" -o /dev/null 2>&1 | FileCheck %s

// geometry-of-concat-inv: concat(concat(x, y, 1), concat(z, w, 1), 0) -> concat(concat(x, z, 0), concat(y, w, 0), 1),
// guarded by Concatenable(x, z, 0) and Concatenable(y, w, 0).

// @fires: four 2x2 blocks; the rule adds the column-major blocking
// CHECK-DAG: remark: goal @fires is represented
// @blocked: x has 1 column and z 2 (Concatenable(x, z, 0) is false): the column-major blocking is not a valid program, so the goal swaps the row order instead; it must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: four 2x2 blocks
tile.program @fires(
    %X: !tile.tensor<2x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %W: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c0 = tile.concat %x, %y axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %c1 = tile.concat %z, %w axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %r = tile.concat %c0, %c1 axis 0 : !tile.tile<[2, 4], f32>, !tile.tile<[2, 4], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: x has 1 column and z 2 (Concatenable(x, z, 0) is false): the column-major blocking is not a valid program, so the goal swaps the row order instead
tile.program @blocked(
    %X: !tile.tensor<2x1xf32, input>,
    %Y: !tile.tensor<2x3xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %W: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x1xf32, input> -> !tile.tile<[2, 1], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x3xf32, input> -> !tile.tile<[2, 3], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c0 = tile.concat %x, %y axis 1 : !tile.tile<[2, 1], f32>, !tile.tile<[2, 3], f32> -> !tile.tile<[2, 4], f32>
  %c1 = tile.concat %z, %w axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %r = tile.concat %c0, %c1 axis 0 : !tile.tile<[2, 4], f32>, !tile.tile<[2, 4], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
