// Goals for loop-fusion.mlir (rule loop-fusion).

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
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%ti] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %bb = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %bb
  %r = tile.seq %l, %t
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
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%hi] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %bb = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %bb
  %r = tile.seq %l, %t
  tile.yield %r
}

// The fused form of @exact; it must be in the e-graph.
tile.program @exact(
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
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%lo] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %bb = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %bb
  %r = tile.seq %l, %t
  tile.yield %r
}
