// RUN: not tile-opt %s --tile-saturate="only=operator-comm6-inv iterations=1 backoff=false propagate=false goal=%S/Inputs/operator-comm6-inv.mlir" -o /dev/null 2>&1 | FileCheck %s

// operator-comm6-inv: concat(x + y, z + w, a) -> concat(x, z, a) + concat(y, w, a) (no guard; both operands must be tile.add).

// @fires: O = concat(x + y, z + w, 0); the rule adds concat(x, z, 0) + concat(y, w, 0)
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = concat(x - y, z - w, 0); concat(x, z, 0) + concat(y, w, 0) must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = concat(x + y, z + w, 0)
tile.program @fires(
    %X: !tile.tensor<2x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %W: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<4x2xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %a = tile.add %x, %y : !tile.tile<[2, 2], f32>
  %b = tile.add %z, %w : !tile.tile<[2, 2], f32>
  %r = tile.concat %a, %b axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 2], f32>, !tile.tensor<4x2xf32, output>
  tile.yield %st
}

// Start: O = concat(x - y, z - w, 0)
tile.program @blocked(
    %X: !tile.tensor<2x2xf32, input>,
    %Y: !tile.tensor<2x2xf32, input>,
    %Z: !tile.tensor<2x2xf32, input>,
    %W: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<4x2xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %y = tile.load %Y[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %z = tile.load %Z[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %a = tile.sub %x, %y : !tile.tile<[2, 2], f32>
  %b = tile.sub %z, %w : !tile.tile<[2, 2], f32>
  %r = tile.concat %a, %b axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 2], f32>, !tile.tensor<4x2xf32, output>
  tile.yield %st
}
