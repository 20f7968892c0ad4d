module {
  tile.program @rms_c0(%X: !tile.tensor<16x256xf16, input>, %g: !tile.tensor<256xf16, input>, %W: !tile.tensor<256x256xf16, input>, %R: !tile.tensor<16x256xf16, input>, %t0: !tile.tensor<16xf32, intermediate>, %t1: !tile.tensor<16x256xf16, intermediate>, %t2: !tile.tensor<16x256xf32, intermediate>, %Y: !tile.tensor<16x256xf16, output>) attributes {tile.check_error = 3.0531131148810192E-16 : f64, tile.estimated_us = 3.5317180952380953 : f64, tile.kernels = 1 : i64, tile.results = ["Y"], tile.value_cost = 285037.25973903417 : f64} {
    %i1 = tile.var "i1"
    %tile_i1 = tile.size "tile_i1"
    %0 = tile.constant 0.000000e+00 : !tile.tile<[16], f32>
    %1 = tile.full
    %2 = tile.store %0, %t0[%1] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %3 = tile.load %t0[%1] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
    %4 = tile.tile %r0
    %5 = tile.load %X[%1, %4] : !tile.tensor<16x256xf16, input> -> !tile.tile<[16, tile_r0], f16>
    %6 = tile.cast %5 : !tile.tile<[16, tile_r0], f16> -> !tile.tile<[16, tile_r0], f32>
    %7 = tile.mul %6, %6 : !tile.tile<[16, tile_r0], f32>
    %8 = tile.rsum %7, 1 : !tile.tile<[16, tile_r0], f32> -> !tile.tile<[16], f32>
    %9 = tile.add %3, %8 : !tile.tile<[16], f32>
    %10 = tile.store %9, %t0[%1] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
    %11 = tile.loop %r0 = 0 to 256 step %tile_r0 body %10
    %12 = tile.tile %i1
    %13 = tile.load %t2[%1, %12] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[16, tile_i1], f32>
    %14 = tile.load %X[%1, %4] : !tile.tensor<16x256xf16, input> -> !tile.tile<[16, tile_r0], f16>
    %15 = tile.cast %14 : !tile.tile<[16, tile_r0], f16> -> !tile.tile<[16, tile_r0], f32>
    %16 = tile.load %t0[%1] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
    %17 = tile.bcast %16 [1] : !tile.tile<[16], f32> -> !tile.tile<[16, tile_r0], f32>
    %18 = tile.constant 2.560000e+02 : !tile.tile<[16, tile_r0], f32>
    %19 = tile.div %17, %18 : !tile.tile<[16, tile_r0], f32>
    %20 = tile.constant 9.99999974E-6 : !tile.tile<[16, tile_r0], f32>
    %21 = tile.add %19, %20 : !tile.tile<[16, tile_r0], f32>
    %22 = tile.rsqrt %21 : !tile.tile<[16, tile_r0], f32>
    %23 = tile.mul %15, %22 : !tile.tile<[16, tile_r0], f32>
    %24 = tile.load %g[%4] : !tile.tensor<256xf16, input> -> !tile.tile<[tile_r0], f16>
    %25 = tile.bcast %24 [0] : !tile.tile<[tile_r0], f16> -> !tile.tile<[16, tile_r0], f16>
    %26 = tile.cast %25 : !tile.tile<[16, tile_r0], f16> -> !tile.tile<[16, tile_r0], f32>
    %27 = tile.mul %23, %26 : !tile.tile<[16, tile_r0], f32>
    %28 = tile.cast %27 : !tile.tile<[16, tile_r0], f32> -> !tile.tile<[16, tile_r0], f16>
    %29 = tile.load %W[%4, %12] : !tile.tensor<256x256xf16, input> -> !tile.tile<[tile_r0, tile_i1], f16>
    %30 = tile.matmul %28, %29 : !tile.tile<[16, tile_r0], f16>, !tile.tile<[tile_r0, tile_i1], f16> -> !tile.tile<[16, tile_i1], f32>
    %31 = tile.add %13, %30 : !tile.tile<[16, tile_i1], f32>
    %32 = tile.store %31, %t2[%1, %12] : !tile.tile<[16, tile_i1], f32>, !tile.tensor<16x256xf32, intermediate>
    %33 = tile.loop %r0 = 0 to 256 step %tile_r0 body %32
    %34 = tile.load %R[%1, %12] : !tile.tensor<16x256xf16, input> -> !tile.tile<[16, tile_i1], f16>
    %35 = tile.cast %34 : !tile.tile<[16, tile_i1], f16> -> !tile.tile<[16, tile_i1], f32>
    %36 = tile.load %t2[%1, %12] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[16, tile_i1], f32>
    %37 = tile.add %35, %36 : !tile.tile<[16, tile_i1], f32>
    %38 = tile.cast %37 : !tile.tile<[16, tile_i1], f32> -> !tile.tile<[16, tile_i1], f16>
    %39 = tile.store %38, %Y[%1, %12] : !tile.tile<[16, tile_i1], f16>, !tile.tensor<16x256xf16, output>
    %40 = tile.seq %33, %39
    %41 = tile.seq %11, %40
    %42 = tile.seq %2, %41
    %43 = tile.loop %i1 = 0 to 256 step %tile_i1 body %42
    tile.yield %43
  }
}
