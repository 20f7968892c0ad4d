// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, warp_loops = false, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 32}}" --canonicalize --cse | FileCheck %s --check-prefix=WHOLE
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tf32 = true, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=TF32

// Warp loops (`mma`, docs/GPULowering.md): the FlashAttention loop of
// Trinity Figure 4(d), split 4 ways (one 16-wide tile per chunk), runs one
// warp per iteration: the logit tile exp(Q K^T) in mma.sync accumulators,
// its row sums from them (the quad's lanes added with shuffles), P.V with P
// repacked from the accumulators as f16 A fragments, every partial sum
// added atomically. The logit tile, read by nothing outside the loop, is
// not stored. On an H100 at the llama shapes this kernel is 2.4x faster
// than the block-level code (bench/results/h100-80gb-hbm3-2026-11-25-warp-loops.md).
// CHECK-LABEL: func.func @flash
// CHECK: gpu.launch_func @flash_kernels::@flash_k0 blocks in (%c16, %c1, %c1) threads in (%c32, %c1, %c1)
// CHECK: gpu.func @flash_k0
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-2: nvgpu.mma.sync
// CHECK: math.exp
// CHECK: arith.truncf
// CHECK-COUNT-2: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg5
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg3
// CHECK-NOT: memref.store
// CHECK-NOT: vector.store
// CHECK: gpu.return
// Without warp loops the block runs the loop step by step (wmma, buffers).
// OFF-LABEL: func.func @flash
// OFF: gpu.func @flash_k0
// OFF-NOT: nvgpu.mma.sync
// OFF: gpu.subgroup_mma_compute
// OFF: gpu.return
// Not split: the whole loop (2 iterations of 32) on 2 warps of one block
// per head. The block adds its warps' sums in shared memory (warp 1 stores
// its 10 per lane, warp 0 adds them), then warp 0 alone adds them to the
// tensors atomically (other blocks of a split loop share them).
// WHOLE-LABEL: func.func @flash
// WHOLE: gpu.launch_func @flash_kernels::@flash_k0 blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
// WHOLE: gpu.func @flash_k0
// WHOLE: nvgpu.mma.sync
// WHOLE: scf.yield
// WHOLE: scf.if
// WHOLE-COUNT-10: memref.store %{{.*}}, %arg6
// WHOLE: gpu.barrier
// WHOLE: scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// WHOLE-COUNT-10: memref.load %arg6
// WHOLE: gpu.barrier
// WHOLE: scf.if
// WHOLE: gpu.shuffle xor
// WHOLE: memref.atomic_rmw addf %{{.*}}, %arg3
// WHOLE: gpu.return
tile.program @flash(
    %Q: !tile.tensor<4x16x16xf16, input>,
    %Kc: !tile.tensor<4x64x16xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %logit: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf32, intermediate>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_p = tile.size "tile_p"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<4x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kp = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<4x16x64xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x16x16xf32, output> -> !tile.tile<[1, 16, 16], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  tile.yield %lh
}

// -----

// The logit tile is read after the loop: the warps store it from their
// registers (16-byte vectors of the accumulators' rows).
// CHECK-LABEL: func.func @read_after
// CHECK: gpu.func @read_after_k0
// CHECK: nvgpu.mma.sync
// CHECK: math.exp
// CHECK: vector.store %{{.*}}, %arg4
// CHECK: nvgpu.mma.sync
// CHECK: gpu.return
tile.program @read_after(
    %Q: !tile.tensor<4x16x16xf16, input>,
    %Kc: !tile.tensor<4x64x16xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %logit: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf32, intermediate>,
    %L: !tile.tensor<4x16x64xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_p = tile.size "tile_p"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<4x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kp = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<4x16x64xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x16x16xf32, output> -> !tile.tile<[1, 16, 16], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  %all = tile.load %logit[%full, %full, %full] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[4, 16, 64], f32>
  %cp = tile.store %all, %L[%full, %full, %full] : !tile.tile<[4, 16, 64], f32>, !tile.tensor<4x16x64xf32, output>
  %top = tile.seq %lh, %cp
  tile.yield %top
}

// -----

// Must not: P.V multiplies the f32 logits (the matrix units would round
// them to f16), so the loop stays on the block-level path.
// CHECK-LABEL: func.func @f32_product
// CHECK: gpu.func @f32_product_k0
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return
// With tf32 it is a warp loop (Figure 4(f)'s E @ cast(V)): the scores on
// f16 units, then P.V as tf32 m16n8k8 steps whose left operand is the
// accumulators rounded to nearest tf32 (add 0x1000, clear the low 13 bits)
// and whose right operand is Vc's f16 elements widened (exact).
// TF32-LABEL: func.func @f32_product
// TF32: gpu.launch_func @f32_product_kernels::@f32_product_k0 blocks in (%c16, %c1, %c1) threads in (%c32, %c1, %c1)
// TF32: gpu.func @f32_product_k0
// TF32: scf.for
// TF32-COUNT-2: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]}
// TF32: math.exp
// TF32: arith.addi %{{.*}}, %c4096_i32
// TF32-NEXT: arith.andi %{{.*}}, %c-8192_i32
// TF32: arith.extf %{{.*}} : f16 to f32
// TF32: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>)
// TF32: scf.yield
// TF32: gpu.shuffle xor
// TF32: memref.atomic_rmw addf %{{.*}}, %arg3
// TF32: gpu.return
// Still not with tf32: 32-row tiles.
// TF32-LABEL: func.func @rows32
// TF32-NOT: nvgpu.mma.sync
// TF32: gpu.return
tile.program @f32_product(
    %Q: !tile.tensor<4x16x16xf16, input>,
    %Kc: !tile.tensor<4x64x16xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %logit: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf32, intermediate>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_p = tile.size "tile_p"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<4x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kp = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<4x16x64xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x16x16xf32, output> -> !tile.tile<[1, 16, 16], f32>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %vp32 = tile.cast %vp : !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, tile_p, 16], f32>
  %pv = tile.matmul %lgl, %vp32 : !tile.tile<[1, 16, tile_p], f32>, !tile.tile<[1, tile_p, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  tile.yield %lh
}

// -----

// Must not: a logit tile of 32 rows is more than one warp's 16.
// CHECK-LABEL: func.func @rows32
// CHECK: gpu.func @rows32_k0
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return
tile.program @rows32(
    %Q: !tile.tensor<4x32x16xf16, input>,
    %Kc: !tile.tensor<4x64x16xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x32x16xf32, output>,
    %logit: !tile.tensor<4x32x64xf32, intermediate>,
    %accm: !tile.tensor<4x32xf32, intermediate>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_p = tile.size "tile_p"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<4x32x16xf16, input> -> !tile.tile<[1, 32, 16], f16>
  %kp = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 32, 16], f16>, !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 32, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 32, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 32, tile_p], f32>, !tile.tensor<4x32x64xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<4x32x64xf32, intermediate> -> !tile.tile<[1, 32, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x32xf32, intermediate> -> !tile.tile<[1, 32], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 32, tile_p], f32> -> !tile.tile<[1, 32], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 32], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 32], f32>, !tile.tensor<4x32xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x32x16xf32, output> -> !tile.tile<[1, 32, 16], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 32, tile_p], f32> -> !tile.tile<[1, 32, tile_p], f16>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 32, tile_p], f16>, !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 32, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 32, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 32, 16], f32>, !tile.tensor<4x32x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 32], f32> -> !tile.tile<[1, 32, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 32, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 32, 16], f32>, !tile.tensor<4x32x16xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  tile.yield %lh
}
