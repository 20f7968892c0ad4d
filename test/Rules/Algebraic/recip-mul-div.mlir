// RUN: not tile-opt %s --tile-saturate="only=recip-mul-div iterations=1 backoff=false propagate=false goal=%S/Inputs/recip-mul-div.mlir" -o /dev/null 2>&1 | FileCheck %s

// recip-mul-div: x * (1 / x) -> splat 1.0, guarded by IsSplat(one, 1.0) and NonZero(x).

// @fires: x = exp(a) is non-zero; the rule adds the splat 1.0
// CHECK-DAG: remark: goal @fires is represented
// @blocked: x = a, a loaded tile that may hold zeros (NonZero is false); the splat 1.0 must not replace x * (1 / x)
// CHECK-DAG: error: goal @blocked is not represented

// Start: O = exp(a) * (1 / exp(a))
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %one = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %x = tile.exp %a : !tile.tile<[4, 4], f32>
  %q = tile.div %one, %x : !tile.tile<[4, 4], f32>
  %r = tile.mul %x, %q : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// Start: O = a * (1 / a)
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %one = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %q = tile.div %one, %a : !tile.tile<[4, 4], f32>
  %r = tile.mul %a, %q : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
