// The decode ffn (Inputs/decode/ffn.mlir) as --convert-linalg-to-tile writes
// it, with the two gate GEMMs and their SiLU product fused into one loop
// nest (as bench/gpu/programs/<config>-ffn-gate.mlir at full size): the
// lowering runs it as one kernel of sliced loops followed by the product.
// As there, the GEMMs' reduction loops have variables of their own (i4 for
// the gate GEMMs, i5 for W2), so their K tiles differ from the column tiles.
module {
  tile.program @ffn(%O2in: !tile.tensor<16x256xf16, input>, %X: !tile.tensor<16x256xf16, input>, %WO: !tile.tensor<256x256xf16, input>, %g: !tile.tensor<256xf16, input>, %W1a: !tile.tensor<256x512xf16, input>, %W1b: !tile.tensor<256x512xf16, input>, %W2: !tile.tensor<512x256xf16, input>, %t0: !tile.tensor<16x256xf32, intermediate>, %t1: !tile.tensor<16xf32, intermediate>, %t2: !tile.tensor<16x256xf16, intermediate>, %t3: !tile.tensor<16x512xf32, intermediate>, %t4: !tile.tensor<16x512xf32, intermediate>, %t5: !tile.tensor<16x512xf16, intermediate>, %t6: !tile.tensor<16x256xf32, intermediate>, %out: !tile.tensor<16x256xf16, output>) attributes {tile.results = ["out"]} {
    %i0 = tile.var "i0"
    %tile_i0 = tile.size "tile_i0"
    %i1 = tile.var "i1"
    %tile_i1 = tile.size "tile_i1"
    %r0 = tile.var "r0"
    %tile_r0 = tile.size "tile_r0"
    %i2 = tile.var "i2"
    %tile_i2 = tile.size "tile_i2"
    %i3 = tile.var "i3"
    %tile_i3 = tile.size "tile_i3"
    %i4 = tile.var "i4"
    %tile_i4 = tile.size "tile_i4"
    %k4 = tile.tile %i4
    %i5 = tile.var "i5"
    %tile_i5 = tile.size "tile_i5"
    %k5 = tile.tile %i5
    %0 = tile.full
    %1 = tile.tile %i0
    %2 = tile.tile %r0
    %3 = tile.load %O2in[%1, %2] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i0, tile_r0], f16>
    %4 = tile.tile %i1
    %5 = tile.load %WO[%2, %4] : !tile.tensor<256x256xf16, input> -> !tile.tile<[tile_r0, tile_i1], f16>
    %6 = tile.matmul %3, %5 : !tile.tile<[tile_i0, tile_r0], f16>, !tile.tile<[tile_r0, tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f32>
    %7 = tile.load %t0[%1, %4] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[tile_i0, tile_i1], f32>
    %8 = tile.add %7, %6 : !tile.tile<[tile_i0, tile_i1], f32>
    %9 = tile.store %8, %t0[%1, %4] : !tile.tile<[tile_i0, tile_i1], f32>, !tile.tensor<16x256xf32, intermediate>
    %10 = tile.loop %r0 = 0 to 256 step %tile_r0 body %9
    %11 = tile.loop %i1 = 0 to 256 step %tile_i1 body %10
    %12 = tile.loop %i0 = 0 to 16 step %tile_i0 body %11
    %13 = tile.load %t0[%1, %4] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[tile_i0, tile_i1], f32>
    %14 = tile.load %X[%1, %4] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i0, tile_i1], f16>
    %15 = tile.cast %14 : !tile.tile<[tile_i0, tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f32>
    %16 = tile.add %13, %15 : !tile.tile<[tile_i0, tile_i1], f32>
    %17 = tile.mul %16, %16 : !tile.tile<[tile_i0, tile_i1], f32>
    %18 = tile.rsum %17, 1 : !tile.tile<[tile_i0, tile_i1], f32> -> !tile.tile<[tile_i0], f32>
    %19 = tile.load %t1[%1] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %20 = tile.add %19, %18 : !tile.tile<[tile_i0], f32>
    %21 = tile.store %20, %t1[%1] : !tile.tile<[tile_i0], f32>, !tile.tensor<16xf32, intermediate>
    %22 = tile.loop %i1 = 0 to 256 step %tile_i1 body %21
    %23 = tile.loop %i0 = 0 to 16 step %tile_i0 body %22
    %24 = tile.load %t0[%1, %4] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[tile_i0, tile_i1], f32>
    %25 = tile.load %X[%1, %4] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i0, tile_i1], f16>
    %26 = tile.load %t1[%1] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[tile_i0], f32>
    %27 = tile.bcast %26 [1] : !tile.tile<[tile_i0], f32> -> !tile.tile<[tile_i0, tile_i1], f32>
    %28 = tile.load %g[%4] : !tile.tensor<256xf16, input> -> !tile.tile<[tile_i1], f16>
    %29 = tile.bcast %28 [0] : !tile.tile<[tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f16>
    %30 = tile.cast %25 : !tile.tile<[tile_i0, tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f32>
    %31 = tile.add %24, %30 : !tile.tile<[tile_i0, tile_i1], f32>
    %32 = tile.constant 2.560000e+02 : !tile.tile<[tile_i0, tile_i1], f32>
    %33 = tile.div %27, %32 : !tile.tile<[tile_i0, tile_i1], f32>
    %34 = tile.constant 9.99999997E-7 : !tile.tile<[tile_i0, tile_i1], f32>
    %35 = tile.add %33, %34 : !tile.tile<[tile_i0, tile_i1], f32>
    %36 = tile.sqrt %35 : !tile.tile<[tile_i0, tile_i1], f32>
    %37 = tile.div %31, %36 : !tile.tile<[tile_i0, tile_i1], f32>
    %38 = tile.cast %29 : !tile.tile<[tile_i0, tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f32>
    %39 = tile.mul %37, %38 : !tile.tile<[tile_i0, tile_i1], f32>
    %40 = tile.cast %39 : !tile.tile<[tile_i0, tile_i1], f32> -> !tile.tile<[tile_i0, tile_i1], f16>
    %41 = tile.store %40, %t2[%1, %4] : !tile.tile<[tile_i0, tile_i1], f16>, !tile.tensor<16x256xf16, intermediate>
    %42 = tile.loop %i1 = 0 to 256 step %tile_i1 body %41
    %43 = tile.loop %i0 = 0 to 16 step %tile_i0 body %42
    %44 = tile.load %t2[%1, %k4] : !tile.tensor<16x256xf16, intermediate> -> !tile.tile<[tile_i0, tile_i4], f16>
    %45 = tile.tile %i2
    %46 = tile.load %W1a[%k4, %45] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_i4, tile_i2], f16>
    %47 = tile.matmul %44, %46 : !tile.tile<[tile_i0, tile_i4], f16>, !tile.tile<[tile_i4, tile_i2], f16> -> !tile.tile<[tile_i0, tile_i2], f32>
    %48 = tile.load %t3[%1, %45] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i0, tile_i2], f32>
    %49 = tile.add %48, %47 : !tile.tile<[tile_i0, tile_i2], f32>
    %50 = tile.store %49, %t3[%1, %45] : !tile.tile<[tile_i0, tile_i2], f32>, !tile.tensor<16x512xf32, intermediate>
    %51 = tile.load %t2[%1, %k4] : !tile.tensor<16x256xf16, intermediate> -> !tile.tile<[tile_i0, tile_i4], f16>
    %52 = tile.load %W1b[%k4, %45] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_i4, tile_i2], f16>
    %53 = tile.matmul %51, %52 : !tile.tile<[tile_i0, tile_i4], f16>, !tile.tile<[tile_i4, tile_i2], f16> -> !tile.tile<[tile_i0, tile_i2], f32>
    %54 = tile.load %t4[%1, %45] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i0, tile_i2], f32>
    %55 = tile.add %54, %53 : !tile.tile<[tile_i0, tile_i2], f32>
    %56 = tile.store %55, %t4[%1, %45] : !tile.tile<[tile_i0, tile_i2], f32>, !tile.tensor<16x512xf32, intermediate>
    %57 = tile.loop %i4 = 0 to 256 step %tile_i4 body %50
    %58 = tile.loop %i4 = 0 to 256 step %tile_i4 body %56
    %59 = tile.load %t3[%1, %45] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i0, tile_i2], f32>
    %60 = tile.load %t4[%1, %45] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i0, tile_i2], f32>
    %61 = tile.mul %59, %60 : !tile.tile<[tile_i0, tile_i2], f32>
    %62 = tile.constant 1.000000e+00 : !tile.tile<[tile_i0, tile_i2], f32>
    %63 = tile.neg %60 : !tile.tile<[tile_i0, tile_i2], f32>
    %64 = tile.exp %63 : !tile.tile<[tile_i0, tile_i2], f32>
    %65 = tile.add %64, %62 : !tile.tile<[tile_i0, tile_i2], f32>
    %66 = tile.div %62, %65 : !tile.tile<[tile_i0, tile_i2], f32>
    %67 = tile.mul %61, %66 : !tile.tile<[tile_i0, tile_i2], f32>
    %68 = tile.cast %67 : !tile.tile<[tile_i0, tile_i2], f32> -> !tile.tile<[tile_i0, tile_i2], f16>
    %69 = tile.store %68, %t5[%1, %45] : !tile.tile<[tile_i0, tile_i2], f16>, !tile.tensor<16x512xf16, intermediate>
    %70 = tile.seq %58, %69
    %71 = tile.seq %57, %70
    %72 = tile.loop %i2 = 0 to 512 step %tile_i2 body %71
    %73 = tile.loop %i0 = 0 to 16 step %tile_i0 body %72
    %74 = tile.load %t5[%1, %k5] : !tile.tensor<16x512xf16, intermediate> -> !tile.tile<[tile_i0, tile_i5], f16>
    %75 = tile.tile %i3
    %76 = tile.load %W2[%k5, %75] : !tile.tensor<512x256xf16, input> -> !tile.tile<[tile_i5, tile_i3], f16>
    %77 = tile.matmul %74, %76 : !tile.tile<[tile_i0, tile_i5], f16>, !tile.tile<[tile_i5, tile_i3], f16> -> !tile.tile<[tile_i0, tile_i3], f32>
    %78 = tile.load %t6[%1, %75] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[tile_i0, tile_i3], f32>
    %79 = tile.add %78, %77 : !tile.tile<[tile_i0, tile_i3], f32>
    %80 = tile.store %79, %t6[%1, %75] : !tile.tile<[tile_i0, tile_i3], f32>, !tile.tensor<16x256xf32, intermediate>
    %81 = tile.loop %i5 = 0 to 512 step %tile_i5 body %80
    %82 = tile.loop %i3 = 0 to 256 step %tile_i3 body %81
    %83 = tile.loop %i0 = 0 to 16 step %tile_i0 body %82
    %84 = tile.load %t6[%1, %75] : !tile.tensor<16x256xf32, intermediate> -> !tile.tile<[tile_i0, tile_i3], f32>
    %85 = tile.cast %84 : !tile.tile<[tile_i0, tile_i3], f32> -> !tile.tile<[tile_i0, tile_i3], f16>
    %86 = tile.store %85, %out[%1, %75] : !tile.tile<[tile_i0, tile_i3], f16>, !tile.tensor<16x256xf16, output>
    %87 = tile.loop %i3 = 0 to 256 step %tile_i3 body %86
    %88 = tile.loop %i0 = 0 to 16 step %tile_i0 body %87
    %89 = tile.seq %83, %88
    %90 = tile.seq %73, %89
    %91 = tile.seq %43, %90
    %92 = tile.seq %23, %91
    %93 = tile.seq %12, %92
    tile.yield %93
  }
}

