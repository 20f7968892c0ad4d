// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={group_reductions = false, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// A row statistic and the row it normalizes in one block (one row per
// block): the buffered sum over 256 elements has one result element, so
// 16 threads take every 16th element each (the block's 256 threads would
// get fewer than 16 elements each), their partial sums meet in 16 slots of
// the workgroup buffer after the 256 buffered operands, halved in four
// rounds with a barrier after each; the last round writes the sum.
// CHECK-LABEL: gpu.func @rownorm_k0
// CHECK-SAME: workgroup(%[[SH:.*]] : memref<273xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.for %{{.*}} = %thread_id_x to %c16 step %c256 {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c256 step %c16 iter_args
// CHECK: memref.store %{{.*}}, %[[SH]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %thread_id_x to %c8 step %c256 {
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %thread_id_x to %c4 step %c256 {
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %thread_id_x to %c2 step %c256 {
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %thread_id_x to %c1 step %c256 {
// CHECK: gpu.barrier
// CHECK: gpu.return
// Off: one thread sums all 256 elements.
// OFF-LABEL: gpu.func @rownorm_k0
// OFF-SAME: workgroup(%{{.*}} : memref<257xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// OFF: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args
// OFF-NOT: step %c16 iter_args
// OFF: gpu.return
tile.program @rownorm(%A: !tile.tensor<4x256xf32, input>,
                      %S: !tile.tensor<4xf32, intermediate>,
                      %B: !tile.tensor<4x256xf32, output>) attributes {tile.tile_sizes = {tile_i = 1}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%t, %full] : !tile.tensor<4x256xf32, input> -> !tile.tile<[tile_i, 256], f32>
  %sq = tile.mul %a, %a : !tile.tile<[tile_i, 256], f32>
  %r = tile.rsum %sq, 1 : !tile.tile<[tile_i, 256], f32> -> !tile.tile<[tile_i], f32>
  %st = tile.store %r, %S[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<4xf32, intermediate>
  %a2 = tile.load %A[%t, %full] : !tile.tensor<4x256xf32, input> -> !tile.tile<[tile_i, 256], f32>
  %s = tile.load %S[%t] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %sb = tile.bcast %s [1] : !tile.tile<[tile_i], f32> -> !tile.tile<[tile_i, 256], f32>
  %n = tile.div %a2, %sb : !tile.tile<[tile_i, 256], f32>
  %st2 = tile.store %n, %B[%t, %full] : !tile.tile<[tile_i, 256], f32>, !tile.tensor<4x256xf32, output>
  %body = tile.seq %st, %st2
  %l = tile.loop %i = 0 to 4 step %ti body %body
  tile.yield %l
}

// -----

// A column sum (the reduced dimension is not the innermost): the 8 parts
// of one column are 8 apart, so that adjacent threads take adjacent
// columns (adjacent addresses); part p of column c is slot p * 8 + c.
// CHECK-LABEL: gpu.func @colsum_k0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c64 step %c256 {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128 step %c8 iter_args
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %thread_id_x to %c32 step %c256 {
// CHECK: scf.for %{{.*}} = %thread_id_x to %c16 step %c256 {
// CHECK: scf.for %{{.*}} = %thread_id_x to %c8 step %c256 {
// CHECK: gpu.return
// OFF-LABEL: gpu.func @colsum_k0
// OFF: scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args
tile.program @colsum(%A: !tile.tensor<128x8xf32, input>,
                     %S: !tile.tensor<8xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<128x8xf32, input> -> !tile.tile<[128, 8], f32>
  %e = tile.exp %a : !tile.tile<[128, 8], f32>
  %r = tile.rsum %e, 0 : !tile.tile<[128, 8], f32> -> !tile.tile<[8], f32>
  %st = tile.store %r, %S[%full] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  tile.yield %st
}

// -----

// A short sum (16 elements) stays on one thread: a group would give each
// thread fewer than 16 elements.
// CHECK-LABEL: gpu.func @short_k0
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-NOT: iter_args
// CHECK: gpu.return
tile.program @short(%A: !tile.tensor<4x16xf32, input>,
                    %S: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %e = tile.exp %a : !tile.tile<[4, 16], f32>
  %r = tile.rsum %e, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %st = tile.store %r, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}
