// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="element-loops=false mma=true" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="element-loops=false" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: %if cuda-toolkit %{ tile-opt %s --split-input-file --tile-lower-to-nvvm="element-loops=false mma=true format=isa" | FileCheck %s --check-prefix=PTX %}
// RUN: %if cuda %{ tile-run %s --entry mm --device cuda --element-loops=false --mma | FileCheck %s --check-prefix=GPU %}
// RUN: tile-run %s --entry mm --device emulate --element-loops=false --mma | FileCheck %s --check-prefix=GPU
// GPU: PASS

// With mma, a matmul of f16 tiles into f32 with sizes that are multiples of
// 16 is computed by warps on the matrix units: the operands are staged as
// f16 in shared memory, one warp per 16x16 result tile.
// CHECK-LABEL: gpu.func @mm_k0
// CHECK-SAME: workgroup(%[[F32:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>, %[[F16:.*]] : memref<2048xf16, #gpu.address_space<workgroup>>)
// CHECK: memref.store {{.*}}, %[[F16]]
// CHECK: gpu.barrier
// CHECK: gpu.subgroup_mma_constant_matrix
// CHECK: gpu.subgroup_mma_load_matrix %[[F16]]{{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[F16]]{{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK: gpu.subgroup_mma_compute
// CHECK: gpu.subgroup_mma_store_matrix {{.*}}, %[[F32]]
// OFF-LABEL: gpu.func @mm_k0
// OFF-NOT: subgroup_mma
// OFF: gpu.return
// PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
tile.program @mm(%A: !tile.tensor<32x64xf16, input>, %B: !tile.tensor<64x32xf16, input>,
                 %C: !tile.tensor<32x32xf32, output>) attributes {tile.tile_sizes = {tile_k = 32}} {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %t = tile.tile %k
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<32x64xf16, input> -> !tile.tile<[32, tile_k], f16>
  %b = tile.load %B[%t, %full] : !tile.tensor<64x32xf16, input> -> !tile.tile<[tile_k, 32], f16>
  %c = tile.load %C[%full, %full] : !tile.tensor<32x32xf32, output> -> !tile.tile<[32, 32], f32>
  %p = tile.matmul %a, %b : !tile.tile<[32, tile_k], f16>, !tile.tile<[tile_k, 32], f16> -> !tile.tile<[32, 32], f32>
  %n = tile.add %c, %p : !tile.tile<[32, 32], f32>
  %s = tile.store %n, %C[%full, %full] : !tile.tile<[32, 32], f32>, !tile.tensor<32x32xf32, output>
  %l = tile.loop %k = 0 to 64 step %tk body %s
  tile.yield %l
}

// -----

// A 24-row matmul is not a multiple of 16: the vector units compute it.
// CHECK-LABEL: gpu.func @odd_k0
// CHECK-NOT: subgroup_mma
// CHECK: gpu.return
tile.program @odd(%A: !tile.tensor<24x32xf16, input>, %B: !tile.tensor<32x32xf16, input>,
                  %C: !tile.tensor<24x32xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<24x32xf16, input> -> !tile.tile<[24, 32], f16>
  %b = tile.load %B[%full, %full] : !tile.tensor<32x32xf16, input> -> !tile.tile<[32, 32], f16>
  %p = tile.matmul %a, %b : !tile.tile<[24, 32], f16>, !tile.tile<[32, 32], f16> -> !tile.tile<[24, 32], f32>
  %s = tile.store %p, %C[%full, %full] : !tile.tile<[24, 32], f32>, !tile.tensor<24x32xf32, output>
  tile.yield %s
}

// -----

// f32 operands: the vector units compute it.
// CHECK-LABEL: gpu.func @wide_k0
// CHECK-NOT: subgroup_mma
// CHECK: gpu.return
tile.program @wide(%A: !tile.tensor<32x32xf32, input>, %B: !tile.tensor<32x32xf32, input>,
                   %C: !tile.tensor<32x32xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<32x32xf32, input> -> !tile.tile<[32, 32], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<32x32xf32, input> -> !tile.tile<[32, 32], f32>
  %p = tile.matmul %a, %b : !tile.tile<[32, 32], f32>, !tile.tile<[32, 32], f32> -> !tile.tile<[32, 32], f32>
  %s = tile.store %p, %C[%full, %full] : !tile.tile<[32, 32], f32>, !tile.tensor<32x32xf32, output>
  tile.yield %s
}
