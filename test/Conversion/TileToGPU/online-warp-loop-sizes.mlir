// RUN: tile-opt %s --tile-lower-to-gpu="config={mma = true, batch_loops = true, min_blocks = 64}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-gpu="config={mma = true, batch_loops = true, warp_loops = false, min_blocks = 64}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-lower-to-gpu="config={mma = true, batch_loops = true, min_blocks = 4}" --canonicalize --cse | FileCheck %s --check-prefix=NARROW
// RUN: tile-run %s --device emulate --gpu-config="batch_loops = true, min_blocks = 64" | FileCheck %s --check-prefix=EMU
// EMU: PASS

// The tile sizes of an online warp loop when nothing pins them: the causal
// attention of test/GPU/Inputs/online-causal-fused.tile.mlir with a head
// dimension of 128 (2 heads, 64 rows, 64 keys). The defaulted sizes start at
// `max_tile_size` (64); the rows' tile is halved towards `min_blocks`, and
// at 16 rows the scores could be a warp loop's plain store if the head
// dimension's tile were whole: the lowering then widens `tile_r0` to 128
// (a second look after each halving, not only before the first), and
// halving below 16 rows, which would lose the warp loop, is undone.
// The scores and probabilities stay in the warps' registers: no kernel
// touches t0 or t3, which then need no clearing (`tile.overwritten`).
// CHECK: tile.name = "t0", tile.overwritten, tile.role = "intermediate"
// CHECK: tile.name = "t1", tile.role = "intermediate"
// CHECK: tile.name = "t3", tile.overwritten, tile.role = "intermediate"
// CHECK: tile.name = "t4", tile.role = "intermediate"
// CHECK: tile.tile_sizes = {tile_i1 = 16 : i64, tile_i2 = 32 : i64, tile_r0 = 128 : i64}
// CHECK: gpu.launch_func @online_causal_c1_kernels::@online_causal_c1_k0 blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1)
// Both shared buffers start on a 16-byte boundary (vector accesses).
// CHECK: gpu.func @online_causal_c1_k0({{.*}}) workgroup(%{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: nvgpu.mma.sync
// With blocks enough at 32 rows (min_blocks = 4) the rows' tile is still
// halved to the 16 a warp loop takes, since that forms one.
// NARROW: tile.tile_sizes = {tile_i1 = 16 : i64, tile_i2 = 32 : i64, tile_r0 = 128 : i64}
// NARROW: blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1)
// NARROW: nvgpu.mma.sync
// Without warp loops nothing is widened: the rows' tile halves down to 2.
// OFF: tile.name = "t0", tile.role = "intermediate"
// OFF: tile.tile_sizes = {tile_i1 = 2 : i64, tile_i2 = 32 : i64, tile_r0 = 32 : i64}
// OFF-NOT: nvgpu.mma.sync

module {
  tile.program @online_causal_c1(%Q: !tile.tensor<2x64x128xf16, input>, %Kc: !tile.tensor<2x64x128xf16, input>, %Vc: !tile.tensor<2x64x128xf16, input>, %t0: !tile.tensor<2x64x64xf32, intermediate>, %t1: !tile.tensor<2x64xf32, intermediate>, %positions2: !tile.tensor<2xf32, positions>, %positions64: !tile.tensor<64xf32, positions>, %t2: !tile.tensor<2x64xf32, intermediate>, %t3: !tile.tensor<2x64x64xf16, intermediate>, %t4: !tile.tensor<2x64x128xf32, intermediate>, %O: !tile.tensor<2x64x128xf16, output>) attributes {tile.check_error = 1.5579637119250434E-16 : f64, tile.emulation = "passed", tile.estimated_us = 2.016888888888889 : f64, tile.kernels = 1 : i64, tile.results = ["O"], tile.value_cost = 126607.18499827199 : f64} {
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
    %7 = tile.load %Q[%1, %2, %6] : !tile.tensor<2x64x128xf16, input> -> !tile.tile<[2, tile_i1, tile_r0], f16>
    %8 = tile.load %Kc[%1, %4, %6] : !tile.tensor<2x64x128xf16, input> -> !tile.tile<[2, tile_i2, tile_r0], f16>
    %9 = tile.permute %8 [0, 2, 1] : !tile.tile<[2, tile_i2, tile_r0], f16> -> !tile.tile<[2, tile_r0, tile_i2], f16>
    %10 = tile.matmul %7, %9 : !tile.tile<[2, tile_i1, tile_r0], f16>, !tile.tile<[2, tile_r0, tile_i2], f16> -> !tile.tile<[2, tile_i1, tile_i2], f32>
    %11 = tile.add %5, %10 : !tile.tile<[2, tile_i1, tile_i2], f32>
    %12 = tile.store %11, %t0[%1, %2, %4] : !tile.tile<[2, tile_i1, tile_i2], f32>, !tile.tensor<2x64x64xf32, intermediate>
    %13 = tile.loop %r0 = 0 to 128 step %tile_r0 body %12
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
    %42 = tile.bcast %34 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 128], f32>
    %43 = tile.load %t4[%1, %2, %1] : !tile.tensor<2x64x128xf32, intermediate> -> !tile.tile<[2, tile_i1, 128], f32>
    %44 = tile.mul %42, %43 : !tile.tile<[2, tile_i1, 128], f32>
    %45 = tile.load %Vc[%1, %4, %1] : !tile.tensor<2x64x128xf16, input> -> !tile.tile<[2, tile_i2, 128], f16>
    %46 = tile.cast %45 : !tile.tile<[2, tile_i2, 128], f16> -> !tile.tile<[2, tile_i2, 128], f32>
    %47 = tile.matmul %38, %46 : !tile.tile<[2, tile_i1, tile_i2], f32>, !tile.tile<[2, tile_i2, 128], f32> -> !tile.tile<[2, tile_i1, 128], f32>
    %48 = tile.add %44, %47 : !tile.tile<[2, tile_i1, 128], f32>
    %49 = tile.store %48, %t4[%1, %2, %1] : !tile.tile<[2, tile_i1, 128], f32>, !tile.tensor<2x64x128xf32, intermediate>
    %50 = tile.store %27, %t1[%1, %2] : !tile.tile<[2, tile_i1], f32>, !tile.tensor<2x64xf32, intermediate>
    %51 = tile.seq %49, %50
    %52 = tile.seq %41, %51
    %53 = tile.seq %13, %52
    %54 = tile.loop %i2 = 0 to 64 step %tile_i2 body %53
    %55 = tile.load %t4[%1, %2, %1] : !tile.tensor<2x64x128xf32, intermediate> -> !tile.tile<[2, tile_i1, 128], f32>
    %56 = tile.load %t2[%1, %2] : !tile.tensor<2x64xf32, intermediate> -> !tile.tile<[2, tile_i1], f32>
    %57 = tile.bcast %56 [2] : !tile.tile<[2, tile_i1], f32> -> !tile.tile<[2, tile_i1, 128], f32>
    %58 = tile.div %55, %57 : !tile.tile<[2, tile_i1, 128], f32>
    %59 = tile.store %58, %t4[%1, %2, %1] : !tile.tile<[2, tile_i1, 128], f32>, !tile.tensor<2x64x128xf32, intermediate>
    %60 = tile.seq %54, %59
    %61 = tile.cast %55 : !tile.tile<[2, tile_i1, 128], f32> -> !tile.tile<[2, tile_i1, 128], f16>
    %62 = tile.store %61, %O[%1, %2, %1] : !tile.tile<[2, tile_i1, 128], f16>, !tile.tensor<2x64x128xf16, output>
    %63 = tile.seq %60, %62
    %64 = tile.seq %3, %63
    %65 = tile.loop %i1 = 0 to 64 step %tile_i1 body %64
    tile.yield %65
  }
}
