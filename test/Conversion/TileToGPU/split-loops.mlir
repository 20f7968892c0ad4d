// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, min_blocks = 16, fission_blocks = 16, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=NOSPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, vector_atomics = true, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=VEC

// Split loops (`split-k` of a loop the whole block runs, docs/GPULowering.md):
// FlashAttention over the KV length p, Trinity Figure 4(d) without the
// projections. Fission gives the p loop and the division their own kernels;
// the p loop (4 heads, 4 blocks) is cut into 4 chunks of one 16-wide tile
// each, on 16 blocks: each block writes its own logit tile and adds its
// chunk's row sums and P.V atomically.
// CHECK-LABEL: func.func @flash
// CHECK: gpu.launch_func @flash_kernels::@flash_k0 blocks in (%c16, %c1, %c1)
// CHECK: gpu.launch_func @flash_kernels::@flash_k1 blocks in (%c4, %c1, %c1)
// CHECK: gpu.func @flash_k0
// CHECK: %[[CHUNK:.*]] = arith.remui %block_id_x, %c4
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %c16
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %c16
// CHECK: %[[LAST:.*]] = arith.minui %[[END]], %c64
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c16 {
// The logit tile: stored, not added.
// CHECK: memref.store %{{.*}}, %arg4
// CHECK-NOT: memref.store %{{.*}}, %arg4
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg5
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg3
// CHECK: gpu.return
// CHECK: gpu.func @flash_k1
// CHECK-NOT: atomic_rmw
// CHECK: arith.divf
// CHECK: gpu.return
// Without split-k the p loop runs whole in each of the 4 blocks, storing.
// NOSPLIT-LABEL: func.func @flash
// NOSPLIT: gpu.launch_func @flash_kernels::@flash_k0 blocks in (%c4, %c1, %c1)
// NOSPLIT-NOT: atomic_rmw
// NOSPLIT-NOT: arith.minui
// NOSPLIT: gpu.return
// With vector reductions, P.V's rows (16 f32) are added 4 at a time; the
// row sums (one per row, the tensor's rows of 16) too.
// VEC-LABEL: func.func @flash
// VEC: gpu.func @flash_k0
// VEC-NOT: memref.atomic_rmw
// VEC: red.global.add.v4.f32
// VEC: red.global.add.v4.f32
// VEC: gpu.return
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

// Must not split: P.V's addend reads the running sum, which other chunks
// are still adding to.
// CHECK-LABEL: func.func @reads_accumulator
// CHECK: gpu.launch_func @reads_accumulator_kernels::@reads_accumulator_k0 blocks in (%c4, %c1, %c1)
// CHECK-NOT: atomic_rmw
// CHECK: gpu.return
tile.program @reads_accumulator(
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
  %accv = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %pvs = tile.mul %pv, %accv : !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pvs : !tile.tile<[1, 16, 16], f32>
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

// Must not split: the row sum reads every logit tile of the head, which the
// other chunks write.
// CHECK-LABEL: func.func @reads_other_tiles
// CHECK: gpu.launch_func @reads_other_tiles_kernels::@reads_other_tiles_k0 blocks in (%c4, %c1, %c1)
// CHECK-NOT: atomic_rmw
// CHECK: gpu.return
tile.program @reads_other_tiles(
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
  %all = tile.load %logit[%eh, %full, %full] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, 64], f32>
  %lgs = tile.rsum %all, 2 : !tile.tile<[1, 16, 64], f32> -> !tile.tile<[1, 16], f32>
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

// Must not split: an f16 running sum has no atomic add.
// CHECK-LABEL: func.func @half_sum
// CHECK: gpu.launch_func @half_sum_kernels::@half_sum_k0 blocks in (%c4, %c1, %c1)
// CHECK-NOT: atomic_rmw
// CHECK: gpu.return
tile.program @half_sum(
    %Q: !tile.tensor<4x16x16xf16, input>,
    %Kc: !tile.tensor<4x64x16xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %logit: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf16, intermediate>) {
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
  %acc16 = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf16, intermediate> -> !tile.tile<[1, 16], f16>
  %acc = tile.cast %acc16 : !tile.tile<[1, 16], f16> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %accn16 = tile.cast %accn : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16], f16>
  %sacc = tile.store %accn16, %accm[%eh, %full] : !tile.tile<[1, 16], f16>, !tile.tensor<4x16xf16, intermediate>
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
