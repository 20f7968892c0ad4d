// Goals for loop-insertion-recompute-tail.mlir (rule loop-insertion-recompute-tail).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %in = tile.seq %b1, %b2
  %rb = tile.seq %reset, %in
  %l = tile.loop %i = 0 to 16 step %c4 body %rb
  %lt = tile.seq %l, %t
  tile.yield %lt
}

// The form the rule must not produce here.
tile.program @writes_input(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %Q[%full, %tj] : !tile.tensor<4x16xf32, inout> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %Q[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, inout>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %in = tile.seq %b1, %b2
  %rb = tile.seq %reset, %in
  %l = tile.loop %i = 0 to 16 step %c4 body %rb
  %lt = tile.seq %l, %t
  tile.yield %lt
}

// The form the rule must not produce here.
tile.program @two_writers(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s0 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a0 = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %r0 = tile.rsum %a0, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %n0 = tile.add %s0, %r0 : !tile.tile<[4], f32>
  %early = tile.store %n0, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %in = tile.seq %b1, %b2
  %rb = tile.seq %reset, %in
  %l = tile.loop %i = 0 to 16 step %c4 body %rb
  %lt = tile.seq %l, %t
  %top = tile.seq %early, %lt
  tile.yield %top
}

// The form the rule must not produce here.
tile.program @no_read(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %b2 = tile.store %y, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %in = tile.seq %b1, %b2
  %rb = tile.seq %reset, %in
  %l = tile.loop %i = 0 to 16 step %c4 body %rb
  %lt = tile.seq %l, %t
  tile.yield %lt
}

// The form the rule must not produce here.
tile.program @matmul(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %w = tile.load %W[%tj, %full] : !tile.tensor<16x16xf32, input> -> !tile.tile<[4, 16], f32>
  %xw = tile.matmul %x, %w : !tile.tile<[4, 4], f32>, !tile.tile<[4, 16], f32> -> !tile.tile<[4, 16], f32>
  %r = tile.rsum %xw, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %in = tile.seq %b1, %b2
  %rb = tile.seq %reset, %in
  %l = tile.loop %i = 0 to 16 step %c4 body %rb
  %lt = tile.seq %l, %t
  tile.yield %lt
}
