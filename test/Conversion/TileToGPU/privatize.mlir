// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={privatize = false, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={element_loops = false, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// Each program, on the host emulation of its kernels, against the interpreter.
// RUN: tile-run %s --entry recompute --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry recompute --device emulate --gpu-config="element_loops = false" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry read_after --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry not_cleared --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry fused --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry reads_ahead --device emulate | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// Privatization (`privatize`, docs/GPULowering.md): a top-level loop over s
// (2 iterations) whose body clears S, sums squares into it and divides by
// it, as loop-insertion-recompute leaves the RMS statistic. Every iteration
// writes all of S, so s is not parallel as written and the kernel runs on
// one block; with S expanded to one copy per iteration (2 x 4 floats,
// indexed by elem s) it runs on 2.
// CHECK-LABEL: func.func @recompute
// CHECK: gpu.launch_func @recompute_kernels::@recompute_k0 blocks in (%c2, %c1, %c1)
// CHECK-SAME: memref<8xf32>
// OFF-LABEL: func.func @recompute
// OFF: gpu.launch_func @recompute_kernels::@recompute_k0 blocks in (%c1, %c1, %c1)

tile.program @recompute(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %P: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %s = tile.var "s"
  %j = tile.var "j"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %ts = tile.tile %s
  %es = tile.elem %s
  %tj = tile.tile %j
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %acc0 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %acc0, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %stat = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %y = tile.load %B[%full, %ts] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 8], f32>
  %use = tile.store %q, %O[%full, %ts] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %b0 = tile.seq %stat, %use
  %b = tile.seq %reset, %b0
  %l = tile.loop %s = 0 to 16 step %c8 body %b
  tile.yield %l
}

// -----

// Must not: a later statement reads S (the value the last iteration left),
// so S keeps one copy and the loop one block.
// CHECK-LABEL: func.func @read_after
// CHECK: gpu.launch_func @read_after_kernels::@read_after_k0 blocks in (%c1, %c1, %c1)
// CHECK-SAME: memref<4xf32>

tile.program @read_after(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %P: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %s = tile.var "s"
  %j = tile.var "j"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %ts = tile.tile %s
  %es = tile.elem %s
  %tj = tile.tile %j
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %acc0 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %acc0, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %stat = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %y = tile.load %B[%full, %ts] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 8], f32>
  %use = tile.store %q, %O[%full, %ts] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %b0 = tile.seq %stat, %use
  %b = tile.seq %reset, %b0
  %l = tile.loop %s = 0 to 16 step %c8 body %b
  %after = tile.store %sv, %P[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %top = tile.seq %l, %after
  tile.yield %top
}

// -----

// Must not: no clear before the sum, so each iteration adds to what the
// previous one left (a different program: S counts every iteration).
// CHECK-LABEL: func.func @not_cleared
// CHECK: gpu.launch_func @not_cleared_kernels::@not_cleared_k0 blocks in (%c1, %c1, %c1)
// CHECK-SAME: memref<4xf32>

tile.program @not_cleared(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %P: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %s = tile.var "s"
  %j = tile.var "j"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %ts = tile.tile %s
  %es = tile.elem %s
  %tj = tile.tile %j
  %zero = tile.constant 0.000000e+00 : !tile.tile<[4], f32>
  %reset = tile.store %zero, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %acc0 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %acc0, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %stat = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %y = tile.load %B[%full, %ts] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 8], f32>
  %use = tile.store %q, %O[%full, %ts] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %b = tile.seq %stat, %use
  %l = tile.loop %s = 0 to 16 step %c8 body %b
  tile.yield %l
}

// -----

// A scratch tile stored and read back in the same iteration of an inner
// loop (a producer fused into its consumer): the j loop stores all of N
// before anything else reads it, so N gets one copy per s (2 x 64 floats),
// and both s and j (each iteration its own tile of its copy) are the grid.
// CHECK-LABEL: func.func @fused
// CHECK: gpu.launch_func @fused_kernels::@fused_k0 blocks in (%c8, %c1, %c1)
// CHECK-SAME: memref<128xf32>
tile.program @fused(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %N: !tile.tensor<4x16xf32, intermediate>,
    %Q: !tile.tensor<2x4x16xf32, output>) {
  %full = tile.full
  %s = tile.var "s"
  %j = tile.var "j"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %es = tile.elem %s
  %tj = tile.tile %j
  %b = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %b2 = tile.mul %b, %b : !tile.tile<[4, 4], f32>
  %st = tile.store %b2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %n = tile.load %N[%full, %tj] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.add %n, %a : !tile.tile<[4, 4], f32>
  %q3 = tile.reshape %q : !tile.tile<[4, 4], f32> -> !tile.tile<[1, 4, 4], f32>
  %use = tile.store %q3, %Q[%es, %full, %tj] : !tile.tile<[1, 4, 4], f32>, !tile.tensor<2x4x16xf32, output>
  %body = tile.seq %st, %use
  %lj = tile.loop %j = 0 to 16 step %c4 body %body
  %l = tile.loop %s = 0 to 16 step %c8 body %lj
  tile.yield %l
}

// -----

// Must not: after storing its tile, the j loop reads all of N, most of it
// not yet written in this iteration of s (the previous iteration's values
// as written); N keeps one copy and the loop one block.
// CHECK-LABEL: func.func @reads_ahead
// CHECK: gpu.launch_func @reads_ahead_kernels::@reads_ahead_k0 blocks in (%c1, %c1, %c1)
// CHECK-SAME: memref<64xf32>, %{{.*}} : memref<128xf32>)
tile.program @reads_ahead(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %N: !tile.tensor<4x16xf32, intermediate>,
    %Q: !tile.tensor<2x4x16xf32, output>) {
  %full = tile.full
  %s = tile.var "s"
  %j = tile.var "j"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %es = tile.elem %s
  %tj = tile.tile %j
  %b = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %b2 = tile.mul %b, %b : !tile.tile<[4, 4], f32>
  %st = tile.store %b2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %n = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %r = tile.rsum %n, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %rb = tile.bcast %r [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.add %rb, %a : !tile.tile<[4, 4], f32>
  %q3 = tile.reshape %q : !tile.tile<[4, 4], f32> -> !tile.tile<[1, 4, 4], f32>
  %use = tile.store %q3, %Q[%es, %full, %tj] : !tile.tile<[1, 4, 4], f32>, !tile.tensor<2x4x16xf32, output>
  %body = tile.seq %st, %use
  %lj = tile.loop %j = 0 to 16 step %c4 body %body
  %l = tile.loop %s = 0 to 16 step %c8 body %lj
  tile.yield %l
}
