// Goals for concat-and-matmul0-inv.mlir (rule concat-and-matmul0-inv).

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
  %c = tile.concat %y, %z axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %r = tile.matmul %x, %c : !tile.tile<[2, 2], f32>, !tile.tile<[2, 4], f32> -> !tile.tile<[2, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 4], f32>, !tile.tensor<2x4xf32, output>
  tile.yield %st
}

// The start program plus the term concat(y, z, 1) the rule would build; it must not appear.
tile.program @blocked(
    %X: !tile.tensor<1x2x4xf32, input>,
    %Y: !tile.tensor<1x4x3xf32, input>,
    %Z: !tile.tensor<1x4x3xf32, input>,
    %O: !tile.tensor<1x4x3xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full, %full, %full] : !tile.tensor<1x2x4xf32, input> -> !tile.tile<[1, 2, 4], f32>
  %y = tile.load %Y[%full, %full, %full] : !tile.tensor<1x4x3xf32, input> -> !tile.tile<[1, 4, 3], f32>
  %z = tile.load %Z[%full, %full, %full] : !tile.tensor<1x4x3xf32, input> -> !tile.tile<[1, 4, 3], f32>
  %a = tile.matmul %x, %y : !tile.tile<[1, 2, 4], f32>, !tile.tile<[1, 4, 3], f32> -> !tile.tile<[1, 2, 3], f32>
  %b = tile.matmul %x, %z : !tile.tile<[1, 2, 4], f32>, !tile.tile<[1, 4, 3], f32> -> !tile.tile<[1, 2, 3], f32>
  %r = tile.concat %a, %b axis 1 : !tile.tile<[1, 2, 3], f32>, !tile.tile<[1, 2, 3], f32> -> !tile.tile<[1, 4, 3], f32>
  // The operand the rule would build (unused); x @ concat(y, z, 1) itself is ill-typed.
  %yz = tile.concat %y, %z axis 1 : !tile.tile<[1, 4, 3], f32>, !tile.tile<[1, 4, 3], f32> -> !tile.tile<[1, 8, 3], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 4, 3], f32>, !tile.tensor<1x4x3xf32, output>
  tile.yield %st
}
