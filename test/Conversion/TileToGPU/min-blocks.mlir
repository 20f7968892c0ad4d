// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 8}" --canonicalize | FileCheck %s --check-prefix=SHRINK
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 8, tile_sizes = {tile_i = 32}}" --canonicalize | FileCheck %s --check-prefix=KEEP
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 0}" --canonicalize | FileCheck %s --check-prefix=KEEP
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 8, split_k = 4}" --canonicalize | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 3, split_k = 4, reduce_lanes = 1}" --canonicalize | FileCheck %s --check-prefix=EVEN
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, min_blocks = 3, split_k = 3, reduce_lanes = 1}" --canonicalize | FileCheck %s --check-prefix=UNEVEN

// Sizes bound by max-tile-size shrink until a kernel with a loop below its
// grid has min-blocks blocks (64 / 32 = 2 blocks, then 64 / 8 = 8);
// explicit sizes never change.
// SHRINK-LABEL: func.func @shrink
// SHRINK-SAME: tile.tile_sizes = {tile_i = 8 : i64, tile_j = 4 : i64}
// SHRINK: blocks in (%c8,
// KEEP-LABEL: func.func @shrink
// KEEP-SAME: tile.tile_sizes = {tile_i = 32 : i64, tile_j = 4 : i64}
// KEEP: blocks in (%c2,
tile.program @shrink(%A: !tile.tensor<64x16xf32, input>,
                     %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_j = 4}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t, %u] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  tile.yield %l
}

// -----

// A kernel that stores one tile per block (no loop below its grid) is cheap
// whatever its grid: its sizes, which other kernels may share, stay.
// SHRINK-LABEL: func.func @copy
// SHRINK-SAME: tile.tile_sizes = {tile_i = 32 : i64}
// SHRINK: blocks in (%c2,
tile.program @copy(%A: !tile.tensor<64xf32, input>,
                   %B: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %s = tile.store %a, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// Two kernels share tile_i; the f32 accumulation (B) can be split, the f16
// one (D) cannot. Without split-k both have 2 blocks and tile_i shrinks to
// 8. With split-k=4, B's kernel gets its 8 blocks from 4 chunks, and the
// size stepping its grid stays 32 although D's kernel has only 2 blocks:
// smaller tiles would make the split kernel read W, which does not move
// with i, more often.
// SHRINK-LABEL: func.func @kept
// SHRINK-SAME: tile.tile_sizes = {tile_i = 8 : i64, tile_j = 4 : i64}
// SPLIT-LABEL: func.func @kept
// SPLIT-SAME: tile.tile_sizes = {tile_i = 32 : i64, tile_j = 4 : i64}
// SPLIT: @kept_k0 blocks in (%c8,
// SPLIT: @kept_k1 blocks in (%c2,
tile.program @kept(%A: !tile.tensor<64x16xf32, input>,
                   %W: !tile.tensor<16xf32, input>,
                   %B: !tile.tensor<64xf32, output>,
                   %C: !tile.tensor<64x16xf16, input>,
                   %D: !tile.tensor<64xf16, output>) attributes {tile.tile_sizes = {tile_j = 4}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t, %u] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %w = tile.load %W[%u] : !tile.tensor<16xf32, input> -> !tile.tile<[tile_j], f32>
  %wb = tile.bcast %w [0] : !tile.tile<[tile_j], f32> -> !tile.tile<[tile_i, tile_j], f32>
  %aw = tile.mul %a, %wb : !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rsum %aw, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  %c = tile.load %C[%t, %u] : !tile.tensor<64x16xf16, input> -> !tile.tile<[tile_i, tile_j], f16>
  %rc = tile.rsum %c, 1 : !tile.tile<[tile_i, tile_j], f16> -> !tile.tile<[tile_i], f16>
  %d = tile.load %D[%t] : !tile.tensor<64xf16, output> -> !tile.tile<[tile_i], f16>
  %nd = tile.add %d, %rc : !tile.tile<[tile_i], f16>
  %sd = tile.store %nd, %D[%t] : !tile.tile<[tile_i], f16>, !tile.tensor<64xf16, output>
  %lj2 = tile.loop %j = 0 to 16 step %tj body %sd
  %l2 = tile.loop %i = 0 to 64 step %ti body %lj2
  %seq = tile.seq %l, %l2
  tile.yield %seq
}

// -----

// The same kernels without W: every operand of the split accumulation moves
// with i (a batch dimension: rows of a row sum, attention's heads), so
// smaller tiles re-read nothing and tile_i shrinks as without split-k.
// SPLIT-LABEL: func.func @batch
// SPLIT-SAME: tile.tile_sizes = {tile_i = 8 : i64, tile_j = 4 : i64}
// SPLIT: @batch_k0 blocks in (%c8,
// SPLIT: @batch_k1 blocks in (%c8,
tile.program @batch(%A: !tile.tensor<64x16xf32, input>,
                   %B: !tile.tensor<64xf32, output>,
                   %C: !tile.tensor<64x16xf16, input>,
                   %D: !tile.tensor<64xf16, output>) attributes {tile.tile_sizes = {tile_j = 4}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t, %u] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  %c = tile.load %C[%t, %u] : !tile.tensor<64x16xf16, input> -> !tile.tile<[tile_i, tile_j], f16>
  %rc = tile.rsum %c, 1 : !tile.tile<[tile_i, tile_j], f16> -> !tile.tile<[tile_i], f16>
  %d = tile.load %D[%t] : !tile.tensor<64xf16, output> -> !tile.tile<[tile_i], f16>
  %nd = tile.add %d, %rc : !tile.tile<[tile_i], f16>
  %sd = tile.store %nd, %D[%t] : !tile.tile<[tile_i], f16>, !tile.tensor<64xf16, output>
  %lj2 = tile.loop %j = 0 to 16 step %tj body %sd
  %l2 = tile.loop %i = 0 to 64 step %ti body %lj2
  %seq = tile.seq %l, %l2
  tile.yield %seq
}

// -----

// Split-k chunks of equal length: 128 iterations on one block, 3 wanted
// (min-blocks), at most 4 (split-k). Chunks of 128 / 3 = 42 iterations
// would be 4 (42 + 42 + 42 + 2); 4 chunks of equal length are 4 x 32
// iterations of 8 elements (EVEN). With split-k 3, 3 chunks of 43
// iterations, the last one shorter (UNEVEN).
// EVEN-LABEL: func.func @chunks
// EVEN: blocks in (%c4,
// EVEN: gpu.func @chunks_k0
// EVEN: %[[CHUNK:.*]] = arith.remui %block_id_x, %c4
// EVEN: arith.muli %[[CHUNK]], %c256
// UNEVEN-LABEL: func.func @chunks
// UNEVEN: blocks in (%c3,
// UNEVEN: gpu.func @chunks_k0
// UNEVEN: %[[CHUNK:.*]] = arith.remui %block_id_x, %c3
// UNEVEN: arith.muli %[[CHUNK]], %c344
tile.program @chunks(%A: !tile.tensor<16x1024xf32, input>,
                     %B: !tile.tensor<16xf32, output>) attributes {tile.tile_sizes = {tile_m = 16, tile_k = 8}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_m"
  %tj = tile.size "tile_k"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t, %u] : !tile.tensor<16x1024xf32, input> -> !tile.tile<[tile_m, tile_k], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[tile_m, tile_k], f32> -> !tile.tile<[tile_m], f32>
  %b = tile.load %B[%t] : !tile.tensor<16xf32, output> -> !tile.tile<[tile_m], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_m], f32>
  %s = tile.store %n, %B[%t] : !tile.tile<[tile_m], f32>, !tile.tensor<16xf32, output>
  %lj = tile.loop %j = 0 to 1024 step %tj body %s
  %l = tile.loop %i = 0 to 16 step %ti body %lj
  tile.yield %l
}
