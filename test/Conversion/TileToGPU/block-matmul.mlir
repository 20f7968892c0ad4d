// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, block_matmul = true, max_tile_size = 128, min_blocks = 1}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, block_matmul = true, max_tile_size = 128, min_blocks = 8, split_k = 4}" --canonicalize --cse | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, block_matmul = false, max_tile_size = 128, min_blocks = 1}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = false, block_matmul = true, max_tile_size = 128, min_blocks = 1}" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// Block matmuls (`block_matmul`, docs/GPULowering.md): a GEMM tile of
// 128 x 128 outputs runs on 4 warps of 64 x 64, A and B staged through
// dynamic shared memory 64 k at a time in two stages (128 x 72 and 64 x 136
// f16 elements each: rows padded by 8; 71680 bytes, given by the launch),
// copied with cp.async one step ahead, read as fragments with ldmatrix (B
// transposed as it is read), on the matrix units. One block writes the
// whole tile of a zero accumulator: the sums are stored as runs of two.
// Split in 4 chunks of 512 k (prefix SPLIT), each block adds its sums
// atomically. Without
// block_matmul or mma (OFF), the element loop's code.
// CHECK-LABEL: func.func @gemm
// CHECK: gpu.launch_func @gemm_kernels::@gemm_k0 blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c71680_i32
// CHECK: gpu.func @gemm_k0
// CHECK-NOT: workgroup
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view {{.*}} to memref<35840xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: vector.store %{{.*}} : memref<16384xf32>, vector<2xf32>
// CHECK-NOT: atomic
// CHECK: gpu.return
// SPLIT-LABEL: func.func @gemm
// SPLIT: blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)
// SPLIT: nvgpu.mma.sync
// SPLIT: memref.atomic_rmw addf
// OFF-LABEL: func.func @gemm
// OFF-NOT: nvgpu.ldmatrix
// OFF: gpu.return
tile.program @gemm(%A: !tile.tensor<128x2048xf16, input>,
                   %B: !tile.tensor<2048x128xf16, input>,
                   %C: !tile.tensor<128x128xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<128x2048xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<2048x128xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<128x128xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<128x128xf32, output>
  %lk = tile.loop %k = 0 to 2048 step %tk body %s
  %lj = tile.loop %j = 0 to 128 step %tj body %lk
  %li = tile.loop %i = 0 to 128 step %ti body %lj
  tile.yield %li
}

// -----

// nn.Linear's [N, K] weights (B the transpose of a load): B's [n, k] rows
// are staged as they are (64 x 72 per stage beside A's 64 x 72) and read
// with ldmatrix untransposed; a 64 x 64 tile runs on 4 warps of 32 x 32,
// in four stages (copies three steps ahead; 4 x 9216 f16 elements).
// CHECK-LABEL: func.func @linear
// CHECK: threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c73728_i32
// CHECK: gpu.func @linear_k0
// CHECK-COUNT-3: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// CHECK-NOT: transpose = true
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-NOT: transpose = true
// CHECK: nvgpu.mma.sync
// CHECK-NOT: transpose = true
// CHECK: scf.yield
// A split into chunks whose k is short against the tile (two of 128 for
// 64 x 64 outputs: m n f32 sums added per 2 (m + n) k bytes read) is undone.
// SPLIT-LABEL: func.func @linear
// SPLIT: blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
// SPLIT-NOT: atomic
// SPLIT: gpu.return
// OFF-LABEL: func.func @linear
// OFF-NOT: nvgpu.ldmatrix
// OFF: gpu.return
tile.program @linear(%X: !tile.tensor<64x256xf16, input>,
                     %W: !tile.tensor<64x256xf16, input>,
                     %Y: !tile.tensor<64x64xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %x = tile.load %X[%xi, %xk] : !tile.tensor<64x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %w = tile.load %W[%xj, %xk] : !tile.tensor<64x256xf16, input> -> !tile.tile<[tile_j, tile_k], f16>
  %wt = tile.permute %w [1, 0] : !tile.tile<[tile_j, tile_k], f16> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %x, %wt : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %y = tile.load %Y[%xi, %xj] : !tile.tensor<64x64xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %y, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %Y[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<64x64xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 64 step %tj body %lk
  %li = tile.loop %i = 0 to 64 step %ti body %lj
  tile.yield %li
}

// -----

// Rows too few for a block matmul (16): the element loop's code.
// CHECK-LABEL: func.func @decode
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.return
tile.program @decode(%A: !tile.tensor<16x256xf16, input>,
                     %B: !tile.tensor<256x128xf16, input>,
                     %C: !tile.tensor<16x128xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x128xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x128xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 128 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  tile.yield %li
}
