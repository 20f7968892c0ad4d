// RUN: not tile-opt %s --tile-saturate="only=exp0 iterations=1 backoff=false propagate=false goal=%S/Inputs/exp0.mlir" -o /dev/null 2>&1 | FileCheck %s

// exp0: exp(z) -> splat 1.0, guarded by IsSplat(z, 0.0).

// @fires: O = exp(splat 0.0); the rule adds the splat 1.0
// CHECK-DAG: remark: goal @fires is represented
// @blocked: O = exp(dense [[0, 0], [0, 1]]), not a splat (IsSplat is false); the splat 1.0 must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = exp(splat 0.0)
tile.program @fires(
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %z = tile.constant 0.0 : !tile.tile<[2, 2], f32>
  %r = tile.exp %z : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// Start: O = exp(z) with z zero except one element
tile.program @blocked(
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %z = tile.constant dense<[[0.0, 0.0], [0.0, 1.0]]> : !tile.tile<[2, 2], f32>
  %r = tile.exp %z : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}
