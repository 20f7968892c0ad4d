// Goals for operator-comm7-inv.mlir (rule operator-comm7-inv).

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
  %c0 = tile.concat %x, %z axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %c1 = tile.concat %y, %w axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.mul %c0, %c1 : !tile.tile<[4, 2], f32>
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
  %c0 = tile.concat %x, %z axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %c1 = tile.concat %y, %w axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.mul %c0, %c1 : !tile.tile<[4, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 2], f32>, !tile.tensor<4x2xf32, output>
  tile.yield %st
}
