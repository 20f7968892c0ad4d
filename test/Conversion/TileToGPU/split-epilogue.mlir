// Split epilogues (`split-epilogues`, SplitEpilogue.cpp): an elementwise
// kernel that reads split accumulations at exactly their tiles runs in the
// last block adding into each tile. Every block fences its atomic adds,
// counts itself on its tile's counter (thread 0, `memref.atomic_rmw` on
// the host's `__counters`, cleared once: `tile.zero = "restored"`), and the
// block that brings the count to the producers' chunks runs the consumer
// and clears the counter.
// Each block of these splits runs 2 iterations (4 k tiles in 2 chunks):
// `split-epilogues=2` fuses, 3 (and the default, 0: never) does not.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 64, split_epilogues = 2, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 64, split_epilogues = 0, max_tile_size = 0}" | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 64, split_epilogues = 3, max_tile_size = 0}" | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 64, max_tile_size = 0}" | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, block_size = 64, split_epilogues = 1, max_tile_size = 0}" | FileCheck %s --check-prefix=UNSPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 64, split_epilogues = 2, max_tile_size = 0}" --tile-merge-kernels="config={zero_in_kernels = false}" | FileCheck %s --check-prefix=MERGED

// FIRES: S = X W in 2 chunks per 16 x 64 tile (2 tiles), then out = f16(S):
// one kernel, 4 blocks, two counters; the last of a tile's 2 blocks casts.
// CHECK-LABEL: func.func @cast(
// CHECK-SAME: %{{.*}}: memref<2xf32> {tile.counters, tile.name = "__counters", tile.role = "scratch", tile.zero = "restored"}
// CHECK: gpu.launch_func @cast_kernels::@cast_k0 blocks in (%c4,
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: gpu.func @cast_k0(
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<2048xf32>, %[[OUT:[a-z0-9]+]]: memref<2048xf16>, %[[COUNTERS:[a-z0-9]+]]: memref<2xf32>
// CHECK-SAME: tile.epilogue = 0
// CHECK: memref.atomic_rmw addf
// CHECK: gpu.barrier
// CHECK-NEXT: scf.for %{{.*}} = %thread_id_x to %c1 step %c64 {
// CHECK-NEXT: llvm.fence syncscope("agent") acq_rel
// CHECK-NEXT: %[[BEFORE:.*]] = memref.atomic_rmw addf %cst{{.*}}, %[[COUNTERS]]
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpf oeq, %[[BEFORE]], %cst
// CHECK-NEXT: arith.select %[[LAST]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: llvm.fence syncscope("agent") acq_rel
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.load %[[S]]
// CHECK: arith.truncf
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: memref.store %cst{{.*}}, %[[COUNTERS]]
// OFF-LABEL: func.func @cast(
// OFF-NOT: __counters
// OFF-COUNT-2: gpu.launch_func
// OFF-NOT: tile.epilogue
// UNSPLIT-LABEL: func.func @cast(
// UNSPLIT-NOT: __counters
// UNSPLIT-COUNT-2: gpu.launch_func
// UNSPLIT-NOT: tile.epilogue
tile.program @cast(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<64x128xf16, input>,
                   %S: !tile.tensor<16x128xf32, intermediate>,
                   %out: !tile.tensor<16x128xf16, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, intermediate>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  %s2 = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %c = tile.cast %s2 : !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, tile_n], f16>
  %st2 = tile.store %c, %out[%full, %tn] : !tile.tile<[16, tile_n], f16>, !tile.tensor<16x128xf16, output>
  %ln2 = tile.loop %n = 0 to 128 step %sn body %st2
  %sq = tile.seq %ln, %ln2
  tile.yield %sq
}

// -----

// FIRES in both producers: F = Sa * Sb of two split accumulations (2
// chunks each) is run by the last of the 4 blocks adding into a tile,
// whichever producer it belongs to; they count on the same counters
// (`tile.epilogue = 0` on both), so they still merge into one launch.
// CHECK-LABEL: func.func @product(
// CHECK-SAME: memref<1xf32> {tile.counters
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: gpu.func @product_k0(
// CHECK-SAME: tile.epilogue = 0
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: %[[BEFORE:.*]] = memref.atomic_rmw addf %cst{{.*}}, %arg{{[0-9]+}}[%{{.*}}] : (f32, memref<1xf32>)
// CHECK-NEXT: arith.cmpf oeq, %[[BEFORE]], %[[THREE]]
// CHECK: arith.mulf
// CHECK-LABEL: gpu.func @product_k1(
// CHECK-SAME: tile.epilogue = 0
// CHECK: arith.mulf
// MERGED-LABEL: func.func @product(
// MERGED-COUNT-1: gpu.launch_func @product_kernels::@product_k0_1 blocks in (%c4,
// MERGED-NOT: gpu.launch_func
// OFF-LABEL: func.func @product(
// OFF-COUNT-3: gpu.launch_func
tile.program @product(%X: !tile.tensor<16x64xf16, input>,
                      %Wa: !tile.tensor<64x64xf16, input>,
                      %Wb: !tile.tensor<64x64xf16, input>,
                      %Sa: !tile.tensor<16x64xf32, intermediate>,
                      %Sb: !tile.tensor<16x64xf32, intermediate>,
                      %F: !tile.tensor<16x64xf16, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wa = tile.load %Wa[%tk, %tn] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %ma = tile.matmul %x, %wa : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %sa = tile.load %Sa[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %aa = tile.add %sa, %ma : !tile.tile<[16, tile_n], f32>
  %sta = tile.store %aa, %Sa[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x64xf32, intermediate>
  %lka = tile.loop %k = 0 to 64 step %sk body %sta
  %lna = tile.loop %n = 0 to 64 step %sn body %lka
  %x2 = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wb = tile.load %Wb[%tk, %tn] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mb = tile.matmul %x2, %wb : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %sb = tile.load %Sb[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %ab = tile.add %sb, %mb : !tile.tile<[16, tile_n], f32>
  %stb = tile.store %ab, %Sb[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x64xf32, intermediate>
  %lkb = tile.loop %k = 0 to 64 step %sk body %stb
  %lnb = tile.loop %n = 0 to 64 step %sn body %lkb
  %ra = tile.load %Sa[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %rb = tile.load %Sb[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %p = tile.mul %ra, %rb : !tile.tile<[16, tile_n], f32>
  %c = tile.cast %p : !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, tile_n], f16>
  %stf = tile.store %c, %F[%full, %tn] : !tile.tile<[16, tile_n], f16>, !tile.tensor<16x64xf16, output>
  %lnf = tile.loop %n = 0 to 64 step %sn body %stf
  %s1 = tile.seq %lna, %lnb
  %sq = tile.seq %s1, %lnf
  tile.yield %sq
}

// -----

// DOES NOT FIRE: the consumer steps through S in tiles of 32 columns, the
// producer adds tiles of 64 (grids differ: no block's tile is the
// consumer's).
// CHECK-LABEL: func.func @retiled(
// MERGED-LABEL: func.func @retiled(
// CHECK-NOT: __counters
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: tile.epilogue
tile.program @retiled(%X: !tile.tensor<16x64xf16, input>,
                      %W: !tile.tensor<64x128xf16, input>,
                      %S: !tile.tensor<16x128xf32, intermediate>,
                      %out: !tile.tensor<16x128xf16, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_m = 32, tile_k = 16}} {
  %n = tile.var "n"
  %m = tile.var "m"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sm = tile.size "tile_m"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tm = tile.tile %m
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, intermediate>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  %s2 = tile.load %S[%full, %tm] : !tile.tensor<16x128xf32, intermediate> -> !tile.tile<[16, tile_m], f32>
  %c = tile.cast %s2 : !tile.tile<[16, tile_m], f32> -> !tile.tile<[16, tile_m], f16>
  %st2 = tile.store %c, %out[%full, %tm] : !tile.tile<[16, tile_m], f16>, !tile.tensor<16x128xf16, output>
  %ln2 = tile.loop %m = 0 to 128 step %sm body %st2
  %sq = tile.seq %ln, %ln2
  tile.yield %sq
}

// -----

// DOES NOT FIRE: the consumer writes X, which the producer's other blocks
// still read.
// CHECK-LABEL: func.func @overwrites(
// CHECK-NOT: __counters
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: tile.epilogue
tile.program @overwrites(%X: !tile.tensor<16x64xf16, inout>,
                         %W: !tile.tensor<64x64xf16, input>,
                         %S: !tile.tensor<16x64xf32, intermediate>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, inout> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x64xf32, intermediate>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 64 step %sn body %lk
  %s2 = tile.load %S[%full, %tn] : !tile.tensor<16x64xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %c = tile.cast %s2 : !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, tile_n], f16>
  %st2 = tile.store %c, %X[%full, %tn] : !tile.tile<[16, tile_n], f16>, !tile.tensor<16x64xf16, inout>
  %ln2 = tile.loop %n = 0 to 64 step %sn body %st2
  %sq = tile.seq %ln, %ln2
  tile.yield %sq
}
