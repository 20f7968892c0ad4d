// The one-pass candidate --tile-optimize (target sm_90_h200) gives
// test/Transforms/Inputs/gqa-decode-small.mlir: 2 KV heads, each a tile of its
// group's 4 query rows, one loop over the 256 keys (scores, running
// maximum, sum, P.V).
module {
  tile.program @gqa_decode_c0(%Q: !tile.tensor<8x1x64xf16, input>, %Kc: !tile.tensor<2x256x64xf16, input>, %Vc: !tile.tensor<2x256x64xf16, input>, %t0: !tile.tensor<2x4x1x64xf16, intermediate>, %t1: !tile.tensor<2x4x64xf16, intermediate>, %t2: !tile.tensor<2x4x256xf32, intermediate>, %t3: !tile.tensor<2x4xf32, intermediate>, %t4: !tile.tensor<2x4xf32, intermediate>, %t5: !tile.tensor<2x4x64xf32, intermediate>, %t6: !tile.tensor<2x4x1x64xf32, intermediate>, %t7: !tile.tensor<2x4x1x64xf16, intermediate>, %O: !tile.tensor<8x1x64xf16, output>) attributes {tile.estimated_us = 7.1299758730158729 : f64, tile.kernels = 2 : i64, tile.results = ["O"], tile.value_cost = 602423.89743347885 : f64} {
    %s0 = tile.var "s0"
    %c4 = tile.size 4
    %0 = tile.tile %s0
    %1 = tile.full
    %2 = tile.load %Q[%0, %1, %1] : !tile.tensor<8x1x64xf16, input> -> !tile.tile<[4, 1, 64], f16>
    %3 = tile.reshape %2 : !tile.tile<[4, 1, 64], f16> -> !tile.tile<[1, 4, 1, 64], f16>
    %4 = tile.elem %s0
    %5 = tile.store %3, %t0[%4, %1, %1, %1] : !tile.tile<[1, 4, 1, 64], f16>, !tile.tensor<2x4x1x64xf16, intermediate>
    %6 = tile.loop %s0 = 0 to 8 step %c4 body %5
    %7 = tile.load %t0[%1, %1, %1, %1] : !tile.tensor<2x4x1x64xf16, intermediate> -> !tile.tile<[2, 4, 1, 64], f16>
    %8 = tile.reshape %7 : !tile.tile<[2, 4, 1, 64], f16> -> !tile.tile<[2, 4, 64], f16>
    %9 = tile.store %8, %t1[%1, %1, %1] : !tile.tile<[2, 4, 64], f16>, !tile.tensor<2x4x64xf16, intermediate>
    %i1 = tile.var "i1"
    %tile_i1 = tile.size "tile_i1"
    %10 = tile.constant -inf : !tile.tile<[2, tile_i1], f32>
    %11 = tile.tile %i1
    %12 = tile.store %10, %t3[%1, %11] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x4xf32, intermediate>
    %i2 = tile.var "i2"
    %tile_i2 = tile.size "tile_i2"
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %13 = tile.tile %i2
    %14 = tile.load %t2[%1, %11, %13] : !tile.tensor<2x4x256xf32, intermediate> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %15 = tile.tile %r0
    %16 = tile.load %t1[%1, %11, %15] : !tile.tensor<2x4x64xf16, intermediate> -> !tile.tile<[2, tile_i1, tile_r0], f16>
    %17 = tile.load %Kc[%1, %13, %15] : !tile.tensor<2x256x64xf16, input> -> !tile.tile<[2, tile_i2, tile_r0], f16>
    %18 = tile.permute %17 [0, 2, 1] : !tile.tile<[2, tile_i2, tile_r0], f16> -> !tile.tile<[2, tile_r0, tile_i2], f16>
    %19 = tile.matmul %16, %18 : !tile.tile<[2, tile_i1, tile_r0], f16>, !tile.tile<[2, tile_r0, tile_i2], f16> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %20 = tile.add %14, %19 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %21 = tile.store %20, %t2[%1, %11, %13] : !tile.tile<[2, tile_i1, tile_i2], f32>, !tile.tensor<2x4x256xf32, intermediate>
    %22 = tile.loop %r0 = 0 to 64 step %tile_r0 body %21
    %23 = tile.load %t2[%1, %11, %13] : !tile.tensor<2x4x256xf32, intermediate> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %24 = tile.constant 1.250000e-01 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %25 = tile.mul %23, %24 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %26 = tile.load %t3[%1, %11] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %27 = tile.rmax %25, 2 : !tile.tile<[2, tile_i1, tile_i2], f32> -> !tile.tile<[2, tile_i1], f32>
    %28 = tile.max %26, %27 : !tile.tile<[2, tile_i1], f32>
    %29 = tile.cmp eq, %28, %10 : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1], i1>
    %30 = tile.constant 0.000000e+00 : !tile.tile<[2, tile_i1], f32>
    %31 = tile.select %29, %30, %28 : !tile.tile<[2, tile_i1], i1>, !tile.tile<[2, tile_i1], f32>
    %32 = tile.bcast %31 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %33 = tile.sub %25, %32 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %34 = tile.exp %33 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %35 = tile.rsum %34, 2 : !tile.tile<[2, tile_i1, tile_i2], f32> -> !tile.tile<[2, tile_i1], f32>
    %36 = tile.load %t4[%1, %11] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %37 = tile.sub %26, %31 : !tile.tile<[2, tile_i1], f32>
    %38 = tile.min %37, %30 : !tile.tile<[2, tile_i1], f32>
    %39 = tile.exp %38 : !tile.tile<[2, tile_i1], f32>
    %40 = tile.mul %36, %39 : !tile.tile<[2, tile_i1], f32>
    %41 = tile.add %35, %40 : !tile.tile<[2, tile_i1], f32>
    %42 = tile.store %41, %t4[%1, %11] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x4xf32, intermediate>
    %43 = tile.load %Vc[%1, %13, %1] : !tile.tensor<2x256x64xf16, input> -> !tile.tile<[2, tile_i2, 64], f16>
    %44 = tile.cast %43 : !tile.tile<[2, tile_i2, 64], f16> -> !tile.tile<[2, tile_i2, 64], f32>
    %45 = tile.matmul %34, %44 : !tile.tile<[2, tile_i1, tile_i2], f32>, !tile.tile<[2, tile_i2, 64], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %46 = tile.load %t5[%1, %11, %1] : !tile.tensor<2x4x64xf32, intermediate> -> !tile.tile<[2, tile_i1, 64], f32>
    %47 = tile.bcast %39 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %48 = tile.mul %46, %47 : !tile.tile<[2, tile_i1, 64], f32>
    %49 = tile.add %45, %48 : !tile.tile<[2, tile_i1, 64], f32>
    %50 = tile.store %49, %t5[%1, %11, %1] : !tile.tile<[2, tile_i1, 64], f32>, !tile.tensor<2x4x64xf32, intermediate>
    %51 = tile.store %28, %t3[%1, %11] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x4xf32, intermediate>
    %52 = tile.seq %50, %51
    %53 = tile.seq %42, %52
    %54 = tile.seq %22, %53
    %55 = tile.loop %i2 = 0 to 256 step %tile_i2 body %54
    %56 = tile.seq %12, %55
    %57 = tile.bcast %36 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 64], f32>
    %58 = tile.div %46, %57 : !tile.tile<[2, tile_i1, 64], f32>
    %59 = tile.store %58, %t5[%1, %11, %1] : !tile.tile<[2, tile_i1, 64], f32>, !tile.tensor<2x4x64xf32, intermediate>
    %60 = tile.seq %56, %59
    %61 = tile.loop %i1 = 0 to 4 step %tile_i1 body %60
    %62 = tile.load %t5[%1, %1, %1] : !tile.tensor<2x4x64xf32, intermediate> -> !tile.tile<[2, 4, 64], f32>
    %63 = tile.reshape %62 : !tile.tile<[2, 4, 64], f32> -> !tile.tile<[2, 4, 1, 64], f32>
    %64 = tile.store %63, %t6[%1, %1, %1, %1] : !tile.tile<[2, 4, 1, 64], f32>, !tile.tensor<2x4x1x64xf32, intermediate>
    %i4 = tile.var "i4"
    %c1 = tile.size 1
    %65 = tile.elem %i4
    %66 = tile.load %t6[%65, %1, %1, %1] : !tile.tensor<2x4x1x64xf32, intermediate> -> !tile.tile<[1, 4, 1, 64], f32>
    %67 = tile.cast %66 : !tile.tile<[1, 4, 1, 64], f32> -> !tile.tile<[1, 4, 1, 64], f16>
    %68 = tile.store %67, %t7[%65, %1, %1, %1] : !tile.tile<[1, 4, 1, 64], f16>, !tile.tensor<2x4x1x64xf16, intermediate>
    %69 = tile.loop %i4 = 0 to 2 step %c1 body %68
    %s1 = tile.var "s1"
    %70 = tile.elem %s1
    %71 = tile.load %t7[%70, %1, %1, %1] : !tile.tensor<2x4x1x64xf16, intermediate> -> !tile.tile<[1, 4, 1, 64], f16>
    %72 = tile.reshape %71 : !tile.tile<[1, 4, 1, 64], f16> -> !tile.tile<[4, 1, 64], f16>
    %73 = tile.tile %s1
    %74 = tile.store %72, %O[%73, %1, %1] : !tile.tile<[4, 1, 64], f16>, !tile.tensor<8x1x64xf16, output>
    %75 = tile.loop %s1 = 0 to 8 step %c4 body %74
    %76 = tile.seq %69, %75
    %77 = tile.seq %64, %76
    %78 = tile.seq %61, %77
    %79 = tile.seq %9, %78
    %80 = tile.seq %6, %79
    tile.yield %80
  }
}
