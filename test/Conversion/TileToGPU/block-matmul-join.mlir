// A block matmul's split joins chunks shorter than 32 m n / (m + n) two by
// two while its grid keeps 128 blocks (about one per SM): 64 x 64 tiles
// (64 of them) split in 16 chunks of 256 k (1024 blocks) become 4 chunks of
// 1024 (256 blocks); 8 tiles in 16 chunks keep them (128 blocks: joining
// would leave SMs idle; so does block-matmul.mlir's one tile). The P.V
// of Llama-3-70B's GQA decode: 18.6 -> 11.6 us on the H200
// (bench/results/h200-2026-11-28-attention-tuned.md). The GPU tests check
// block matmuls' results (test/GPU/block-matmul.test); the host emulation
// cannot run them.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, block_matmul = true, max_tile_size = 64, min_blocks = 4096, split_k = 16}" --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @many_tiles
// CHECK: gpu.launch_func @many_tiles_kernels::@many_tiles_k0 blocks in (%c256, %c1, %c1)
// CHECK: nvgpu.mma.sync
// CHECK: memref.atomic_rmw addf
tile.program @many_tiles(%A: !tile.tensor<512x4096xf16, input>,
                         %B: !tile.tensor<4096x512xf16, input>,
                         %C: !tile.tensor<512x512xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<512x4096xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<4096x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<512x512xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<512x512xf32, output>
  %lk = tile.loop %k = 0 to 4096 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 512 step %ti body %lj
  tile.yield %li
}

// -----

// CHECK-LABEL: func.func @eight_tiles
// CHECK: gpu.launch_func @eight_tiles_kernels::@eight_tiles_k0 blocks in (%c128, %c1, %c1)
tile.program @eight_tiles(%A: !tile.tensor<128x4096xf16, input>,
                          %B: !tile.tensor<4096x256xf16, input>,
                          %C: !tile.tensor<128x256xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<128x4096xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<4096x256xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<128x256xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<128x256xf32, output>
  %lk = tile.loop %k = 0 to 4096 step %tk body %s
  %lj = tile.loop %j = 0 to 256 step %tj body %lk
  %li = tile.loop %i = 0 to 128 step %ti body %lj
  tile.yield %li
}
