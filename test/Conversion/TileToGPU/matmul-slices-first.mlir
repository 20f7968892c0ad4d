// A small element-loop matmul tile in a short grid (below) fills its block
// with k slices before it gives each thread fewer elements, as many slices
// as the block's iterations give, where its rows share the thread's loads
// of B: 4 rows x 64 columns, 32 iterations per block (P.V over a 32K KV
// cache: 41.3 -> 24.6 us on the H200) keeps 32 elements per thread, 8
// groups x 16 slices, partial tiles 16 x 256 in shared memory. One row
// (a one-token projection, whose elements share nothing) still shrinks
// the thread's elements to 8: 32 groups x 4 slices.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 256, max_tile_size = 0, thread_elements = 32, k_slices = 4}" --canonicalize --cse | FileCheck %s
// RUN: tile-run %s --entry pv_rows --device emulate --gpu-config="split_k = 4, min_blocks = 256, thread_elements = 32, k_slices = 4" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry pv_row --device emulate --gpu-config="split_k = 4, min_blocks = 256, thread_elements = 32, k_slices = 4" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// CHECK-LABEL: gpu.func @pv_rows_k0
// CHECK-SAME: workgroup(%{{.*}} : memref<4096xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
tile.program @pv_rows(%P: !tile.tensor<4x8192xf16, input>,
                      %V: !tile.tensor<8192x128xf16, input>,
                      %S: !tile.tensor<4x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 64}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %p = tile.load %P[%full, %tk] : !tile.tensor<4x8192xf16, input> -> !tile.tile<[4, tile_k], f16>
  %v = tile.load %V[%tk, %tn] : !tile.tensor<8192x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %p, %v : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<4x128xf32, output> -> !tile.tile<[4, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[4, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x128xf32, output>
  %lk = tile.loop %k = 0 to 8192 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// CHECK-LABEL: gpu.func @pv_row_k0
// CHECK-SAME: workgroup(%{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
tile.program @pv_row(%P: !tile.tensor<1x8192xf16, input>,
                     %V: !tile.tensor<8192x512xf16, input>,
                     %S: !tile.tensor<1x512xf32, output>) attributes {tile.tile_sizes = {tile_n = 256, tile_k = 64}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %p = tile.load %P[%full, %tk] : !tile.tensor<1x8192xf16, input> -> !tile.tile<[1, tile_k], f16>
  %v = tile.load %V[%tk, %tn] : !tile.tensor<8192x512xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %p, %v : !tile.tile<[1, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[1, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<1x512xf32, output> -> !tile.tile<[1, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[1, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[1, tile_n], f32>, !tile.tensor<1x512xf32, output>
  %lk = tile.loop %k = 0 to 8192 step %sk body %st
  %ln = tile.loop %n = 0 to 512 step %sn body %lk
  tile.yield %ln
}
