module {
  tile.program @sm_c3(%X: !tile.tensor<8x32xf32, input>, %W: !tile.tensor<32x16xf32, input>, %t0: !tile.tensor<8xf32, intermediate>, %t1: !tile.tensor<8xf32, intermediate>, %Y: !tile.tensor<8x16xf32, output>) attributes {tile.check_error = 3.2562245905004764E-16 : f64, tile.estimated_us = 2.0791161904761903 : f64, tile.kernels = 2 : i64, tile.results = ["Y"], tile.value_cost = 65797.800225753133 : f64} {
    %0 = tile.constant nan : !tile.tile<[8], f32>
    %1 = tile.full
    %2 = tile.store %0, %t0[%1] : !tile.tile<[8], f32>, !tile.tensor<8xf32, intermediate>
    %i0 = tile.var "i0"
    %tile_i0 = tile.size "tile_i0"
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %3 = tile.tile %i0
    %4 = tile.load %t0[%3] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %5 = tile.tile %r0
    %6 = tile.load %X[%3, %5] : !tile.tensor<8x32xf32, input> -> !tile.tile<[tile_i0, tile_r0], f32>
    %7 = tile.rmax %6, 1 : !tile.tile<[tile_i0, tile_r0], f32> -> !tile.tile<[tile_i0], f32>
    %8 = tile.max %4, %7 : !tile.tile<[tile_i0], f32>
    %9 = tile.store %8, %t0[%3] : !tile.tile<[tile_i0], f32>, !tile.tensor<8xf32, intermediate>
    %10 = tile.loop %r0 = 0 to 32 step %tile_r0 body %9
    %11 = tile.load %t1[%3] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %12 = tile.load %X[%3, %5] : !tile.tensor<8x32xf32, input> -> !tile.tile<[tile_i0, tile_r0], f32>
    %13 = tile.load %t0[%3] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %14 = tile.bcast %13 [1] : !tile.tile<[tile_i0], f32> -> !tile.tile<[tile_i0, tile_r0], f32>
    %15 = tile.sub %12, %14 : !tile.tile<[tile_i0, tile_r0], f32>
    %16 = tile.exp %15 : !tile.tile<[tile_i0, tile_r0], f32>
    %17 = tile.rsum %16, 1 : !tile.tile<[tile_i0, tile_r0], f32> -> !tile.tile<[tile_i0], f32>
    %18 = tile.add %11, %17 : !tile.tile<[tile_i0], f32>
    %19 = tile.store %18, %t1[%3] : !tile.tile<[tile_i0], f32>, !tile.tensor<8xf32, intermediate>
    %20 = tile.loop %r0 = 0 to 32 step %tile_r0 body %19
    %21 = tile.load %Y[%3, %1] : !tile.tensor<8x16xf32, output> -> !tile.tile<[tile_i0, 16], f32>
    %22 = tile.load %X[%3, %5] : !tile.tensor<8x32xf32, input> -> !tile.tile<[tile_i0, tile_r0], f32>
    %23 = tile.load %t0[%3] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %24 = tile.bcast %23 [1] : !tile.tile<[tile_i0], f32> -> !tile.tile<[tile_i0, tile_r0], f32>
    %25 = tile.sub %22, %24 : !tile.tile<[tile_i0, tile_r0], f32>
    %26 = tile.exp %25 : !tile.tile<[tile_i0, tile_r0], f32>
    %27 = tile.load %W[%5, %1] : !tile.tensor<32x16xf32, input> -> !tile.tile<[tile_r0, 16], f32>
    %28 = tile.matmul %26, %27 : !tile.tile<[tile_i0, tile_r0], f32>, !tile.tile<[tile_r0, 16], f32> -> !tile.tile<[tile_i0, 16], f32>
    %29 = tile.load %t1[%3] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %30 = tile.bcast %29 [1] : !tile.tile<[tile_i0], f32> -> !tile.tile<[tile_i0, 16], f32>
    %31 = tile.div %28, %30 : !tile.tile<[tile_i0, 16], f32>
    %32 = tile.add %21, %31 : !tile.tile<[tile_i0, 16], f32>
    %33 = tile.store %32, %Y[%3, %1] : !tile.tile<[tile_i0, 16], f32>, !tile.tensor<8x16xf32, output>
    %34 = tile.loop %r0 = 0 to 32 step %tile_r0 body %33
    %35 = tile.seq %20, %34
    %36 = tile.seq %10, %35
    %37 = tile.loop %i0 = 0 to 8 step %tile_i0 body %36
    %38 = tile.seq %2, %37
    tile.yield %38
  }
}
