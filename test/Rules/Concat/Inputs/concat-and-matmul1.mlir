// Goals for concat-and-matmul1.mlir (rule concat-and-matmul1).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<2x2xf32, input>,
    %B: !tile.tensor<2x2xf32, input>,
    %C: !tile.tensor<2x2xf32, input>,
    %D: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %l = tile.concat %a, %c axis 1 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 4], f32>
  %k = tile.concat %b, %d axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.matmul %l, %k : !tile.tile<[2, 4], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// The start program plus the term concat(a, c, 1) the rule would build; it must not appear.
tile.program @blocked(
    %A: !tile.tensor<1x2x2xf32, input>,
    %B: !tile.tensor<1x2x2xf32, input>,
    %C: !tile.tensor<1x2x2xf32, input>,
    %D: !tile.tensor<1x2x2xf32, input>,
    %O: !tile.tensor<1x2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %b = tile.load %B[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %c = tile.load %C[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %d = tile.load %D[%full, %full, %full] : !tile.tensor<1x2x2xf32, input> -> !tile.tile<[1, 2, 2], f32>
  %x = tile.matmul %a, %b : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %y = tile.matmul %c, %d : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 2, 2], f32>
  %r = tile.add %x, %y : !tile.tile<[1, 2, 2], f32>
  // The operand the rule would build (unused): it stacks rows, not contraction columns.
  %ac = tile.concat %a, %c axis 1 : !tile.tile<[1, 2, 2], f32>, !tile.tile<[1, 2, 2], f32> -> !tile.tile<[1, 4, 2], f32>
  %st = tile.store %r, %O[%full, %full, %full] : !tile.tile<[1, 2, 2], f32>, !tile.tensor<1x2x2xf32, output>
  tile.yield %st
}
