// L2 prefetches ahead of a kernel's dependencies (`prefetch-bytes`): a
// kernel whose body below the grid is one loop prefetches, per block, the
// first iterations' tiles of the tensors it streams that no kernel writes,
// one `prefetch.global.L2` per 128-byte line, then waits for the kernels
// before it (`griddepcontrol.wait`, marked `tile.prefetched`).
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, prefetch_bytes = 2048, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, prefetch_bytes = 100, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=ONE
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, prefetch_bytes = 1000000, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=CHUNK
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// k0 writes T (its body is a store: nothing to prefetch). k1, S += T W in 2
// chunks of 4 k tiles per 16 x 64 tile of S, streams W (no kernel writes
// it: prefetched) and T (k0 writes it: not). W's 8 x 64 f16 tile is 8
// lines of 128 bytes (row k at 128 elements per row, column n0); 2048 bytes
// are 2 iterations of them, the second clamped to the chunk's last.
// CHECK-LABEL: gpu.func @weights_k0
// CHECK-NOT: prefetch
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @weights_k1
// CHECK: %[[PART:.*]] = arith.remui %block_id_x, %c2
// CHECK: %[[FIRST:.*]] = arith.muli %[[PART]], %c32
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %c64
// CHECK: %[[LAST:.*]] = arith.subi %[[END]], %c8
// CHECK: %[[K0:.*]] = arith.minui %[[FIRST]], %[[LAST]]
// CHECK: %[[W:.*]] = memref.extract_aligned_pointer_as_index %arg0 : memref<8192xf16> -> index {tile.prefetch}
// CHECK-NEXT: scf.for %[[LINE:.*]] = %thread_id_x to %c8 step %c256 {
// CHECK: %[[ROW:.*]] = arith.addi %[[K0]], %{{.*}}
// CHECK: arith.muli %[[ROW]], %c128
// CHECK: arith.addi %[[W]], %{{.*}}
// CHECK: llvm.inline_asm has_side_effects "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; prefetch.global.L2 [%ga]; }", "l"
// CHECK: arith.addi %[[FIRST]], %c8
// CHECK: scf.for
// CHECK: prefetch.global.L2
// CHECK-NOT: prefetch.global.L2
// CHECK: nvvm.griddepcontrol wait {tile.prefetched}
// CHECK-NOT: prefetch.global.L2
// CHECK: gpu.return
// ONE-LABEL: gpu.func @weights_k1
// ONE-COUNT-1: prefetch.global.L2
// ONE-NOT: prefetch.global.L2
// ONE: nvvm.griddepcontrol wait {tile.prefetched}
// CHUNK-LABEL: gpu.func @weights_k1
// CHUNK-COUNT-4: prefetch.global.L2
// CHUNK-NOT: prefetch.global.L2
// CHUNK: nvvm.griddepcontrol wait {tile.prefetched}
// OFF-NOT: prefetch
// OFF-NOT: griddepcontrol
tile.program @weights(%X: !tile.tensor<16x64xf16, input>,
                      %W: !tile.tensor<64x128xf16, input>,
                      %T: !tile.tensor<16x64xf16, intermediate>,
                      %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 8}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %x2 = tile.add %x, %x : !tile.tile<[16, tile_k], f16>
  %st0 = tile.store %x2, %T[%full, %tk] : !tile.tile<[16, tile_k], f16>, !tile.tensor<16x64xf16, intermediate>
  %l0 = tile.loop %k = 0 to 64 step %sk body %st0
  %t = tile.load %T[%full, %tk] : !tile.tensor<16x64xf16, intermediate> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %t, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  %sq = tile.seq %l0, %ln
  tile.yield %sq
}
