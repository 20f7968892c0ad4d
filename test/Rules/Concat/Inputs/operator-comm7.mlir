// Goals for operator-comm7.mlir (rule operator-comm7).

// The rewritten form; it must be in the e-graph.
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
  %a = tile.mul %x, %y : !tile.tile<[2, 2], f32>
  %b = tile.mul %z, %w : !tile.tile<[2, 2], f32>
  %r = tile.concat %a, %b axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 2], f32>, !tile.tensor<4x2xf32, output>
  tile.yield %st
}

// The form the rule must not produce here.
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
  %a = tile.mul %x, %y : !tile.tile<[2, 2], f32>
  %b = tile.mul %z, %w : !tile.tile<[2, 2], f32>
  %r = tile.concat %a, %b axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 2], f32>, !tile.tensor<4x2xf32, output>
  tile.yield %st
}
