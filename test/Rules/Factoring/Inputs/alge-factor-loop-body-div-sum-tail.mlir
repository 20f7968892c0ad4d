// Goals for alge-factor-loop-body-div-sum-tail.mlir (rule alge-factor-loop-body-div-sum-tail).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %n = tile.add %s, %a : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  %f = tile.div %s, %d : !tile.tile<[4], f32>
  %fx = tile.store %f, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %t = tile.store %sv, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %ft = tile.seq %fx, %t
  %r = tile.seq %l, %ft
  tile.yield %r
}

// The factored loop must not appear: with d = E[i] the full factored form is not a valid program, so the goal is the start program plus the new loop the rule would build.
tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %E[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %q = tile.div %a, %d : !tile.tile<[4], f32>
  %n = tile.add %s, %q : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %t = tile.store %sv, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %r = tile.seq %l, %t
  // The loop the rule would build (unused): loop i (S = S + a).
  %n2 = tile.add %s, %a : !tile.tile<[4], f32>
  %b2 = tile.store %n2, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l2 = tile.loop %i = 0 to 16 step %c4 body %b2
  tile.yield %r
}
