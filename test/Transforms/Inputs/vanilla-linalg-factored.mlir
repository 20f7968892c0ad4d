// Goal for tile-saturate.mlir: the full-size linalg vanilla (bench/workloads/llama/vanilla.mlir)
// converted, with P.V as (E @ cast(Vc)) / S: the division factored out of the
// loop over the KV length (i8), after loop-whole removed P.V's loop over the head
// dimension. The rest is the extracted best candidate (one kernel over the heads).
module {
  tile.program @vanilla_factored(%X: !tile.tensor<16x4096xf16, input>, %WQ: !tile.tensor<4096x4096xf16, input>, %WK: !tile.tensor<4096x4096xf16, input>, %WV: !tile.tensor<4096x4096xf16, input>, %Kc: !tile.tensor<32x1024x128xf16, inout>, %Vc: !tile.tensor<32x1024x128xf16, inout>, %t0: !tile.tensor<16x4096xf32, intermediate>, %t1: !tile.tensor<16x32x128xf32, intermediate>, %t2: !tile.tensor<32x16x128xf16, intermediate>, %t3: !tile.tensor<16x4096xf32, intermediate>, %t4: !tile.tensor<16x32x128xf32, intermediate>, %t5: !tile.tensor<16x4096xf32, intermediate>, %t6: !tile.tensor<16x32x128xf32, intermediate>, %t7: !tile.tensor<32x16x1024xf32, intermediate>, %t8: !tile.tensor<32x16xf32, intermediate>, %t9: !tile.tensor<32x16x1024xf16, intermediate>, %t10: !tile.tensor<32x16x128xf32, intermediate>, %t11: !tile.tensor<16x32x128xf16, intermediate>, %O2: !tile.tensor<16x4096xf16, output>) attributes {tile.results = ["O2", "Kc", "Vc"], tile.value_cost = 153405159.46937034 : f64} {
    %s0 = tile.var "s0"
    %c128 = tile.size 128
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %0 = tile.full
    %1 = tile.tile %s0
    %2 = tile.load %t0[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %3 = tile.tile %r0
    %4 = tile.load %X[%0, %3] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_r0], f16>
    %5 = tile.load %WQ[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_r0, 128], f16>
    %6 = tile.matmul %4, %5 : !tile.tile<[16, tile_r0], f16>, !tile.tile<[tile_r0, 128], f16> -> !tile.tile<[16, 128], f32>
    %7 = tile.add %2, %6 : !tile.tile<[16, 128], f32>
    %8 = tile.store %7, %t0[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %9 = tile.loop %r0 = 0 to 4096 step %tile_r0 body %8
    %10 = tile.load %t0[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %11 = tile.reshape %10 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
    %12 = tile.elem %s0
    %13 = tile.store %11, %t1[%0, %12, %0] : !tile.tile<[16, 1, 128], f32>, !tile.tensor<16x32x128xf32, intermediate>
    %14 = tile.load %t1[%0, %12, %0] : !tile.tensor<16x32x128xf32, intermediate> -> !tile.tile<[16, 1, 128], f32>
    %15 = tile.permute %14 [1, 0, 2] : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[1, 16, 128], f32>
    %16 = tile.cast %15 : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[1, 16, 128], f16>
    %17 = tile.store %16, %t2[%12, %0, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
    %18 = tile.load %t3[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %19 = tile.load %X[%0, %3] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_r0], f16>
    %20 = tile.load %WK[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_r0, 128], f16>
    %21 = tile.matmul %19, %20 : !tile.tile<[16, tile_r0], f16>, !tile.tile<[tile_r0, 128], f16> -> !tile.tile<[16, 128], f32>
    %22 = tile.add %18, %21 : !tile.tile<[16, 128], f32>
    %23 = tile.store %22, %t3[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %24 = tile.load %t5[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %25 = tile.load %WV[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_r0, 128], f16>
    %26 = tile.matmul %19, %25 : !tile.tile<[16, tile_r0], f16>, !tile.tile<[tile_r0, 128], f16> -> !tile.tile<[16, 128], f32>
    %27 = tile.add %24, %26 : !tile.tile<[16, 128], f32>
    %28 = tile.store %27, %t5[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %29 = tile.seq %23, %28
    %30 = tile.loop %r0 = 0 to 4096 step %tile_r0 body %29
    %31 = tile.load %t3[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %32 = tile.reshape %31 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
    %33 = tile.store %32, %t4[%0, %12, %0] : !tile.tile<[16, 1, 128], f32>, !tile.tensor<16x32x128xf32, intermediate>
    %34 = tile.seq %30, %33
    %35 = tile.load %t4[%0, %12, %0] : !tile.tensor<16x32x128xf32, intermediate> -> !tile.tile<[16, 1, 128], f32>
    %36 = tile.permute %35 [1, 0, 2] : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[1, 16, 128], f32>
    %37 = tile.cast %36 : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[1, 16, 128], f16>
    %38 = tile.const_tile 1008, 16
    %39 = tile.store %37, %Kc[%12, %38, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
    %40 = tile.load %t5[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %41 = tile.reshape %40 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
    %42 = tile.store %41, %t6[%0, %12, %0] : !tile.tile<[16, 1, 128], f32>, !tile.tensor<16x32x128xf32, intermediate>
    %43 = tile.load %t6[%0, %12, %0] : !tile.tensor<16x32x128xf32, intermediate> -> !tile.tile<[16, 1, 128], f32>
    %44 = tile.permute %43 [1, 0, 2] : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[1, 16, 128], f32>
    %45 = tile.cast %44 : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[1, 16, 128], f16>
    %46 = tile.store %45, %Vc[%12, %38, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
    %i8 = tile.var "i8"
    %tile_i8 = tile.size "tile_i8"
    %i4 = tile.var "i4"
    %tile_i4 = tile.size "tile_i4"
    %47 = tile.tile %i8
    %48 = tile.load %t7[%12, %0, %47] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_i8], f32>
    %49 = tile.tile %i4
    %50 = tile.load %t2[%12, %0, %49] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, tile_i4], f16>
    %51 = tile.load %Kc[%12, %47, %49] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_i8, tile_i4], f16>
    %52 = tile.permute %51 [0, 2, 1] : !tile.tile<[1, tile_i8, tile_i4], f16> -> !tile.tile<[1, tile_i4, tile_i8], f16>
    %53 = tile.matmul %50, %52 : !tile.tile<[1, 16, tile_i4], f16>, !tile.tile<[1, tile_i4, tile_i8], f16> -> !tile.tile<[1, 16, tile_i8], f32>
    %54 = tile.add %48, %53 : !tile.tile<[1, 16, tile_i8], f32>
    %55 = tile.store %54, %t7[%12, %0, %47] : !tile.tile<[1, 16, tile_i8], f32>, !tile.tensor<32x16x1024xf32, intermediate>
    %56 = tile.loop %i4 = 0 to 128 step %tile_i4 body %55
    %57 = tile.load %t8[%12, %0] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
    %58 = tile.load %t7[%12, %0, %47] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_i8], f32>
    %59 = tile.exp %58 : !tile.tile<[1, 16, tile_i8], f32>
    %60 = tile.rsum %59, 2 : !tile.tile<[1, 16, tile_i8], f32> -> !tile.tile<[1, 16], f32>
    %61 = tile.add %57, %60 : !tile.tile<[1, 16], f32>
    %62 = tile.store %61, %t8[%12, %0] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
    %63 = tile.seq %56, %62
    %64 = tile.loop %i8 = 0 to 1024 step %tile_i8 body %63
    %65 = tile.load %t7[%12, %0, %47] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_i8], f32>
    %66 = tile.exp %65 : !tile.tile<[1, 16, tile_i8], f32>
    %67 = tile.load %t8[%12, %0] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
    %68 = tile.bcast %67 [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, tile_i8], f32>
    %69 = tile.div %66, %68 : !tile.tile<[1, 16, tile_i8], f32>
    %70 = tile.cast %69 : !tile.tile<[1, 16, tile_i8], f32> -> !tile.tile<[1, 16, tile_i8], f16>
    %71 = tile.store %70, %t9[%12, %0, %47] : !tile.tile<[1, 16, tile_i8], f16>, !tile.tensor<32x16x1024xf16, intermediate>
    %pe = tile.load %t7[%12, %0, %47] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_i8], f32>
    %pex = tile.exp %pe : !tile.tile<[1, 16, tile_i8], f32>
    %pv = tile.load %Vc[%12, %47, %0] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_i8, 128], f16>
    %pv32 = tile.cast %pv : !tile.tile<[1, tile_i8, 128], f16> -> !tile.tile<[1, tile_i8, 128], f32>
    %pm = tile.matmul %pex, %pv32 : !tile.tile<[1, 16, tile_i8], f32>, !tile.tile<[1, tile_i8, 128], f32> -> !tile.tile<[1, 16, 128], f32>
    %po = tile.load %t10[%12, %0, %0] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
    %pa = tile.add %po, %pm : !tile.tile<[1, 16, 128], f32>
    %ps = tile.store %pa, %t10[%12, %0, %0] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %lps = tile.loop %i8 = 0 to 1024 step %tile_i8 body %ps
    %ds = tile.load %t8[%12, %0] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
    %db = tile.bcast %ds [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
    %do = tile.load %t10[%12, %0, %0] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
    %dd = tile.div %do, %db : !tile.tile<[1, 16, 128], f32>
    %dst = tile.store %dd, %t10[%12, %0, %0] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %lp = tile.loop %i8 = 0 to 1024 step %tile_i8 body %71
    %fd = tile.seq %lps, %dst
    %79 = tile.seq %lp, %fd
    %80 = tile.load %t10[%12, %0, %0] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
    %81 = tile.permute %80 [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
    %82 = tile.cast %81 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 1, 128], f16>
    %83 = tile.store %82, %t11[%0, %12, %0] : !tile.tile<[16, 1, 128], f16>, !tile.tensor<16x32x128xf16, intermediate>
    %84 = tile.load %t11[%0, %12, %0] : !tile.tensor<16x32x128xf16, intermediate> -> !tile.tile<[16, 1, 128], f16>
    %85 = tile.reshape %84 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[16, 128], f16>
    %86 = tile.store %85, %O2[%0, %1] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
    %87 = tile.seq %83, %86
    %88 = tile.seq %79, %87
    %89 = tile.seq %64, %88
    %90 = tile.seq %46, %89
    %91 = tile.seq %42, %90
    %92 = tile.seq %39, %91
    %93 = tile.seq %34, %92
    %94 = tile.seq %17, %93
    %95 = tile.seq %13, %94
    %96 = tile.seq %9, %95
    %97 = tile.loop %s0 = 0 to 4096 step %c128 body %96
    tile.yield %97
  }

}
