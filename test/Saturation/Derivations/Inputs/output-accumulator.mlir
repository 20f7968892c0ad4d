// Goals of ../output-accumulator.mlir (from test/Rules/Factoring).

tile.program @fires_output(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %sm = tile.mul %s, %m : !tile.tile<[4], f32>
  %n = tile.add %sm, %a : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  %f = tile.div %s, %d : !tile.tile<[4], f32>
  %fx = tile.store %f, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %r = tile.seq %l, %fx
  tile.yield %r
}

tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, inout>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, inout> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %sm = tile.mul %s, %m : !tile.tile<[4], f32>
  %n = tile.add %sm, %a : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, inout>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  %f = tile.div %s, %d : !tile.tile<[4], f32>
  %fx = tile.store %f, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, inout>
  %r = tile.seq %l, %fx
  tile.yield %r
}
