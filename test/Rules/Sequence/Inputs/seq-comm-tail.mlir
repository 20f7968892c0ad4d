// Goals for seq-comm-tail.mlir (rule seq-comm-tail).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s1v = tile.load %A[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s1 = tile.store %s1v, %O[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %s2v = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s2 = tile.store %s2v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %s3v = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s3 = tile.store %s3v, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %t1 = tile.seq %s1, %s3
  %r = tile.seq %s2, %t1
  tile.yield %r
}

// The form the rule must not produce here.
tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s1v = tile.load %A[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s1 = tile.store %s1v, %X[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %s2v = tile.load %X[%full] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %s2 = tile.store %s2v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %s3v = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s3 = tile.store %s3v, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %t1 = tile.seq %s1, %s3
  %r = tile.seq %s2, %t1
  tile.yield %r
}
