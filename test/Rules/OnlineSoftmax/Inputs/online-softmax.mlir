// Goals of online-softmax.mlir: the fused loops (see there).

tile.program @fires(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %ninf = tile.constant -inf : !tile.tile<[4], f32>
  %none = tile.cmp eq, %mn, %ninf : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  %zero = tile.constant 0.0 : !tile.tile<[4], f32>
  %safe = tile.select %none, %zero, %mn : !tile.tile<[4], i1>, !tile.tile<[4], f32>
  %dm = tile.sub %m, %safe : !tile.tile<[4], f32>
  %dmc = tile.min %dm, %zero : !tile.tile<[4], f32>
  %alpha = tile.exp %dmc : !tile.tile<[4], f32>
  %mb = tile.bcast %safe [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %zs = tile.mul %z, %alpha : !tile.tile<[4], f32>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %zs, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %pv = tile.matmul %e, %v : !tile.tile<[4, 4], f32>, !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %ab = tile.bcast %alpha [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %as = tile.mul %a, %ab : !tile.tile<[4, 8], f32>
  %a2 = tile.add %as, %pv : !tile.tile<[4, 8], f32>
  %s3 = tile.store %a2, %A[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %b3 = tile.seq %s3, %s1
  %b2 = tile.seq %s2, %b3
  %l = tile.loop %r = 0 to 16 step %c4 body %b2
  %fin = tile.store %a, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %whole = tile.seq %l, %fin
  tile.yield %whole
}

tile.program @not_zero_start(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %ninf = tile.constant -inf : !tile.tile<[4], f32>
  %none = tile.cmp eq, %mn, %ninf : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  %zero = tile.constant 0.0 : !tile.tile<[4], f32>
  %safe = tile.select %none, %zero, %mn : !tile.tile<[4], i1>, !tile.tile<[4], f32>
  %dm = tile.sub %m, %safe : !tile.tile<[4], f32>
  %dmc = tile.min %dm, %zero : !tile.tile<[4], f32>
  %alpha = tile.exp %dmc : !tile.tile<[4], f32>
  %mb = tile.bcast %safe [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %zs = tile.mul %z, %alpha : !tile.tile<[4], f32>
  %one = tile.constant 1.0 : !tile.tile<[4], f32>
  %s0 = tile.store %one, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %zs, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b2 = tile.seq %s2, %s1
  %l = tile.loop %r = 0 to 16 step %c4 body %b2
  %root = tile.seq %s0, %l
  %fin = tile.store %a, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %whole = tile.seq %root, %fin
  tile.yield %whole
}

tile.program @affine(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %ninf = tile.constant -inf : !tile.tile<[4], f32>
  %none = tile.cmp eq, %mn, %ninf : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  %zero = tile.constant 0.0 : !tile.tile<[4], f32>
  %safe = tile.select %none, %zero, %mn : !tile.tile<[4], i1>, !tile.tile<[4], f32>
  %dm = tile.sub %m, %safe : !tile.tile<[4], f32>
  %dmc = tile.min %dm, %zero : !tile.tile<[4], f32>
  %alpha = tile.exp %dmc : !tile.tile<[4], f32>
  %mb = tile.bcast %safe [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %zs = tile.mul %z, %alpha : !tile.tile<[4], f32>
  %one = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  %e1 = tile.add %e, %one : !tile.tile<[4, 4], f32>
  %se = tile.rsum %e1, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %zs, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b2 = tile.seq %s2, %s1
  %l = tile.loop %r = 0 to 16 step %c4 body %b2
  %fin = tile.store %a, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %whole = tile.seq %l, %fin
  tile.yield %whole
}

tile.program @reads_accumulator(
    %X: !tile.tensor<4x16xf32, input>,
    %V: !tile.tensor<16x8xf32, input>,
    %M: !tile.tensor<4xf32, intermediate>,
    %Z: !tile.tensor<4xf32, intermediate>,
    %A: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %r = tile.var "r"
  %c4 = tile.size 4
  %tr = tile.tile %r
  %x = tile.load %X[%full, %tr] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %xm = tile.rmax %x, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %mn = tile.max %m, %xm : !tile.tile<[4], f32>
  %s1 = tile.store %mn, %M[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l1 = tile.loop %r = 0 to 16 step %c4 body %s1
  %v = tile.load %V[%tr, %full] : !tile.tensor<16x8xf32, input> -> !tile.tile<[4, 8], f32>
  %z = tile.load %Z[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %ninf = tile.constant -inf : !tile.tile<[4], f32>
  %none = tile.cmp eq, %mn, %ninf : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  %zero = tile.constant 0.0 : !tile.tile<[4], f32>
  %safe = tile.select %none, %zero, %mn : !tile.tile<[4], i1>, !tile.tile<[4], f32>
  %dm = tile.sub %m, %safe : !tile.tile<[4], f32>
  %dmc = tile.min %dm, %zero : !tile.tile<[4], f32>
  %alpha = tile.exp %dmc : !tile.tile<[4], f32>
  %mb = tile.bcast %safe [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %d = tile.sub %x, %mb : !tile.tile<[4, 4], f32>
  %e = tile.exp %d : !tile.tile<[4, 4], f32>
  %zs = tile.mul %z, %alpha : !tile.tile<[4], f32>
  %se = tile.rsum %e, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %z2 = tile.add %zs, %se : !tile.tile<[4], f32>
  %s2 = tile.store %z2, %Z[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %zb = tile.bcast %z [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %ez = tile.mul %e, %zb : !tile.tile<[4, 4], f32>
  %pv = tile.matmul %ez, %v : !tile.tile<[4, 4], f32>, !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %ab = tile.bcast %alpha [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %as = tile.mul %a, %ab : !tile.tile<[4, 8], f32>
  %a2 = tile.add %as, %pv : !tile.tile<[4, 8], f32>
  %s3 = tile.store %a2, %A[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %b3 = tile.seq %s3, %s1
  %b2 = tile.seq %s2, %b3
  %l = tile.loop %r = 0 to 16 step %c4 body %b2
  %fin = tile.store %a, %O[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %whole = tile.seq %l, %fin
  tile.yield %whole
}
