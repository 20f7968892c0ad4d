// The one-kernel online candidate --tile-optimize (target sm_90_h200) gives
// bench/workloads/suite/attn_causal_llama2_7b_m16_p4k.mlir: scores, causal
// mask, running maximum, sum and P.V in one loop over the keys.
module {
  tile.program @attn_causal_llama2_7b_m16_p4k_c0(%Q: !tile.tensor<32x16x128xf16, input>, %Kc: !tile.tensor<32x4096x128xf16, input>, %Vc: !tile.tensor<32x4096x128xf16, input>, %t0: !tile.tensor<32x16x4096xf32, intermediate>, %t1: !tile.tensor<32x16xf32, intermediate>, %positions32: !tile.tensor<32xf32, positions>, %positions16: !tile.tensor<16xf32, positions>, %positions4096: !tile.tensor<4096xf32, positions>, %t2: !tile.tensor<32x16xf32, intermediate>, %t3: !tile.tensor<32x16x4096xf16, intermediate>, %t4: !tile.tensor<32x16x128xf32, intermediate>, %O: !tile.tensor<32x16x128xf16, output>) attributes {tile.check_error = 1.2740042781653695E-15 : f64, tile.emulation = "passed", tile.estimated_us = 15.039053333333333 : f64, tile.kernels = 1 : i64, tile.results = ["O"], tile.value_cost = 236892133.74135146 : f64} {
    %i0 = tile.var "i0"
    %tile_i0 = tile.size "tile_i0"
    %0 = tile.constant -inf : !tile.tile<[tile_i0, 16], f32>
    %1 = tile.tile %i0
    %2 = tile.full
    %3 = tile.store %0, %t1[%1, %2] : !tile.tile<[tile_i0, 16], f32>, !tile.tensor<32x16xf32, intermediate>
    %i2 = tile.var "i2"
    %tile_i2 = tile.size "tile_i2"
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %4 = tile.tile %r0
    %5 = tile.load %Q[%1, %2, %4] : !tile.tensor<32x16x128xf16, input> -> !tile.tile<[tile_i0, 16, tile_r0], f16>
    %6 = tile.tile %i2
    %7 = tile.load %Kc[%1, %6, %4] : !tile.tensor<32x4096x128xf16, input> -> !tile.tile<[tile_i0, tile_i2, tile_r0], f16>
    %8 = tile.permute %7 [0, 2, 1] : !tile.tile<[tile_i0, tile_i2, tile_r0], f16> -> !tile.tile<[tile_i0, tile_r0, tile_i2], f16>
    %9 = tile.matmul %5, %8 : !tile.tile<[tile_i0, 16, tile_r0], f16>, !tile.tile<[tile_i0, tile_r0, tile_i2], f16> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %10 = tile.load %t0[%1, %2, %6] : !tile.tensor<32x16x4096xf32, intermediate> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %11 = tile.add %9, %10 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %12 = tile.store %11, %t0[%1, %2, %6] : !tile.tile<[tile_i0, 16, tile_i2], f32>, !tile.tensor<32x16x4096xf32, intermediate>
    %13 = tile.loop %r0 = 0 to 128 step %tile_r0 body %12
    %14 = tile.load %positions4096[%6] : !tile.tensor<4096xf32, positions> -> !tile.tile<[tile_i2], f32>
    %15 = tile.bcast %14 [0, 1] : !tile.tile<[tile_i2], f32> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %16 = tile.load %positions16[%2] : !tile.tensor<16xf32, positions> -> !tile.tile<[16], f32>
    %17 = tile.bcast %16 [0, 2] : !tile.tile<[16], f32> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %18 = tile.constant 4.080000e+03 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %19 = tile.add %17, %18 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %20 = tile.cmp le, %15, %19 : !tile.tile<[tile_i0, 16, tile_i2], f32> -> !tile.tile<[tile_i0, 16, tile_i2], i1>
    %21 = tile.load %t0[%1, %2, %6] : !tile.tensor<32x16x4096xf32, intermediate> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %22 = tile.constant 0.0883883461 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %23 = tile.mul %21, %22 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %24 = tile.constant -inf : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %25 = tile.select %20, %23, %24 : !tile.tile<[tile_i0, 16, tile_i2], i1>, !tile.tile<[tile_i0, 16, tile_i2], f32>
    %26 = tile.load %t1[%1, %2] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[tile_i0, 16], f32>
    %27 = tile.rmax %25, 2 : !tile.tile<[tile_i0, 16, tile_i2], f32> -> !tile.tile<[tile_i0, 16], f32>
    %28 = tile.max %26, %27 : !tile.tile<[tile_i0, 16], f32>
    %29 = tile.constant -inf : !tile.tile<[tile_i0, 16], f32>
    %30 = tile.cmp eq, %28, %29 : !tile.tile<[tile_i0, 16], f32> -> !tile.tile<[tile_i0, 16], i1>
    %31 = tile.constant 0.000000e+00 : !tile.tile<[tile_i0, 16], f32>
    %32 = tile.select %30, %31, %28 : !tile.tile<[tile_i0, 16], i1>, !tile.tile<[tile_i0, 16], f32>
    %33 = tile.bcast %32 [2] : !tile.tile<[tile_i0, 16], f32> -> !tile.tile<[tile_i0, 16, tile_i2], f32>
    %34 = tile.sub %25, %33 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %35 = tile.exp %34 : !tile.tile<[tile_i0, 16, tile_i2], f32>
    %36 = tile.rsum %35, 2 : !tile.tile<[tile_i0, 16, tile_i2], f32> -> !tile.tile<[tile_i0, 16], f32>
    %37 = tile.load %t2[%1, %2] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[tile_i0, 16], f32>
    %38 = tile.sub %26, %32 : !tile.tile<[tile_i0, 16], f32>
    %39 = tile.min %38, %31 : !tile.tile<[tile_i0, 16], f32>
    %40 = tile.exp %39 : !tile.tile<[tile_i0, 16], f32>
    %41 = tile.mul %37, %40 : !tile.tile<[tile_i0, 16], f32>
    %42 = tile.add %36, %41 : !tile.tile<[tile_i0, 16], f32>
    %43 = tile.store %42, %t2[%1, %2] : !tile.tile<[tile_i0, 16], f32>, !tile.tensor<32x16xf32, intermediate>
    %44 = tile.load %Vc[%1, %6, %2] : !tile.tensor<32x4096x128xf16, input> -> !tile.tile<[tile_i0, tile_i2, 128], f16>
    %45 = tile.cast %44 : !tile.tile<[tile_i0, tile_i2, 128], f16> -> !tile.tile<[tile_i0, tile_i2, 128], f32>
    %46 = tile.matmul %35, %45 : !tile.tile<[tile_i0, 16, tile_i2], f32>, !tile.tile<[tile_i0, tile_i2, 128], f32> -> !tile.tile<[tile_i0, 16, 128], f32>
    %47 = tile.load %t4[%1, %2, %2] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[tile_i0, 16, 128], f32>
    %48 = tile.bcast %40 [2] : !tile.tile<[tile_i0, 16], f32> -> !tile.tile<[tile_i0, 16, 128], f32>
    %49 = tile.mul %47, %48 : !tile.tile<[tile_i0, 16, 128], f32>
    %50 = tile.add %46, %49 : !tile.tile<[tile_i0, 16, 128], f32>
    %51 = tile.store %50, %t4[%1, %2, %2] : !tile.tile<[tile_i0, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %52 = tile.store %28, %t1[%1, %2] : !tile.tile<[tile_i0, 16], f32>, !tile.tensor<32x16xf32, intermediate>
    %53 = tile.seq %51, %52
    %54 = tile.seq %43, %53
    %55 = tile.seq %13, %54
    %56 = tile.loop %i2 = 0 to 4096 step %tile_i2 body %55
    %57 = tile.load %t4[%1, %2, %2] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[tile_i0, 16, 128], f32>
    %58 = tile.load %t2[%1, %2] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[tile_i0, 16], f32>
    %59 = tile.bcast %58 [2] : !tile.tile<[tile_i0, 16], f32> -> !tile.tile<[tile_i0, 16, 128], f32>
    %60 = tile.div %57, %59 : !tile.tile<[tile_i0, 16, 128], f32>
    %61 = tile.store %60, %t4[%1, %2, %2] : !tile.tile<[tile_i0, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %62 = tile.seq %56, %61
    %63 = tile.seq %3, %62
    %64 = tile.cast %57 : !tile.tile<[tile_i0, 16, 128], f32> -> !tile.tile<[tile_i0, 16, 128], f16>
    %65 = tile.store %64, %O[%1, %2, %2] : !tile.tile<[tile_i0, 16, 128], f16>, !tile.tensor<32x16x128xf16, output>
    %66 = tile.seq %63, %65
    %67 = tile.loop %i0 = 0 to 32 step %tile_i0 body %66
    tile.yield %67
  }
}
