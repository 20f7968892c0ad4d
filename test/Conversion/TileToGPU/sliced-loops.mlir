// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, thread_elements = 16, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, thread_elements = 16, mma = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, min_blocks = 4, thread_elements = 16, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=NOSLICES

// Sliced loops (`Kernel::slicedLoops`): a kernel that is not split whose
// body is a GEMM's accumulation loop followed by its epilogue, here ffn's
// two gate projections and their product. The grid's 4 blocks reach
// min-blocks, so nothing is split, but the loop's 32 groups of 16 lanes
// (a 16 x 32 tile) take 8 slices of its iterations: 256 threads, the
// slices' partial tiles of Ta and Tb in shared memory (8 x 2 x 512 floats).
// Ta and Tb are intermediates first written here: their sums are stored
// (no atomics, no starting value loaded), then the product reads them.
// CHECK-LABEL: func.func @gate
// CHECK: gpu.launch_func @gate_kernels::@gate_k0 blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @gate_k0({{.*}}) workgroup(%[[SH:.*]] : memref<8192xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.for %{{.*}} = %thread_id_x to %c256 step %c256 {
// CHECK: scf.for {{.*}} to %c64 step %c128 iter_args(
// CHECK-COUNT-32: memref.store %{{.*}}, %[[SH]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.atomic_rmw
// CHECK-NOT: %arg3[
// CHECK-COUNT-8: memref.load %[[SH]]
// CHECK-NOT: %arg3[
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK-NOT: memref.atomic_rmw
// CHECK: vector.store %{{.*}}, %arg4[%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %arg3
// CHECK: memref.load %arg4
// CHECK: memref.store %{{.*}}, %arg5
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
// On the matrix units: each warp's 16 x 32 tile of each product is four
// m16n8k16 tiles, one mma.sync per tile and 16 steps of k.
// MMA-LABEL: gpu.func @gate_k0
// MMA: workgroup(%[[SH:.*]] : memref<8192xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// MMA-COUNT-8: nvgpu.mma.sync
// MMA-NOT: nvgpu.mma.sync
// MMA: gpu.barrier
// MMA-NOT: memref.atomic_rmw
// MMA: gpu.return
// With split-k=1 nothing is sliced: 32 threads carry the tiles in
// registers, no shared memory.
// NOSLICES-LABEL: func.func @gate
// NOSLICES: threads in (%c32, %c1, %c1)
// NOSLICES-NOT: workgroup
// NOSLICES: gpu.return
tile.program @gate(%X: !tile.tensor<16x64xf16, input>,
                   %Wa: !tile.tensor<64x128xf16, input>,
                   %Wb: !tile.tensor<64x128xf16, input>,
                   %Ta: !tile.tensor<16x128xf32, intermediate>,
                   %Tb: !tile.tensor<16x128xf32, intermediate>,
                   %Y: !tile.tensor<16x128xf16, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wa = tile.load %Wa[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %ma = tile.matmul %x, %wa : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %ta = tile.load %Ta[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %sa = tile.add %ta, %ma : !tile.tile<[16, tile_n], f32>
  %sta = tile.store %sa, %Ta[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, intermediate>
  %wb = tile.load %Wb[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mb = tile.matmul %x, %wb : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %tb = tile.load %Tb[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %sb = tile.add %tb, %mb : !tile.tile<[16, tile_n], f32>
  %stb = tile.store %sb, %Tb[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, intermediate>
  %both = tile.seq %sta, %stb
  %lk = tile.loop %k = 0 to 64 step %sk body %both
  %ra = tile.load %Ta[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %rb = tile.load %Tb[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %p = tile.mul %ra, %rb : !tile.tile<[16, tile_n], f32>
  %h = tile.cast %p : !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, tile_n], f16>
  %sy = tile.store %h, %Y[%full, %tn] : !tile.tile<[16, tile_n], f16>, !tile.tensor<16x128xf16, output>
  %body = tile.seq %lk, %sy
  %ln = tile.loop %n = 0 to 128 step %sn body %body
  tile.yield %ln
}

// -----

// Two accumulations into one tensor (S += X Wa; S += X Wb) are not sliced:
// the second store's sum would overwrite the first's. The element loop
// carries S in registers on 32 threads.
// CHECK-LABEL: func.func @same_tensor
// CHECK: threads in (%c32, %c1, %c1)
// CHECK-NOT: workgroup
// CHECK: gpu.return
tile.program @same_tensor(%X: !tile.tensor<16x64xf16, input>,
                          %Wa: !tile.tensor<64x128xf16, input>,
                          %Wb: !tile.tensor<64x128xf16, input>,
                          %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wa = tile.load %Wa[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %ma = tile.matmul %x, %wa : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s0 = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a0 = tile.add %s0, %ma : !tile.tile<[16, tile_n], f32>
  %st0 = tile.store %a0, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %wb = tile.load %Wb[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mb = tile.matmul %x, %wb : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s1 = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a1 = tile.add %s1, %mb : !tile.tile<[16, tile_n], f32>
  %st1 = tile.store %a1, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %both = tile.seq %st0, %st1
  %lk = tile.loop %k = 0 to 64 step %sk body %both
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}
