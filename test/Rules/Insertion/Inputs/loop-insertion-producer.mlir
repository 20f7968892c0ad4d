// Goals for loop-insertion-producer.mlir (rule loop-insertion-producer).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %in = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %in
  tile.yield %l
}

// The form the rule must not produce here.
tile.program @writes_input(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %Q[%full, %tj] : !tile.tensor<4x16xf32, inout> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %Q[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, inout>
  %in = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %in
  tile.yield %l
}

// The form the rule must not produce here.
tile.program @reads_own(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %old = tile.load %N[%full, %tj] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 4], f32>
  %y2 = tile.add %y, %old : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %in = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %in
  tile.yield %l
}

// The form the rule must not produce here.
tile.program @matmul(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %w = tile.load %W[%tj, %tj] : !tile.tensor<16x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.matmul %y, %w : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %in = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %in
  tile.yield %l
}

// The form the rule must not produce here.
tile.program @sliced(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %ti] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.add %a, %nv : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %in = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %in
  tile.yield %l
}
