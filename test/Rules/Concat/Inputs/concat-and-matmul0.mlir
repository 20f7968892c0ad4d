// Goals for concat-and-matmul0.mlir (rule concat-and-matmul0).

// The rewritten form; it must be in the e-graph.
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

// The form the rule must not produce here.
tile.program @blocked(
    %X: !tile.tensor<1x2x2xf32, input>,
    %Y: !tile.tensor<1x2x2xf32, input>,
    %Z: !tile.tensor<1x2x2xf32, input>,
    %O: !tile.tensor<1x2x4xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %y = tile.load %Y[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %z = tile.load %Z[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %a = tile.matmul %x, %y : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %b = tile.matmul %x, %z : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %r = tile.concat %a, %b axis 2 : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 4], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 2, 4], f32>, !tile.tensor<1x2x4xf32, output>
  tile.yield %st
}
