// RUN: tile-opt %s --tile-lower-to-gpu="config={mma = true, max_tile_size = 64, min_blocks = 2048, split_k = 8}" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-lower-to-gpu="config={mma = false, max_tile_size = 64, min_blocks = 2048, split_k = 8}" | FileCheck %s --check-prefix=NOMMA

// The kernel's two shared buffers (f32, and f16 for matrix-unit operands)
// are each as large as the largest use by one of its stores, and together
// stay within `shared_memory` (48 KiB of static shared memory). Here one
// store's matmul operands take 10240 f16 elements (20 KiB) and another
// store's reductions would take 8192 f32 (32 KiB): 52 KiB together, which
// ptxas refuses. With matrix units the f32 buffers take what is left (2048
// elements), the rest spills to the block's global scratch; without, they
// take 8192. (The program: the candidate --tile-extract finds for
// examples/vanilla.mlir, which the NVVM pipeline could not compile before.)
// MMA: gpu.func @vanilla_c0_k0({{.*}}) workgroup(%{{.*}} : memref<2048xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<10240xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// NOMMA: gpu.func @vanilla_c0_k0({{.*}}) workgroup(%{{.*}} : memref<8192xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// NOMMA-NOT: xf16, #gpu.address_space<workgroup>

module {
  tile.program @vanilla_c0(%X: !tile.tensor<16x4096xf16, input>, %WQ: !tile.tensor<4096x4096xf16, input>, %WK: !tile.tensor<4096x4096xf16, input>, %WV: !tile.tensor<4096x4096xf16, input>, %Kc: !tile.tensor<32x1024x128xf16, inout>, %Vc: !tile.tensor<32x1024x128xf16, inout>, %O2: !tile.tensor<16x4096xf16, output>, %Q1: !tile.tensor<16x4096xf32, intermediate>, %K1: !tile.tensor<16x4096xf32, intermediate>, %V1: !tile.tensor<16x4096xf32, intermediate>, %Q: !tile.tensor<32x16x128xf16, intermediate>, %K: !tile.tensor<32x16x128xf16, intermediate>, %V: !tile.tensor<32x16x128xf16, intermediate>, %C: !tile.tensor<32x16x1024xf32, intermediate>, %E: !tile.tensor<32x16x1024xf32, intermediate>, %S: !tile.tensor<32x16xf32, intermediate>, %O: !tile.tensor<32x16x128xf32, intermediate>) attributes {tile.check_error = 5.7973330461574758E-16 : f64, tile.emulation = "passed", tile.estimated_us = 57.927898412698411 : f64, tile.kernels = 1 : i64, tile.results = ["O2", "Kc", "Vc"], tile.value_cost = 150994108.5431481 : f64} {
    %c = tile.var "c"
    %c128 = tile.size 128
    %k = tile.var "k"
    %tile_k = tile.size "tile_k"
    %0 = tile.full
    %1 = tile.tile %c
    %2 = tile.load %K1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %3 = tile.tile %k
    %4 = tile.load %X[%0, %3] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
    %5 = tile.load %WK[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
    %6 = tile.matmul %4, %5 : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
    %7 = tile.add %2, %6 : !tile.tile<[16, 128], f32>
    %8 = tile.store %7, %K1[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %9 = tile.loop %k = 0 to 4096 step %tile_k body %8
    %10 = tile.load %K1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %11 = tile.cast %10 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
    %12 = tile.unsqueeze %11, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
    %13 = tile.permute %12 [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
    %14 = tile.elem %c
    %15 = tile.store %13, %K[%14, %0, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
    %16 = tile.load %K[%14, %0, %0] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
    %17 = tile.const_tile 1008, 16
    %18 = tile.store %16, %Kc[%14, %17, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
    %19 = tile.load %V1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %20 = tile.load %X[%0, %3] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
    %21 = tile.load %WV[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
    %22 = tile.matmul %20, %21 : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
    %23 = tile.add %19, %22 : !tile.tile<[16, 128], f32>
    %24 = tile.store %23, %V1[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %25 = tile.load %Q1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %26 = tile.load %WQ[%3, %1] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
    %27 = tile.matmul %20, %26 : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
    %28 = tile.add %25, %27 : !tile.tile<[16, 128], f32>
    %29 = tile.store %28, %Q1[%0, %1] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
    %30 = tile.seq %24, %29
    %31 = tile.loop %k = 0 to 4096 step %tile_k body %30
    %32 = tile.load %Q1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %33 = tile.cast %32 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
    %34 = tile.unsqueeze %33, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
    %35 = tile.permute %34 [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
    %36 = tile.store %35, %Q[%14, %0, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
    %37 = tile.seq %31, %36
    %38 = tile.load %V1[%0, %1] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
    %39 = tile.cast %38 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
    %40 = tile.unsqueeze %39, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
    %41 = tile.permute %40 [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
    %42 = tile.store %41, %V[%14, %0, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
    %43 = tile.load %V[%14, %0, %0] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
    %44 = tile.store %43, %Vc[%14, %17, %0] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
    %p = tile.var "p"
    %tile_p = tile.size "tile_p"
    %45 = tile.load %Q[%14, %0, %0] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
    %46 = tile.tile %p
    %47 = tile.load %Kc[%14, %46, %0] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
    %48 = tile.permute %47 [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
    %49 = tile.matmul %45, %48 : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
    %50 = tile.store %49, %C[%14, %0, %46] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
    %51 = tile.load %C[%14, %0, %46] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
    %52 = tile.exp %51 : !tile.tile<[1, 16, tile_p], f32>
    %53 = tile.store %52, %E[%14, %0, %46] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
    %54 = tile.load %S[%14, %0] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
    %55 = tile.load %E[%14, %0, %46] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
    %56 = tile.rsum %55, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
    %57 = tile.add %54, %56 : !tile.tile<[1, 16], f32>
    %58 = tile.store %57, %S[%14, %0] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
    %59 = tile.load %O[%14, %0, %0] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
    %60 = tile.load %Vc[%14, %46, %0] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
    %61 = tile.cast %60 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, tile_p, 128], f32>
    %62 = tile.matmul %55, %61 : !tile.tile<[1, 16, tile_p], f32>, !tile.tile<[1, tile_p, 128], f32> -> !tile.tile<[1, 16, 128], f32>
    %63 = tile.add %59, %62 : !tile.tile<[1, 16, 128], f32>
    %64 = tile.store %63, %O[%14, %0, %0] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %65 = tile.seq %58, %64
    %66 = tile.seq %53, %65
    %67 = tile.seq %50, %66
    %68 = tile.loop %p = 0 to 1024 step %tile_p body %67
    %69 = tile.load %O[%14, %0, %0] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
    %70 = tile.load %S[%14, %0] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
    %71 = tile.bcast %70 [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
    %72 = tile.div %69, %71 : !tile.tile<[1, 16, 128], f32>
    %73 = tile.store %72, %O[%14, %0, %0] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
    %74 = tile.seq %68, %73
    %75 = tile.permute %69 [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
    %76 = tile.squeeze %75, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
    %77 = tile.cast %76 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
    %78 = tile.store %77, %O2[%0, %1] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
    %79 = tile.seq %74, %78
    %80 = tile.seq %44, %79
    %81 = tile.seq %42, %80
    %82 = tile.seq %37, %81
    %83 = tile.seq %18, %82
    %84 = tile.seq %15, %83
    %85 = tile.seq %9, %84
    %86 = tile.loop %c = 0 to 4096 step %c128 body %85
    tile.yield %86
  }
}

