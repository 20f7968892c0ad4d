// Goals for recip-mul-div.mlir (rule recip-mul-div).

// The rewritten form: O = splat 1.0.
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %r = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// The form the rule must not produce here: O = splat 1.0.
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %r = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
