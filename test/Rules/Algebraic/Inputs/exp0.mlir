// Goals for exp0.mlir (rule exp0).

// The rewritten form: O = splat 1.0.
tile.program @fires(
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %r = tile.constant 1.0 : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// The form the rule must not produce here: O = splat 1.0.
tile.program @blocked(
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %r = tile.constant 1.0 : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}
