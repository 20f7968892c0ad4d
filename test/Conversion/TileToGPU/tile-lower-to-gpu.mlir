// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={shared_memory = 0, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=SPILL
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={element_loops = false, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=NOELEM
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, reduce_lanes = 1, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=RLANES
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={thread_elements = 1, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=ONELANE
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={fission_blocks = 8, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=FISSION
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, tile_sizes = {tile_k = 4}}" --canonicalize --cse | FileCheck %s --check-prefix=SLICES
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, k_slices = 1, tile_sizes = {tile_k = 4}}" --canonicalize --cse | FileCheck %s --check-prefix=NOSLICES
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, reduce_lanes = 1, min_blocks = 2, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=RSLICES
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 4, tile_sizes = {tile_k = 4}}" --canonicalize --cse | FileCheck %s --check-prefix=UNSPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 1, thread_elements = 64, min_blocks = 4, tile_sizes = {tile_k = 4}}" --canonicalize --cse | FileCheck %s --check-prefix=NOUNSPLIT
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, reduce_lanes = 1, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=WIDE
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, reduce_lanes = 1, tile_sizes = {tile_i = 8}}" --canonicalize --cse | FileCheck %s --check-prefix=NARROW
// The generic matmul lanes (one step at a time unrolled, transposed
// operands read in runs) compute what the programs compute (host
// emulation against the interpreter):
// RUN: tile-run %s --entry lanes --device emulate --gpu-config="thread_elements = 1, max_tile_size = 0" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry lanes_transposed --device emulate --gpu-config="max_tile_size = 0" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// Iterations write disjoint tiles of B: the loop becomes the grid (4 blocks),
// the exp is computed and rounded to f16 per element, nothing is buffered.
// B is written whole before anything reads it: its buffer is marked
// tile.overwritten, and nothing clears it before a call.
// CHECK-LABEL: func.func @parallel
// CHECK-SAME: tile.name = "A", tile.role = "input"
// CHECK-SAME: tile.name = "B", tile.overwritten, tile.role = "output"
// CHECK-SAME: tile.tile_sizes = {tile_i = 16 : i64}
// CHECK: gpu.launch_func @parallel_kernels::@parallel_k0 blocks in (%[[C4:.*]], %[[C1:.*]], %[[C1]]) threads in (%[[C256:.*]], %[[C1]], %[[C1]]) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf16>)
// CHECK: gpu.func @parallel_k0
// CHECK-NOT: workgroup
// CHECK: gpu.block_id x
// CHECK-NOT: scf.for {{.*}} = %c0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c16 step %c32
// CHECK: math.exp
// CHECK: arith.truncf {{.*}} f32 to f16
// CHECK: memref.store
// CHECK: gpu.barrier
tile.program @parallel(%A: !tile.tensor<64xf32, input>,
                       %B: !tile.tensor<64xf16, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %c = tile.cast %e : !tile.tile<[tile_i], f32> -> !tile.tile<[tile_i], f16>
  %s = tile.store %c, %B[%t] : !tile.tile<[tile_i], f16>, !tile.tensor<64xf16, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// Every iteration accumulates into all of S: the loop carries a dependence,
// so it runs inside one block. Its body is one store that reads S only at
// the element it writes: each thread runs all iterations for its elements,
// the reduction inline, the accumulator in a register (stored after the
// loop), with no buffer and one barrier at the end. S starts as zeros and
// no kernel touched it before: the loop starts from zero instead of loading
// S (an inout S is loaded: @lanes), and S, written whole, is overwritten.
// CHECK-LABEL: func.func @carried
// CHECK-SAME: tile.name = "S", tile.overwritten, tile.role = "output"
// CHECK: gpu.launch_func @carried_kernels::@carried_k0 blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%c32,
// CHECK: gpu.func @carried_k0
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.block_id
// CHECK: scf.for %[[E:.*]] = %thread_id_x to %c4 step %c32 {
// CHECK-NOT: memref.load %arg1
// CHECK: %[[S:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args(%[[ACC:.*]] = %cst) -> (f32) {
// CHECK-NOT: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: %[[N:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// CHECK-NEXT: scf.yield %[[N]] : f32
// CHECK-NEXT: }
// CHECK: memref.store %[[S]], %arg1
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.return
// With split-k=4 the 4 iterations go to 4 blocks, each summing its chunk per
// element and adding it to S atomically.
// SPLIT-LABEL: func.func @carried
// SPLIT: blocks in (%c4, %c1, %c1)
// SPLIT: gpu.func @carried_k0
// SPLIT: %[[CHUNK:.*]] = arith.remui %block_id_x, %c4
// SPLIT: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %c16
// SPLIT: scf.for %{{.*}} = %thread_id_x to %c4 step %c32 {
// SPLIT: scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %c16 iter_args
// SPLIT: memref.atomic_rmw addf
// SPLIT: gpu.barrier
// By default the sum over each tile row is also cut among 16 adjacent
// threads (reduce-lanes: element i to thread i mod 16, consecutive threads
// read consecutive addresses): 4 elements x 16 lanes = 64 threads, each
// summing every 16th element of its row, the 16 partial sums meeting in
// shared memory.
// RLANES-LABEL: func.func @carried
// RLANES: blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
// RLANES: gpu.func @carried_k0({{.*}}) workgroup(%[[SH:.*]] : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// RLANES: scf.for %[[P:.*]] = %thread_id_x to %c64 step %c64 {
// RLANES: %[[LANE:.*]] = arith.remui %[[P]], %c16
// RLANES: scf.for %{{.*}} step %c16 iter_args
// RLANES: arith.addi %{{.*}}, %[[LANE]]
// RLANES: memref.load %arg0
// RLANES: memref.store %{{.*}}, %[[SH]]
// RLANES: gpu.barrier
// RLANES: scf.for %{{.*}} = %thread_id_x to %c4 step %c64 {
// RLANES-COUNT-16: memref.load %[[SH]]
// RLANES: memref.atomic_rmw addf
// With min-blocks=2 two chunks suffice, so each block's chunk has 2
// iterations: 2 slices of 4 threads (one element each) take one iteration
// each, their sums meet in shared memory and are added atomically. (With 4
// chunks a chunk is one iteration: no slices, above.)
// RSLICES-LABEL: func.func @carried
// RSLICES: blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
// RSLICES: gpu.func @carried_k0({{.*}}) workgroup(%[[SH:.*]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// RSLICES: scf.for %{{.*}} = %thread_id_x to %c8 step %c8 {
// RSLICES: scf.for %{{.*}} step %c32 iter_args
// RSLICES: memref.store %{{.*}}, %[[SH]]
// RSLICES: gpu.barrier
// RSLICES: scf.for %{{.*}} = %thread_id_x to %c4 step %c8 {
// RSLICES-COUNT-2: memref.load %[[SH]]
// RSLICES: memref.atomic_rmw addf
// Each iteration sums 16 elements per element of S, so the atomic adds are
// at most 1/16 of the loads whatever the chunks: split-k=2 does not cap the
// chunks, and the 4 iterations reach 4 blocks toward the default min-blocks.
// WIDE-LABEL: func.func @carried
// WIDE: blocks in (%c4, %c1, %c1)
// WIDE: memref.atomic_rmw addf
// With 8-element tiles (8 iterations of 8 elements) the sum is narrow:
// split-k=2 caps it at 2 chunks of 4 iterations (4 slices each).
// NARROW-LABEL: func.func @carried
// NARROW: blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1)
// NARROW: memref.atomic_rmw addf
// Without element loops, the iterations run one after the other with the
// reduction buffered in shared memory.
// NOELEM-LABEL: gpu.func @carried_k0
// NOELEM-SAME: workgroup
// NOELEM: scf.for %{{.*}} = %c0 to %c64 step %c16 {
// NOELEM: gpu.barrier
tile.program @carried(%A: !tile.tensor<4x64xf32, input>,
                      %S: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %st
  tile.yield %l
}

// -----

// The same accumulation followed, in the loop, by a store that broadcasts S
// (each element of T reads another element of S): iterations run one after
// the other on the whole block; the reduction is buffered in shared memory
// (or, with no shared memory, in global scratch) and barriers separate the
// steps.
// CHECK-LABEL: func.func @carried_seq
// CHECK: gpu.func @carried_seq_k0({{.*}}) workgroup(%[[SH:.*]] : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK-NOT: gpu.block_id
// CHECK: scf.for %[[I:.*]] = %c0 to %c64 step %c16 {
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.addf
// CHECK: memref.store {{.*}}, %[[SH]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SH]]
// CHECK: gpu.barrier
// CHECK: memref.store
// CHECK: gpu.barrier
// SPILL-LABEL: func.func @carried_seq
// SPILL-SAME: tile.name = "__scratch", tile.role = "scratch"
// SPILL: gpu.func @carried_seq_k0
// SPILL-NOT: workgroup
// SPILL: kernel
tile.program @carried_seq(%A: !tile.tensor<4x64xf32, input>,
                          %S: !tile.tensor<4xf32, output>,
                          %T: !tile.tensor<4x4xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %s2 = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %d = tile.bcast %s2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %st2 = tile.store %d, %T[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  %body = tile.seq %st, %st2
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// An accumulation and a cast of the accumulator in one loop: both stores
// have one shape and read the body's writes only at their own element, so
// each thread runs every iteration of both for its elements.
// Two stores in the loop: never split.
// SPLIT-LABEL: func.func @two_store_element_loop
// SPLIT: blocks in (%c1,
// SPLIT-NOT: atomic_rmw
// SPLIT-LABEL: func.func @nested
// Both accumulators stay in registers; the second is rounded to f16 in every
// iteration as its store and load would.
// CHECK-LABEL: gpu.func @two_store_element_loop_k0
// CHECK-NOT: workgroup
// CHECK: scf.for %{{.*}} = %thread_id_x to %c4 step %c32 {
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args(%[[A:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
// CHECK-NOT: memref.store
// CHECK: %[[N:.*]] = arith.addf %[[A]], %{{.*}} : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[N]] : f32 to f16
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : f16 to f32
// CHECK-NEXT: scf.yield %[[N]], %[[E]] : f32, f32
// CHECK-NEXT: }
// CHECK: memref.store %[[R]]#0, {{.*}} : memref<4xf32>
// CHECK-NEXT: arith.truncf %[[R]]#1
// CHECK-NEXT: memref.store {{.*}} : memref<4xf16>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
tile.program @two_store_element_loop(%A: !tile.tensor<4x64xf32, input>,
                                     %S: !tile.tensor<4xf32, intermediate>,
                                     %H: !tile.tensor<4xf16, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %s2 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %h = tile.cast %s2 : !tile.tile<[4], f32> -> !tile.tile<[4], f16>
  %st2 = tile.store %h, %H[%full] : !tile.tile<[4], f16>, !tile.tensor<4xf16, output>
  %body = tile.seq %st, %st2
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// Heads are independent (every access is indexed by elem h), the sum over p
// is carried: a grid of 2 blocks, each running the p loop.
// CHECK-LABEL: func.func @nested
// CHECK: blocks in (%c2,
// CHECK: gpu.func @nested_k0
// CHECK: gpu.block_id x
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 iter_args
tile.program @nested(%A: !tile.tensor<2x16xf32, input>,
                     %S: !tile.tensor<2xf32, output>) attributes {tile.tile_sizes = {tile_p = 8}} {
  %h = tile.var "h"
  %p = tile.var "p"
  %tp = tile.size "tile_p"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %tpp = tile.tile %p
  %full = tile.full
  %a = tile.load %A[%eh, %tpp] : !tile.tensor<2x16xf32, input> -> !tile.tile<[1, tile_p], f32>
  %s = tile.load %S[%eh] : !tile.tensor<2xf32, output> -> !tile.tile<[1], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[1, tile_p], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %r : !tile.tile<[1], f32>
  %st = tile.store %n, %S[%eh] : !tile.tile<[1], f32>, !tile.tensor<2xf32, output>
  %lp = tile.loop %p = 0 to 16 step %tp body %st
  %lh = tile.loop %h = 0 to 2 step %c1 body %lp
  tile.yield %lh
}

// -----

// T = transpose(T) reads elements other threads write: the value is
// buffered first and stored after a barrier.
// CHECK-LABEL: gpu.func @inplace_transpose_k0
// CHECK-SAME: workgroup(%[[B:.*]] : memref<16xf32
// CHECK: memref.store {{.*}}, %[[B]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[B]]
// CHECK: memref.store {{.*}} memref<16xf32>
tile.program @inplace_transpose(%T: !tile.tensor<4x4xf32, inout>) {
  %full = tile.full
  %t = tile.load %T[%full, %full] : !tile.tensor<4x4xf32, inout> -> !tile.tile<[4, 4], f32>
  %p = tile.permute %t [1, 0] : !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %s = tile.store %p, %T[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, inout>
  tile.yield %s
}

// -----

// T = exp(T) reads only the element each thread writes: no buffer.
// CHECK-LABEL: gpu.func @inplace_exp_k0
// CHECK-NOT: workgroup
// CHECK: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
tile.program @inplace_exp(%T: !tile.tensor<4x4xf32, inout>) {
  %full = tile.full
  %t = tile.load %T[%full, %full] : !tile.tensor<4x4xf32, inout> -> !tile.tile<[4, 4], f32>
  %e = tile.exp %t : !tile.tile<[4, 4], f32>
  %s = tile.store %e, %T[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, inout>
  tile.yield %s
}

// -----

// Two top-level statements: two kernels, launched in program order.
// CHECK-LABEL: func.func @two
// CHECK: gpu.launch_func @two_kernels::@two_k0
// CHECK: gpu.launch_func @two_kernels::@two_k1
tile.program @two(%A: !tile.tensor<8xf32, input>, %B: !tile.tensor<8xf32, intermediate>,
                  %C: !tile.tensor<8xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %e = tile.exp %a : !tile.tile<[8], f32>
  %s1 = tile.store %e, %B[%full] : !tile.tile<[8], f32>, !tile.tensor<8xf32, intermediate>
  %b = tile.load %B[%full] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[8], f32>
  %n = tile.neg %b : !tile.tile<[8], f32>
  %s2 = tile.store %n, %C[%full] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %seq = tile.seq %s1, %s2
  tile.yield %seq
}

// -----

// Under a one-trip loop, two parallel loops write different tensors from the
// same input: they run side by side, iteration b of each on block b (4
// blocks; the shorter loop's blocks past its 2 trips skip it).
// CHECK-LABEL: func.func @side_by_side
// CHECK: gpu.launch_func @side_by_side_kernels::@side_by_side_k0 blocks in (%c4,
// CHECK: gpu.func @side_by_side_k0
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: math.exp
// CHECK: gpu.barrier
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %{{.*}}, %c2
// CHECK: scf.if %[[ACTIVE]]
// CHECK: arith.negf
tile.program @side_by_side(%A: !tile.tensor<64xf32, input>,
                           %B: !tile.tensor<64xf32, output>,
                           %C: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_j = 32, tile_o = 64}} {
  %o = tile.var "o"
  %i = tile.var "i"
  %j = tile.var "j"
  %to = tile.size "tile_o"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l1 = tile.loop %i = 0 to 64 step %ti body %s1
  %a2 = tile.load %A[%u] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_j], f32>
  %n = tile.neg %a2 : !tile.tile<[tile_j], f32>
  %s2 = tile.store %n, %C[%u] : !tile.tile<[tile_j], f32>, !tile.tensor<64xf32, output>
  %l2 = tile.loop %j = 0 to 64 step %tj body %s2
  %seq = tile.seq %l1, %l2
  %lo = tile.loop %o = 0 to 64 step %to body %seq
  tile.yield %lo
}

// -----

// The second loop reads all of B, which the first writes tile by tile: the
// loops must not run side by side, so one block runs both in order.
// CHECK-LABEL: func.func @not_side_by_side
// CHECK: blocks in (%c1,
// CHECK: gpu.func @not_side_by_side_k0
// CHECK-NOT: gpu.block_id
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
tile.program @not_side_by_side(%A: !tile.tensor<64xf32, input>,
                               %B: !tile.tensor<64xf32, intermediate>,
                               %C: !tile.tensor<2x64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_j = 32, tile_o = 64}} {
  %o = tile.var "o"
  %i = tile.var "i"
  %j = tile.var "j"
  %to = tile.size "tile_o"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %c32 = tile.size 32
  %full = tile.full
  %t = tile.tile %i
  %ej = tile.elem %j
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %ti body %s1
  %b = tile.load %B[%full] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[64], f32>
  %bu = tile.unsqueeze %b, 0 : !tile.tile<[64], f32> -> !tile.tile<[1, 64], f32>
  %s2 = tile.store %bu, %C[%ej, %full] : !tile.tile<[1, 64], f32>, !tile.tensor<2x64xf32, output>
  %l2 = tile.loop %j = 0 to 64 step %c32 body %s2
  %seq = tile.seq %l1, %l2
  %lo = tile.loop %o = 0 to 64 step %to body %seq
  tile.yield %lo
}

// -----

// B may alias A (tile.may_alias): B's tiles are not provably apart from the
// A tiles other iterations read, so the loop is not the grid.
// CHECK-LABEL: func.func @aliased
// CHECK: blocks in (%c1,
// CHECK: gpu.func @aliased_k0
// CHECK-NOT: gpu.block_id
tile.program @aliased(%A: !tile.tensor<64xf32, input>,
                      %B: !tile.tensor<64xf32, output>) attributes {tile.may_alias = [["A", "B"]], tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// The loop writes B by tiles of i and reads B by elements of i: the two do
// not separate iterations (tile 1 covers elements 16..31, read at i = 16..),
// so the loop is not the grid.
// CHECK-LABEL: func.func @tile_vs_elem
// CHECK: blocks in (%c1,
tile.program @tile_vs_elem(%A: !tile.tensor<64xf32, input>,
                           %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %e = tile.elem %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%e] : !tile.tensor<64xf32, output> -> !tile.tile<[1], f32>
  %b0 = tile.squeeze %b, 0 : !tile.tile<[1], f32> -> !tile.tile<[], f32>
  %bb = tile.bcast %b0 [0] : !tile.tile<[], f32> -> !tile.tile<[tile_i], f32>
  %n = tile.add %a, %bb : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// Two parallel loops with different steps: the second reads B[tile j] that
// the first writes with tiles of i; iteration numbers do not line up, so
// one block runs both loops in order.
// CHECK-LABEL: func.func @misaligned
// CHECK: blocks in (%c1,
// CHECK: gpu.func @misaligned_k0
// CHECK-NOT: gpu.block_id
tile.program @misaligned(%A: !tile.tensor<64xf32, input>,
                         %B: !tile.tensor<64xf32, intermediate>,
                         %C: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_j = 32, tile_o = 64}} {
  %o = tile.var "o"
  %i = tile.var "i"
  %j = tile.var "j"
  %to = tile.size "tile_o"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %ti body %s1
  %b = tile.load %B[%u] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_j], f32>
  %n = tile.neg %b : !tile.tile<[tile_j], f32>
  %s2 = tile.store %n, %C[%u] : !tile.tile<[tile_j], f32>, !tile.tensor<64xf32, output>
  %l2 = tile.loop %j = 0 to 64 step %tj body %s2
  %seq = tile.seq %l1, %l2
  %lo = tile.loop %o = 0 to 64 step %to body %seq
  tile.yield %lo
}

// -----

// The second store of the loop reads S transposed (other elements than it
// writes): not an element loop; the iterations run one after the other with
// barriers.
// CHECK-LABEL: gpu.func @not_element_loop_k0
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16 {
// CHECK: gpu.barrier
tile.program @not_element_loop(%A: !tile.tensor<2x2x64xf32, input>,
                               %S: !tile.tensor<2x2xf32, intermediate>,
                               %T: !tile.tensor<2x2xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%full, %full, %t] : !tile.tensor<2x2x64xf32, input> -> !tile.tile<[2, 2, tile_i], f32>
  %s = tile.load %S[%full, %full] : !tile.tensor<2x2xf32, intermediate> -> !tile.tile<[2, 2], f32>
  %r = tile.rsum %a, 2 : !tile.tile<[2, 2, tile_i], f32> -> !tile.tile<[2, 2], f32>
  %n = tile.add %s, %r : !tile.tile<[2, 2], f32>
  %st = tile.store %n, %S[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, intermediate>
  %s2 = tile.load %S[%full, %full] : !tile.tensor<2x2xf32, intermediate> -> !tile.tile<[2, 2], f32>
  %p = tile.permute %s2 [1, 0] : !tile.tile<[2, 2], f32> -> !tile.tile<[2, 2], f32>
  %st2 = tile.store %p, %T[%full, %full] : !tile.tile<[2, 2], f32>, !tile.tensor<2x2xf32, output>
  %body = tile.seq %st, %st2
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// A decode-shaped matmul accumulation S[16, n] += X[16, k] W[k, n]: with up
// to 16 elements per thread, a 16x32 tile runs on 32 threads, each carrying
// a block of 2 rows x 8 consecutive columns in registers (thread q: rows
// 2 * (q / 4), columns 8 * (q mod 4)). The matmul of the 16 lanes is one
// loop, unrolled by 8 steps whose loads come first: per row one 16-byte
// vector of X (the 8 steps' elements, shared by the row's lanes), per step
// one 16-byte vector of W's row (shared by the column's lanes); no scalar
// loads. S is inout: the accumulators start from its values, and end there:
// each row of 8 lanes is two aligned 16-byte vectors of S (4 vector loads
// before the loop, 4 vector stores after it, no scalar accesses of S).
// CHECK-LABEL: func.func @lanes
// CHECK: blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
// CHECK: gpu.func @lanes_k0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c32 step %c32 {
// CHECK-COUNT-4: vector.load %arg2[%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK-NOT: memref.load %arg2
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT: memref.load
// CHECK-COUNT-2: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK-COUNT-8: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<8192xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK: arith.mulf {{.*}} fastmath<contract>
// CHECK: scf.yield
// CHECK-NOT: memref.store
// CHECK-COUNT-4: vector.store %{{.*}}, %arg2[%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK-NOT: memref.store
// CHECK: gpu.return
// With one element per thread, 512 threads' worth of elements run on 256
// threads, one after the other, each loading its own W elements: 8 steps
// of k per iteration, their loads issued before the first multiply.
// ONELANE-LABEL: func.func @lanes
// ONELANE: threads in (%c256, %c1, %c1)
// ONELANE: scf.for %{{.*}} = %thread_id_x to %c512 step %c256 {
// ONELANE: scf.for %{{.*}} iter_args({{.*}}) -> (f32) {
// ONELANE: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{.*}}) -> (f32) {
// ONELANE-COUNT-8: memref.load %arg1
// ONELANE-NOT: memref.load %arg1
// ONELANE: arith.mulf
// ONELANE-NOT: memref.load %arg1
// ONELANE: gpu.return
// Split in 2 chunks of 8 iterations (tile_k = 4), 64 lanes per thread
// (8 rows x 8 columns): 8 groups of lanes cover a 16x32 tile, so 8 threads
// per group each sum every 8th iteration of the chunk (k slices), their
// partial tiles stored in shared memory (8 x 512 floats), then after a
// barrier each element's 8 partial sums are added together and atomically
// to S. With k-slices=1, one slice: 32 threads (the fewest) of 16 lanes,
// the atomics straight from the registers.
// SLICES-LABEL: func.func @lanes
// SLICES: blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1)
// SLICES: gpu.func @lanes_k0({{.*}}) workgroup(%[[SH:.*]] : memref<4096xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SLICES: scf.for %{{.*}} = %thread_id_x to %c64 step %c64 {
// SLICES: scf.for {{.*}} step %c32 iter_args(
// SLICES-COUNT-64: memref.store %{{.*}}, %[[SH]]
// SLICES: gpu.barrier
// SLICES: scf.for %{{.*}} = %thread_id_x to %c512 step %c64 {
// SLICES-COUNT-8: memref.load %[[SH]]
// SLICES: memref.atomic_rmw addf
// SLICES: gpu.barrier
// NOSLICES-LABEL: func.func @lanes
// NOSLICES: blocks in (%c8, %c1, %c1) threads in (%c32, %c1, %c1)
// NOSLICES-NOT: workgroup
// NOSLICES: scf.for {{.*}} step %c4 iter_args(
// NOSLICES-NOT: gpu.barrier
// NOSLICES-COUNT-16: memref.atomic_rmw addf
// NOSLICES-NEXT: }
// NOSLICES-NEXT: gpu.barrier
// With min-blocks=4 the grid's 4 blocks are enough and S is not split, but
// its 8 groups of lanes still take 8 slices of all 16 iterations (64
// threads), their partial tiles meeting in shared memory; the block, the
// only one writing its tile of S, adds their sum to S's starting value and
// stores it (runs of 4, no atomics). With split-k=1 (no partial sums), 32
// threads carry S's tile in registers and store it.
// UNSPLIT-LABEL: func.func @lanes
// UNSPLIT: blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
// UNSPLIT: gpu.func @lanes_k0({{.*}}) workgroup(%[[SH:.*]] : memref<4096xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// UNSPLIT: scf.for %{{.*}} = %thread_id_x to %c64 step %c64 {
// UNSPLIT: scf.for {{.*}} to %c64 step %c32 iter_args(
// UNSPLIT-COUNT-64: memref.store %{{.*}}, %[[SH]]
// UNSPLIT: gpu.barrier
// UNSPLIT: scf.for %{{.*}} = %thread_id_x to %c128 step %c64 {
// UNSPLIT-COUNT-8: memref.load %[[SH]]
// UNSPLIT-NOT: memref.atomic_rmw
// UNSPLIT: vector.load %arg2
// UNSPLIT-NOT: memref.atomic_rmw
// UNSPLIT: vector.store %{{.*}}, %arg2
// UNSPLIT-NOT: memref.atomic_rmw
// UNSPLIT: gpu.return
// NOUNSPLIT-LABEL: func.func @lanes
// NOUNSPLIT: blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
// NOUNSPLIT-NOT: workgroup
// NOUNSPLIT: scf.for %{{.*}} = %c0 to %c64 step %c4 iter_args(
// NOUNSPLIT-NOT: memref.atomic_rmw
// NOUNSPLIT-COUNT-4: vector.store %{{.*}}, %arg2
// NOUNSPLIT-NOT: memref.atomic_rmw
// NOUNSPLIT: gpu.return
tile.program @lanes(%X: !tile.tensor<16x64xf16, input>,
                    %W: !tile.tensor<64x128xf16, input>,
                    %S: !tile.tensor<16x128xf32, inout>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 16}} {
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
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, inout> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, inout>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// The same accumulation with W stored transposed ([n, k], permuted in the
// tile): B's elements for consecutive columns are not consecutive in memory,
// so the lanes stay strided (element g + i * 32, the rows of one column);
// each sum reads its row of X and its column's row of W along k in 16-byte
// runs, one load of each run of W for all the lanes.
// CHECK-LABEL: gpu.func @lanes_transposed_k0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c512 step %c512 {
// CHECK: scf.for
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<8192xf16>, vector<8xf16>
// CHECK-NOT: memref.load %arg1
// CHECK: scf.yield
// CHECK: gpu.return
tile.program @lanes_transposed(%X: !tile.tensor<16x64xf16, input>,
                    %W: !tile.tensor<128x64xf16, input>,
                    %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wt = tile.load %W[%tn, %tk] : !tile.tensor<128x64xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %w = tile.permute %wt [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// A computed left operand, exp(P) / R[row] * G[col] in f16: each row's run
// of 8 steps loads P as two 16-byte vectors and R once (a broadcast along
// the row is one element), then divides all 8 by it; G, broadcast along
// the columns, varies within the run and is loaded element by element.
// CHECK-LABEL: gpu.func @computed_lanes_k0
// CHECK: scf.for %{{.*}} iter_args
// CHECK: scf.for %{{.*}} iter_args
// CHECK-COUNT-2: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
// CHECK-NOT: memref.load %arg0
// CHECK-COUNT-8: math.exp
// CHECK: %[[R:.*]] = memref.load %arg1
// CHECK-NOT: memref.load %arg1
// CHECK-COUNT-8: arith.divf %{{.*}}, %[[R]] : f32
// CHECK-COUNT-8: memref.load %arg2
tile.program @computed_lanes(%P: !tile.tensor<16x64xf32, input>,
                    %R: !tile.tensor<16xf32, input>,
                    %G: !tile.tensor<64xf32, input>,
                    %W: !tile.tensor<64x128xf16, input>,
                    %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 16}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %p = tile.load %P[%full, %tk] : !tile.tensor<16x64xf32, input> -> !tile.tile<[16, tile_k], f32>
  %e = tile.exp %p : !tile.tile<[16, tile_k], f32>
  %r = tile.load %R[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %rb = tile.bcast %r [1] : !tile.tile<[16], f32> -> !tile.tile<[16, tile_k], f32>
  %g = tile.load %G[%tk] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_k], f32>
  %gb = tile.bcast %g [0] : !tile.tile<[tile_k], f32> -> !tile.tile<[16, tile_k], f32>
  %d = tile.div %e, %rb : !tile.tile<[16, tile_k], f32>
  %m = tile.mul %d, %gb : !tile.tile<[16, tile_k], f32>
  %h = tile.cast %m : !tile.tile<[16, tile_k], f32> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %h, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// 80 elements on 32 threads take 3 lanes, and the last group runs past the
// tile: those lanes compute the last element again (the index is clamped)
// and store nothing.
// CHECK-LABEL: gpu.func @ragged_lanes_k0
// CHECK: scf.for %[[G:.*]] = %thread_id_x to %c80 step %c96 {
// CHECK-DAG: arith.minui %{{.*}}, %c79
// CHECK-DAG: arith.cmpi ult, %{{.*}}, %c80
// CHECK: scf.for {{.*}} -> (f32, f32, f32) {
// CHECK: memref.store
// CHECK: scf.if
// CHECK-NEXT: memref.store
// CHECK: scf.if
// CHECK-NEXT: memref.store
tile.program @ragged_lanes(%A: !tile.tensor<5x16x8xf32, input>,
                           %S: !tile.tensor<5x16xf32, inout>) attributes {tile.tile_sizes = {tile_k = 4}} {
  %k = tile.var "k"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tk = tile.tile %k
  %a = tile.load %A[%full, %full, %tk] : !tile.tensor<5x16x8xf32, input> -> !tile.tile<[5, 16, tile_k], f32>
  %r = tile.rsum %a, 2 : !tile.tile<[5, 16, tile_k], f32> -> !tile.tile<[5, 16], f32>
  %s = tile.load %S[%full, %full] : !tile.tensor<5x16xf32, inout> -> !tile.tile<[5, 16], f32>
  %n = tile.add %s, %r : !tile.tile<[5, 16], f32>
  %st = tile.store %n, %S[%full, %full] : !tile.tile<[5, 16], f32>, !tile.tensor<5x16xf32, inout>
  %l = tile.loop %k = 0 to 8 step %sk body %st
  tile.yield %l
}

// -----

// A parallel loop over 4 tiles whose body is two stores: one kernel of 4
// blocks. fission-blocks=8 (more than 4) does not split it: neither store
// would get more blocks of its own, so a kernel each would only add a
// launch.
// CHECK-LABEL: func.func @fission
// CHECK: gpu.launch_func @fission_kernels::@fission_k0 blocks in (%c4,
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @fission_k0
// FISSION-LABEL: func.func @fission
// FISSION: gpu.launch_func @fission_kernels::@fission_k0 blocks in (%c4,
// FISSION-NOT: gpu.launch_func
// FISSION: gpu.func @fission_k0
// FISSION: math.exp
// FISSION: arith.mulf
// FISSION: gpu.return
tile.program @fission(%X: !tile.tensor<64xf32, input>,
                      %A: !tile.tensor<64xf32, intermediate>,
                      %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %x = tile.load %X[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %x : !tile.tile<[tile_i], f32>
  %sa = tile.store %e, %A[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %a = tile.load %A[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %two = tile.constant 2.0 : !tile.tile<[tile_i], f32>
  %m = tile.mul %a, %two : !tile.tile<[tile_i], f32>
  %sb = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %body = tile.seq %sa, %sb
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// As @fission, then a parallel loop over 4 column tiles of a 64 x 64
// output per row tile. With fission-blocks=8 the loop is split: the two
// stores that gain no blocks stay one kernel of 4 blocks (in order: the
// second reads what the first wrote, in the same tile), the inner loop
// becomes a kernel of 4 x 4 blocks reading both.
// CHECK-LABEL: func.func @fission_gain
// CHECK: gpu.launch_func @fission_gain_kernels::@fission_gain_k0 blocks in (%c4,
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @fission_gain_k0
// FISSION-LABEL: func.func @fission_gain
// FISSION: gpu.launch_func @fission_gain_kernels::@fission_gain_k0 blocks in (%c4, {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>)
// FISSION-NEXT: gpu.launch_func @fission_gain_kernels::@fission_gain_k1 blocks in (%c16, {{.*}} args(%arg1 : memref<64xf32>, %arg2 : memref<64xf32>, %arg3 : memref<4096xf32>)
// FISSION-NOT: gpu.launch_func
// FISSION: gpu.func @fission_gain_k0
// FISSION: math.exp
// FISSION: gpu.barrier
// FISSION: arith.mulf
// FISSION: gpu.func @fission_gain_k1
// FISSION-NOT: math.exp
// FISSION: arith.addf
// FISSION: gpu.return
tile.program @fission_gain(%X: !tile.tensor<64xf32, input>,
                           %A: !tile.tensor<64xf32, intermediate>,
                           %B: !tile.tensor<64xf32, intermediate>,
                           %C: !tile.tensor<64x64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_j = 16}} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %t = tile.tile %i
  %u = tile.tile %j
  %x = tile.load %X[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %x : !tile.tile<[tile_i], f32>
  %sa = tile.store %e, %A[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %a = tile.load %A[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %two = tile.constant 2.0 : !tile.tile<[tile_i], f32>
  %m = tile.mul %a, %two : !tile.tile<[tile_i], f32>
  %sb = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %a2 = tile.load %A[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %b2 = tile.load %B[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %ab = tile.add %a2, %b2 : !tile.tile<[tile_i], f32>
  %abb = tile.bcast %ab [1] : !tile.tile<[tile_i], f32> -> !tile.tile<[tile_i, tile_j], f32>
  %sc = tile.store %abb, %C[%t, %u] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<64x64xf32, output>
  %lj = tile.loop %j = 0 to 64 step %tj body %sc
  %s2 = tile.seq %sb, %lj
  %body = tile.seq %sa, %s2
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// A transpose copy (the loaded tensor's innermost dimension becomes a
// destination row): each thread takes 8 x 8 blocks, 8 vector loads along
// the source's rows and 8 vector stores along the destination's, so both
// sides are read and written in 16-byte pieces.
// CHECK-LABEL: gpu.func @transpose_blocks_k0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c32 step %c256
// CHECK-COUNT-8: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
// CHECK-COUNT-8: vector.store %{{.*}}, %arg1{{.*}} {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK: gpu.return
tile.program @transpose_blocks(%K: !tile.tensor<64x64xf16, input>,
                               %T: !tile.tensor<64x64xf16, output>) attributes {tile.tile_sizes = {tile_p = 32}} {
  %p = tile.var "p"
  %sp = tile.size "tile_p"
  %full = tile.full
  %tp = tile.tile %p
  %k = tile.load %K[%tp, %full] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_p, 64], f16>
  %t = tile.permute %k [1, 0] : !tile.tile<[tile_p, 64], f16> -> !tile.tile<[64, tile_p], f16>
  %s = tile.store %t, %T[%full, %tp] : !tile.tile<[64, tile_p], f16>, !tile.tensor<64x64xf16, output>
  %l = tile.loop %p = 0 to 64 step %sp body %s
  tile.yield %l
}

// -----

// 4 columns per tile: no 8 x 8 blocks; the copy runs element by element.
// CHECK-LABEL: gpu.func @transpose_narrow_k0
// CHECK-NOT: vector.store
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: vector.store
// CHECK: gpu.return
tile.program @transpose_narrow(%K: !tile.tensor<64x64xf16, input>,
                               %T: !tile.tensor<64x64xf16, output>) attributes {tile.tile_sizes = {tile_p = 4}} {
  %p = tile.var "p"
  %sp = tile.size "tile_p"
  %full = tile.full
  %tp = tile.tile %p
  %k = tile.load %K[%tp, %full] : !tile.tensor<64x64xf16, input> -> !tile.tile<[tile_p, 64], f16>
  %t = tile.permute %k [1, 0] : !tile.tile<[tile_p, 64], f16> -> !tile.tile<[64, tile_p], f16>
  %s = tile.store %t, %T[%full, %tp] : !tile.tile<[64, tile_p], f16>, !tile.tensor<64x64xf16, output>
  %l = tile.loop %p = 0 to 64 step %sp body %s
  tile.yield %l
}

// -----

// A plain store of 1024 elements on 256 threads: each thread computes 4
// elements together (element g + 256 i in lane i), all 4 loads before the
// first store, one group per thread; 64 elements take one lane.
// CHECK-LABEL: gpu.func @plain_lanes_k0
// CHECK: scf.for %{{.*}} = %thread_id_x to %c1024 step %c1024
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.store {{.*}}, %arg1
// CHECK-NOT: memref.load
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @plain_lanes_k1
// CHECK-COUNT-1: memref.load %arg0
// CHECK-NOT: memref.load
// CHECK: gpu.return
tile.program @plain_lanes(%A: !tile.tensor<16x64xf32, input>,
                          %B: !tile.tensor<16x64xf16, output>,
                          %C: !tile.tensor<64xf16, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<16x64xf32, input> -> !tile.tile<[16, 64], f32>
  %h = tile.cast %a : !tile.tile<[16, 64], f32> -> !tile.tile<[16, 64], f16>
  %s = tile.store %h, %B[%full, %full] : !tile.tile<[16, 64], f16>, !tile.tensor<16x64xf16, output>
  %c0 = tile.const_tile 0, 1
  %r = tile.load %A[%c0, %full] : !tile.tensor<16x64xf32, input> -> !tile.tile<[1, 64], f32>
  %rh = tile.cast %r : !tile.tile<[1, 64], f32> -> !tile.tile<[1, 64], f16>
  %rr = tile.reshape %rh : !tile.tile<[1, 64], f16> -> !tile.tile<[64], f16>
  %s2 = tile.store %rr, %C[%full] : !tile.tile<[64], f16>, !tile.tensor<64xf16, output>
  %q = tile.seq %s, %s2
  tile.yield %q
}

// -----

// Must not cut the sum among lanes: it runs over the outer dimension of its
// tile (column sums), where adjacent threads would not read adjacent
// addresses; each thread sums its column's chunk alone.
// RLANES-LABEL: func.func @column_sums
// RLANES: blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
// RLANES: gpu.func @column_sums_k0
// RLANES-NOT: workgroup
// RLANES: memref.atomic_rmw addf
tile.program @column_sums(%A: !tile.tensor<64x4xf32, input>,
                          %S: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%t, %full] : !tile.tensor<64x4xf32, input> -> !tile.tile<[tile_i, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 0 : !tile.tile<[tile_i, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %st
  tile.yield %l
}

// -----

// Must not start from zero: an earlier kernel wrote S, so the accumulation
// loads it before its loop. S is still overwritten (its first kernel writes
// it whole and reads none of it). T is accumulated from zero (no kernel
// touched it before), but only rows 0 and 1 of 4 are written: its other
// rows must hold zeros, so it is not overwritten.
// CHECK-LABEL: func.func @accumulate_after_write
// CHECK-SAME: tile.name = "S", tile.overwritten, tile.role = "intermediate"
// CHECK-NOT: tile.overwritten
// CHECK-SAME: tile.name = "T", tile.role = "output"
// CHECK: gpu.func @accumulate_after_write_k1
// CHECK: %[[S0:.*]] = memref.load %arg1
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[S0]])
// CHECK: gpu.func @accumulate_after_write_k2
// CHECK-NOT: memref.load %arg1
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %cst)
tile.program @accumulate_after_write(%A: !tile.tensor<4x64xf32, input>,
                                     %S: !tile.tensor<4xf32, intermediate>,
                                     %T: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %c0 = tile.const_tile 0, 1
  %half = tile.const_tile 0, 2
  %a0 = tile.load %A[%full, %c0] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, 1], f32>
  %a0s = tile.squeeze %a0, 1 : !tile.tile<[4, 1], f32> -> !tile.tile<[4], f32>
  %init = tile.store %a0s, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %a = tile.load %A[%full, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %loop = tile.loop %i = 0 to 64 step %ti body %st
  %ah = tile.load %A[%half, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[2, tile_i], f32>
  %th = tile.load %T[%half] : !tile.tensor<4xf32, output> -> !tile.tile<[2], f32>
  %rh = tile.rsum %ah, 1 : !tile.tile<[2, tile_i], f32> -> !tile.tile<[2], f32>
  %nh = tile.add %th, %rh : !tile.tile<[2], f32>
  %sth = tile.store %nh, %T[%half] : !tile.tile<[2], f32>, !tile.tensor<4xf32, output>
  %looph = tile.loop %i = 0 to 64 step %ti body %sth
  %rest = tile.seq %loop, %looph
  %all = tile.seq %init, %rest
  tile.yield %all
}

// -----

// Two row sums accumulated in one loop over k, inside a parallel loop over
// 4 row tiles: one kernel of 4 blocks. With fission-blocks=8 the k loop is
// distributed (neither sum touches the other's tensors): one kernel per
// sum, each of which split-k could cut on its own (projections fused into
// one loop over the model dimension).
// CHECK-LABEL: func.func @distribute
// CHECK: gpu.launch_func @distribute_kernels::@distribute_k0 blocks in (%c4,
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @distribute_k0
// FISSION-LABEL: func.func @distribute
// FISSION: gpu.launch_func @distribute_kernels::@distribute_k0 blocks in (%c4,
// FISSION: gpu.launch_func @distribute_kernels::@distribute_k1 blocks in (%c4,
// FISSION-NOT: gpu.launch_func
tile.program @distribute(%X: !tile.tensor<64x64xf32, input>,
                         %Y: !tile.tensor<64x64xf32, input>,
                         %A: !tile.tensor<64xf32, output>,
                         %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_k = 16}} {
  %i = tile.var "i"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tk = tile.size "tile_k"
  %t = tile.tile %i
  %u = tile.tile %k
  %x = tile.load %X[%t, %u] : !tile.tensor<64x64xf32, input> -> !tile.tile<[tile_i, tile_k], f32>
  %rx = tile.rsum %x, 1 : !tile.tile<[tile_i, tile_k], f32> -> !tile.tile<[tile_i], f32>
  %a = tile.load %A[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %na = tile.add %a, %rx : !tile.tile<[tile_i], f32>
  %sa = tile.store %na, %A[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %y = tile.load %Y[%t, %u] : !tile.tensor<64x64xf32, input> -> !tile.tile<[tile_i, tile_k], f32>
  %ry = tile.rsum %y, 1 : !tile.tile<[tile_i, tile_k], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %nb = tile.add %b, %ry : !tile.tile<[tile_i], f32>
  %sb = tile.store %nb, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %body = tile.seq %sa, %sb
  %lk = tile.loop %k = 0 to 64 step %tk body %body
  %li = tile.loop %i = 0 to 64 step %ti body %lk
  tile.yield %li
}

// -----

// As @distribute, but the second sum adds the first's running value: the
// statements depend on each other, so the k loop is not distributed.
// FISSION-LABEL: func.func @distribute_dependent
// FISSION: gpu.launch_func @distribute_dependent_kernels::@distribute_dependent_k0 blocks in (%c4,
// FISSION-NOT: gpu.launch_func
tile.program @distribute_dependent(%X: !tile.tensor<64x64xf32, input>,
                                   %Y: !tile.tensor<64x64xf32, input>,
                                   %A: !tile.tensor<64xf32, output>,
                                   %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16, tile_k = 16}} {
  %i = tile.var "i"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tk = tile.size "tile_k"
  %t = tile.tile %i
  %u = tile.tile %k
  %x = tile.load %X[%t, %u] : !tile.tensor<64x64xf32, input> -> !tile.tile<[tile_i, tile_k], f32>
  %rx = tile.rsum %x, 1 : !tile.tile<[tile_i, tile_k], f32> -> !tile.tile<[tile_i], f32>
  %a = tile.load %A[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %na = tile.add %a, %rx : !tile.tile<[tile_i], f32>
  %sa = tile.store %na, %A[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %y = tile.load %Y[%t, %u] : !tile.tensor<64x64xf32, input> -> !tile.tile<[tile_i, tile_k], f32>
  %ry = tile.rsum %y, 1 : !tile.tile<[tile_i, tile_k], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %a2 = tile.load %A[%t] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %ya = tile.add %ry, %a2 : !tile.tile<[tile_i], f32>
  %nb = tile.add %b, %ya : !tile.tile<[tile_i], f32>
  %sb = tile.store %nb, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %body = tile.seq %sa, %sb
  %lk = tile.loop %k = 0 to 64 step %tk body %body
  %li = tile.loop %i = 0 to 64 step %ti body %lk
  tile.yield %li
}
