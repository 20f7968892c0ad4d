// RUN: not tile-opt %s --tile-saturate="only=geometry-of-concat iterations=1 backoff=false propagate=false goal=%S/Inputs/geometry-of-concat.mlir" -o /dev/null 2>&1 | FileCheck %s

// geometry-of-concat: concat(concat(x, z, 0), concat(y, w, 0), 1) -> concat(concat(x, y, 1), concat(z, w, 1), 0),
// guarded by Concatenable(x, y, 1) and Concatenable(z, w, 1).

// @fires: four 2x2 blocks; the rule adds the row-major blocking
// CHECK-DAG: remark: goal @fires is represented
// @blocked: x has 1 row and y 2 (Concatenable(x, y, 1) is false): the row-major blocking does not exist. It is not a valid program either, so the goal is the start program with its root replaced by the only other blocking of the same tiles, rows first (swapping the column order); it must not appear
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
  %c0 = tile.concat %x, %z axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %c1 = tile.concat %y, %w axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.concat %c0, %c1 axis 1 : !tile.tile<[4, 2], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: x has 1 row and y 2 (Concatenable(x, y, 1) is false): the row-major blocking does not exist. It is not a valid program either, so the goal is the start program with its root replaced by the only other blocking of the same tiles, rows first (swapping the column order)
tile.program @blocked(
    %X: !tile.tensor<1x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<3x2xf32, input>,
    %W: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<1x2xf32, input> -> !tile.tile<[1, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<3x2xf32, input> -> !tile.tile<[3, 2], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c0 = tile.concat %x, %z axis 0 : !tile.tile<[1, 2], f32>, !tile.tile<[3, 2], f32> -> !tile.tile<[4, 2], f32>
  %c1 = tile.concat %y, %w axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.concat %c0, %c1 axis 1 : !tile.tile<[4, 2], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
