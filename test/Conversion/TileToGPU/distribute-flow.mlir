// Distribution of a split loop whose statements pass tiles of its
// iterations on (Partition.cpp, `distributeLoop` with flows): the ffn's WO
// GEMM fused with the RMS statistic's sum in one loop over T's columns, as
// the optimizer extracts it. The loop carries the sum, so it is no grid
// loop; split, each block would run whole K loops one after another. With
// fission-blocks it becomes the GEMM's loop (a grid loop over the columns,
// its K loop split) and the sum's (split), because T, which flows from one
// to the other, is read after the loop anyway. In @flow_private T is read
// only inside the loop, so the loop stays one split kernel (a
// FlashAttention loop's logit tile stays fused this way). Both lowerings
// compute what the program does (host emulation against the fp64
// interpreter).
// RUN: tile-opt %s --tile-lower-to-gpu="config={fission_blocks = 8, split_k = 4, min_blocks = 8, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 4, min_blocks = 8, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=NOFISSION
// RUN: tile-run %s --entry flow --device emulate --gpu-config="fission_blocks = 8, split_k = 4, min_blocks = 8" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry flow_private --device emulate --gpu-config="fission_blocks = 8, split_k = 4, min_blocks = 8" | FileCheck %s --check-prefix=EMU

// CHECK-LABEL: func.func @flow(
// The GEMM: 4 column tiles, each K loop cut in 2 chunks.
// CHECK: gpu.launch_func @flow_kernels::@flow_k0 blocks in (%c8,
// The sum over the 4 column tiles, split.
// CHECK: gpu.launch_func @flow_kernels::@flow_k1 blocks in (%c4,
// The normalization.
// CHECK: gpu.launch_func @flow_kernels::@flow_k2
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: func.func @flow_private(
// CHECK: gpu.launch_func @flow_private_kernels::@flow_private_k0 blocks in (%c4,
// CHECK: gpu.launch_func @flow_private_kernels::@flow_private_k1
// CHECK-NOT: gpu.launch_func
// NOFISSION-LABEL: func.func @flow(
// NOFISSION: gpu.launch_func @flow_kernels::@flow_k0 blocks in (%c4,
// NOFISSION: gpu.launch_func @flow_kernels::@flow_k1
// NOFISSION-NOT: gpu.launch_func
// NOFISSION-LABEL: func.func @flow_private(
// EMU: PASS: 1 outputs

tile.program @flow(%A: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<64x64xf16, input>,
                   %T: !tile.tensor<16x64xf32, intermediate>,
                   %S: !tile.tensor<16xf32, intermediate>,
                   %N: !tile.tensor<16x64xf32, output>) attributes {tile.results = ["N"], tile.tile_sizes = {tile_j = 16, tile_r = 16}} {
  %j = tile.var "j"
  %r = tile.var "r"
  %tj = tile.size "tile_j"
  %tr = tile.size "tile_r"
  %all = tile.full
  %cj = tile.tile %j
  %cr = tile.tile %r
  %a = tile.load %A[%all, %cr] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_r], f16>
  %w = tile.load %W[%cr, %cj] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_r, tile_j], f16>
  %p = tile.matmul %a, %w : !tile.tile<[16, tile_r], f16>, !tile.tile<[tile_r, tile_j], f16> -> !tile.tile<[16, tile_j], f32>
  %t = tile.load %T[%all, %cj] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_j], f32>
  %tp = tile.add %t, %p : !tile.tile<[16, tile_j], f32>
  %st = tile.store %tp, %T[%all, %cj] : !tile.tile<[16, tile_j], f32>, !tile.tensor<16x64xf32, intermediate>
  %gemm = tile.loop %r = 0 to 64 step %tr body %st
  %t2 = tile.load %T[%all, %cj] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_j], f32>
  %sq = tile.mul %t2, %t2 : !tile.tile<[16, tile_j], f32>
  %rs = tile.rsum %sq, 1 : !tile.tile<[16, tile_j], f32> -> !tile.tile<[16], f32>
  %s = tile.load %S[%all] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %ns = tile.add %s, %rs : !tile.tile<[16], f32>
  %ss = tile.store %ns, %S[%all] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %body = tile.seq %gemm, %ss
  %fused = tile.loop %j = 0 to 64 step %tj body %body
  %t3 = tile.load %T[%all, %cj] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_j], f32>
  %s3 = tile.load %S[%all] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %b3 = tile.bcast %s3 [1] : !tile.tile<[16], f32> -> !tile.tile<[16, tile_j], f32>
  %n = tile.div %t3, %b3 : !tile.tile<[16, tile_j], f32>
  %sn = tile.store %n, %N[%all, %cj] : !tile.tile<[16, tile_j], f32>, !tile.tensor<16x64xf32, output>
  %norm = tile.loop %j = 0 to 64 step %tj body %sn
  %prog = tile.seq %fused, %norm
  tile.yield %prog
}

tile.program @flow_private(%A: !tile.tensor<16x64xf16, input>,
                           %W: !tile.tensor<64x64xf16, input>,
                           %T: !tile.tensor<16x64xf32, intermediate>,
                           %S: !tile.tensor<16xf32, intermediate>,
                           %N: !tile.tensor<16xf32, output>) attributes {tile.results = ["N"], tile.tile_sizes = {tile_j = 16, tile_r = 16}} {
  %j = tile.var "j"
  %r = tile.var "r"
  %tj = tile.size "tile_j"
  %tr = tile.size "tile_r"
  %all = tile.full
  %cj = tile.tile %j
  %cr = tile.tile %r
  %a = tile.load %A[%all, %cr] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_r], f16>
  %w = tile.load %W[%cr, %cj] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_r, tile_j], f16>
  %p = tile.matmul %a, %w : !tile.tile<[16, tile_r], f16>, !tile.tile<[tile_r, tile_j], f16> -> !tile.tile<[16, tile_j], f32>
  %t = tile.load %T[%all, %cj] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_j], f32>
  %tp = tile.add %t, %p : !tile.tile<[16, tile_j], f32>
  %st = tile.store %tp, %T[%all, %cj] : !tile.tile<[16, tile_j], f32>, !tile.tensor<16x64xf32, intermediate>
  %gemm = tile.loop %r = 0 to 64 step %tr body %st
  %t2 = tile.load %T[%all, %cj] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_j], f32>
  %sq = tile.mul %t2, %t2 : !tile.tile<[16, tile_j], f32>
  %rs = tile.rsum %sq, 1 : !tile.tile<[16, tile_j], f32> -> !tile.tile<[16], f32>
  %s = tile.load %S[%all] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %ns = tile.add %s, %rs : !tile.tile<[16], f32>
  %ss = tile.store %ns, %S[%all] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %body = tile.seq %gemm, %ss
  %fused = tile.loop %j = 0 to 64 step %tj body %body
  %s3 = tile.load %S[%all] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %sq3 = tile.sqrt %s3 : !tile.tile<[16], f32>
  %sn = tile.store %sq3, %N[%all] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %prog = tile.seq %fused, %sn
  tile.yield %prog
}
