// Goals for concat-and-matmul1-inv.mlir (rule concat-and-matmul1-inv).

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
  %x = tile.matmul %a, %b : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %y = tile.matmul %c, %d : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %r = tile.add %x, %y : !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}

// The prevented form is ill-typed; the goal is the start plus a well-typed stand-in term (weak check).
tile.program @blocked(
    %A: !tile.tensor<2x1xf32, input>,
    %B: !tile.tensor<2x2xf32, input>,
    %C: !tile.tensor<2x3xf32, input>,
    %D: !tile.tensor<2x2xf32, input>,
    %O: !tile.tensor<2x2xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<2x1xf32, input> -> !tile.tile<[2, 1], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<2x3xf32, input> -> !tile.tile<[2, 3], f32>
  %d = tile.load %D[%full, %full] : !tile.tensor<2x2xf32, input> -> !tile.tile<[2, 2], f32>
  %l = tile.concat %a, %c axis 1 : !tile.tile<[2, 1], f32>, !tile.tile<[2, 3], f32> -> !tile.tile<[2, 4], f32>
  %k = tile.concat %b, %d axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r = tile.matmul %l, %k : !tile.tile<[2, 4], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[2, 2], f32>
  // What the rule would build if it ignored Contractible: a @ b is ill-typed here, so the goal names
  // the well-typed term concat(a, c, 1) @ concat(d, b, 0) instead (contraction rows swapped).
  %k2 = tile.concat %d, %b axis 0 : !tile.tile<[2, 2], f32>, !tile.tile<[2, 2], f32> -> !tile.tile<[4, 2], f32>
  %r2 = tile.matmul %l, %k2 : !tile.tile<[2, 4], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[2, 2], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  tile.yield %st
}
