// The first candidate of `tile-opt online-causal.mlir --convert-linalg-to-tile
// --tile-optimize`: one kernel, the running max and sum in one loop over the
// keys (the online softmax), P.V in a second loop; all heads in its tiles.
module {
  tile.program @online_causal_c0(%Q: !tile.tensor<2x64x16xf16, input>, %Kc: !tile.tensor<2x64x16xf16, input>, %Vc: !tile.tensor<2x64x16xf16, input>, %t0: !tile.tensor<2x64x64xf32, intermediate>, %t1: !tile.tensor<2x64xf32, intermediate>, %positions2: !tile.tensor<2xf32, positions>, %positions64: !tile.tensor<64xf32, positions>, %t2: !tile.tensor<2x64xf32, intermediate>, %t3: !tile.tensor<2x64x64xf16, intermediate>, %t4: !tile.tensor<2x64x16xf32, intermediate>, %O: !tile.tensor<2x64x16xf16, output>) attributes {tile.check_error = 7.7898185596252171E-17 : f64, tile.emulation = "passed", tile.estimated_us = 2.016888888888889 : f64, tile.kernels = 1 : i64, tile.results = ["O"], tile.value_cost = 119876.24804060002 : f64} {
    %i1 = tile.var "i1"
    %tile_i1 = tile.size "tile_i1"
    %0 = tile.constant -inf : !tile.tile<[2, tile_i1], f32>
    %1 = tile.full
    %2 = tile.tile %i1
    %3 = tile.store %0, %t1[%1, %2] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x64xf32, intermediate>
    %i2 = tile.var "i2"
    %tile_i2 = tile.size "tile_i2"
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %4 = tile.tile %i2
    %5 = tile.load %t0[%1, %2, %4] : !tile.tensor<2x64x64xf32, intermediate> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %6 = tile.tile %r0
    %7 = tile.load %Q[%1, %2, %6] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[2, tile_i1, tile_r0], f16>
    %8 = tile.load %Kc[%1, %4, %6] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[2, tile_i2, tile_r0], f16>
    %9 = tile.permute %8 [0, 2, 1] : !tile.tile<[2, tile_i2, tile_r0], f16> -> !tile.tile<[2, tile_r0, tile_i2], f16>
    %10 = tile.matmul %7, %9 : !tile.tile<[2, tile_i1, tile_r0], f16>, !tile.tile<[2, tile_r0, tile_i2], f16> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %11 = tile.add %5, %10 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %12 = tile.store %11, %t0[%1, %2, %4] : !tile.tile<[2, tile_i1, tile_i2], f32>, !tile.tensor<2x64x64xf32, intermediate>
    %13 = tile.loop %r0 = 0 to 16 step %tile_r0 body %12
    %14 = tile.load %t2[%1, %2] : !tile.tensor<2x64xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %15 = tile.load %t1[%1, %2] : !tile.tensor<2x64xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %16 = tile.load %positions64[%4] : !tile.tensor<64xf32, positions> -> !tile.tile<[tile_i2], f32>
    %17 = tile.bcast %16 [0, 1] : !tile.tile<[tile_i2], f32> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %18 = tile.load %positions64[%2] : !tile.tensor<64xf32, positions> -> !tile.tile<[tile_i1], f32>
    %19 = tile.bcast %18 [0, 2] : !tile.tile<[tile_i1], f32> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %20 = tile.cmp le, %17, %19 : !tile.tile<[2, tile_i1, tile_i2], f32> -> !tile.tile<[2, tile_i1, tile_i2], i1>
    %21 = tile.load %t0[%1, %2, %4] : !tile.tensor<2x64x64xf32, intermediate> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %22 = tile.constant 0.0883883461 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %23 = tile.mul %21, %22 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %24 = tile.constant -inf : !tile.tile<[2, tile_i1, tile_i2], f32>
    %25 = tile.select %20, %23, %24 : !tile.tile<[2, tile_i1, tile_i2], i1>, !tile.tile<[2, tile_i1, tile_i2], f32>
    %26 = tile.rmax %25, 2 : !tile.tile<[2, tile_i1, tile_i2], f32> -> !tile.tile<[2, tile_i1], f32>
    %27 = tile.max %15, %26 : !tile.tile<[2, tile_i1], f32>
    %28 = tile.constant -inf : !tile.tile<[2, tile_i1], f32>
    %29 = tile.cmp eq, %27, %28 : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1], i1>
    %30 = tile.constant 0.000000e+00 : !tile.tile<[2, tile_i1], f32>
    %31 = tile.select %29, %30, %27 : !tile.tile<[2, tile_i1], i1>, !tile.tile<[2, tile_i1], f32>
    %32 = tile.sub %15, %31 : !tile.tile<[2, tile_i1], f32>
    %33 = tile.min %32, %30 : !tile.tile<[2, tile_i1], f32>
    %34 = tile.exp %33 : !tile.tile<[2, tile_i1], f32>
    %35 = tile.mul %14, %34 : !tile.tile<[2, tile_i1], f32>
    %36 = tile.bcast %31 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %37 = tile.sub %25, %36 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %38 = tile.exp %37 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %39 = tile.rsum %38, 2 : !tile.tile<[2, tile_i1, tile_i2], f32> -> !tile.tile<[2, tile_i1], f32>
    %40 = tile.add %35, %39 : !tile.tile<[2, tile_i1], f32>
    %41 = tile.store %40, %t2[%1, %2] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x64xf32, intermediate>
    %42 = tile.store %27, %t1[%1, %2] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x64xf32, intermediate>
    %43 = tile.seq %41, %42
    %44 = tile.seq %13, %43
    %45 = tile.loop %i2 = 0 to 64 step %tile_i2 body %44
    %46 = tile.load %positions64[%1] : !tile.tensor<64xf32, positions> -> !tile.tile<[64], f32>
    %47 = tile.bcast %46 [0, 1] : !tile.tile<[64], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %48 = tile.load %positions64[%2] : !tile.tensor<64xf32, positions> -> !tile.tile<[tile_i1], f32>
    %49 = tile.bcast %48 [0, 2] : !tile.tile<[tile_i1], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %50 = tile.cmp le, %47, %49 : !tile.tile<[2, tile_i1, 64], f32> -> !tile.tile<[2, tile_i1, 64], i1>
    %51 = tile.load %t0[%1, %2, %1] : !tile.tensor<2x64x64xf32, intermediate> -> !tile.tile<[2, tile_i1, 64], f32>
    %52 = tile.constant 0.0883883461 : !tile.tile<[2, tile_i1, 64], f32>
    %53 = tile.mul %51, %52 : !tile.tile<[2, tile_i1, 64], f32>
    %54 = tile.constant -inf : !tile.tile<[2, tile_i1, 64], f32>
    %55 = tile.select %50, %53, %54 : !tile.tile<[2, tile_i1, 64], i1>, !tile.tile<[2, tile_i1, 64], f32>
    %56 = tile.load %t1[%1, %2] : !tile.tensor<2x64xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %57 = tile.bcast %56 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %58 = tile.sub %55, %57 : !tile.tile<[2, tile_i1, 64], f32>
    %59 = tile.exp %58 : !tile.tile<[2, tile_i1, 64], f32>
    %60 = tile.load %t2[%1, %2] : !tile.tensor<2x64xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %61 = tile.bcast %60 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %62 = tile.div %59, %61 : !tile.tile<[2, tile_i1, 64], f32>
    %63 = tile.cast %62 : !tile.tile<[2, tile_i1, 64], f32> -> !tile.tile<[2, tile_i1, 64], f16>
    %64 = tile.store %63, %t3[%1, %2, %1] : !tile.tile<[2, tile_i1, 64], f16>, !tile.tensor<2x64x64xf16, intermediate>
    %65 = tile.load %t4[%1, %2, %1] : !tile.tensor<2x64x16xf32, intermediate> -> !tile.tile<[2, tile_i1, 16], f32>
    %66 = tile.load %t3[%1, %2, %4] : !tile.tensor<2x64x64xf16, intermediate> -> !tile.tile<[2, tile_i1, tile_i2], f16>
    %67 = tile.load %Vc[%1, %4, %1] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[2, tile_i2, 16], f16>
    %68 = tile.matmul %66, %67 : !tile.tile<[2, tile_i1, tile_i2], f16>, !tile.tile<[2, tile_i2, 16], f16> -> !tile.tile<[2, tile_i1, 16], f32>
    %69 = tile.add %65, %68 : !tile.tile<[2, tile_i1, 16], f32>
    %70 = tile.store %69, %t4[%1, %2, %1] : !tile.tile<[2, tile_i1, 16], f32>, !tile.tensor<2x64x16xf32, intermediate>
    %71 = tile.loop %i2 = 0 to 64 step %tile_i2 body %70
    %72 = tile.load %t4[%1, %2, %1] : !tile.tensor<2x64x16xf32, intermediate> -> !tile.tile<[2, tile_i1, 16], f32>
    %73 = tile.cast %72 : !tile.tile<[2, tile_i1, 16], f32> -> !tile.tile<[2, tile_i1, 16], f16>
    %74 = tile.store %73, %O[%1, %2, %1] : !tile.tile<[2, tile_i1, 16], f16>, !tile.tensor<2x64x16xf16, output>
    %75 = tile.seq %71, %74
    %76 = tile.seq %64, %75
    %77 = tile.seq %45, %76
    %78 = tile.seq %3, %77
    %79 = tile.loop %i1 = 0 to 64 step %tile_i1 body %78
    tile.yield %79
  }
}
