// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 16, tile_d = 32}}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 16, tile_d = 16, tile_k = 4}}" --canonicalize --cse | FileCheck %s --check-prefixes=TWO,SPLIT
// tile_d defaulted (max-tile-size 16): it takes the whole head dimension
// because that makes the p loop a warp loop; not when warp loops are off.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 16, split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,WHOLE
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 16, split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, warp_loops = false, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefixes=TWO,HALF
// Halving a size for blocks never takes a warp loop (@flash_grid).
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=GUARD
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 32, split_k = 4, min_blocks = 16, fission_blocks = 16, mma = true, warp_loops = false, tile_sizes = {tile_p = 16}}" --canonicalize --cse | FileCheck %s --check-prefix=NOGUARD
// RUN: tile-run %s --entry flash_grid --device emulate --gpu-config="split_k = 4, min_blocks = 16, fission_blocks = 16" --tile-sizes tile_p=16 --max-tile-size 32 | FileCheck %s --check-prefix=EMU
// Each program, on the host emulation of its kernels (without mma, which
// the emulation cannot run; the folds are the same), against the
// interpreter, with the folds firing and not.
// RUN: tile-run %s --entry flash_linalg --device emulate --gpu-config="split_k = 4, min_blocks = 16" --tile-sizes tile_p=16,tile_d=32 | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry flash_linalg --device emulate --gpu-config="split_k = 4, min_blocks = 16" --tile-sizes tile_p=16,tile_d=16 | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rows_once --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry rows_summed --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry inout_rows --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry two_writers --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry shared_var --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry shared_var --device emulate --tile-sizes tile_k=4 | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// The plan folds of --tile-lower-to-gpu="config={max_tile_size = 0}" (docs/GPULowering.md, "Folds"):
// the FlashAttention loop as --tile-optimize extracts it from linalg, the
// scores accumulated over the head dimension d inside the loop over the
// KV length p (`loop d { S += Q[.., d] Kc[.., d]^T }`). With tile_d = 32,
// the whole head dimension, the d loop has one trip and is folded, and S,
// an intermediate written by nothing else, a region per (h, p), reads its
// starting zeros there: the accumulation is the store S = Q Kc^T, and the p
// loop is a warp loop (mma.sync from registers, S neither loaded nor
// stored).
// CHECK-LABEL: func.func @flash_linalg
// WHOLE-SAME: tile.tile_sizes = {tile_d = 32 : i64, tile_p = 16 : i64}
// CHECK: gpu.launch_func @flash_linalg_kernels::@flash_linalg_k0 blocks in (%c16, %c1, %c1) threads in (%c32, %c1, %c1)
// CHECK: gpu.func @flash_linalg_k0
// CHECK: scf.for
// CHECK-COUNT-4: nvgpu.mma.sync
// CHECK: math.exp
// CHECK: scf.yield
// CHECK-NOT: %arg4
// CHECK: gpu.return
// Must not: with tile_d = 16 the d loop has 2 trips, the second adding to
// the first's sums; the accumulation stays, and so does the block-level
// path.
// TWO-LABEL: func.func @flash_linalg
// HALF-SAME: tile.tile_sizes = {tile_d = 16 : i64, tile_p = 16 : i64}
// TWO: gpu.func @flash_linalg_k0
// TWO-NOT: nvgpu.mma.sync
// TWO: memref.load %arg4
// TWO: gpu.return
tile.program @flash_linalg(
    %Q: !tile.tensor<4x16x32xf16, input>,
    %Kc: !tile.tensor<4x64x32xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %S: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf32, intermediate>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %d = tile.var "d"
  %tile_p = tile.size "tile_p"
  %tile_d = tile.size "tile_d"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %td = tile.tile %d
  %s = tile.load %S[%eh, %full, %tp] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %qd = tile.load %Q[%eh, %full, %td] : !tile.tensor<4x16x32xf16, input> -> !tile.tile<[1, 16, tile_d], f16>
  %kd = tile.load %Kc[%eh, %tp, %td] : !tile.tensor<4x64x32xf16, input> -> !tile.tile<[1, tile_p, tile_d], f16>
  %kdt = tile.transpose %kd, 1, 2 : !tile.tile<[1, tile_p, tile_d], f16> -> !tile.tile<[1, tile_d, tile_p], f16>
  %qk = tile.matmul %qd, %kdt : !tile.tile<[1, 16, tile_d], f16>, !tile.tile<[1, tile_d, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %sn = tile.add %s, %qk : !tile.tile<[1, 16, tile_p], f32>
  %ss = tile.store %sn, %S[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<4x16x64xf32, intermediate>
  %ld = tile.loop %d = 0 to 32 step %tile_d body %ss
  %e = tile.exp %s : !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %es = tile.rsum %e, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %es : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x16x16xf32, output> -> !tile.tile<[1, 16, 16], f32>
  %e16 = tile.cast %e : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %pv = tile.matmul %e16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %ld, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  tile.yield %lh
}

// -----

// An accumulation into an output that each iteration of the row loop
// writes at its own row: it reads zeros, so it is the store T = exp(A),
// T is loaded nowhere and, written whole by its first kernel, is marked
// overwritten (no clearing before a call).
// CHECK-LABEL: func.func @rows_once
// CHECK-SAME: tile.name = "T", tile.overwritten, tile.role = "output"
// CHECK: gpu.func @rows_once_k0
// CHECK-NOT: memref.load %arg1
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: gpu.return
tile.program @rows_once(%A: !tile.tensor<4x8xf32, input>,
                        %T: !tile.tensor<4x8xf32, output>) {
  %i = tile.var "i"
  %c1 = tile.size 1
  %full = tile.full
  %ei = tile.elem %i
  %a = tile.load %A[%ei, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %e = tile.exp %a : !tile.tile<[1, 8], f32>
  %t = tile.load %T[%ei, %full] : !tile.tensor<4x8xf32, output> -> !tile.tile<[1, 8], f32>
  %n = tile.add %t, %e : !tile.tile<[1, 8], f32>
  %st = tile.store %n, %T[%ei, %full] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, output>
  %l = tile.loop %i = 0 to 4 step %c1 body %st
  tile.yield %l
}

// -----

// Must not: every iteration adds to the same row (a sum over the rows of
// A); the accumulation stays (split over the 4 rows, added atomically),
// and T is cleared before a call.
// CHECK-LABEL: func.func @rows_summed
// CHECK-NOT: tile.overwritten
// CHECK: gpu.func @rows_summed_k0
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg1
// CHECK: gpu.return
tile.program @rows_summed(%A: !tile.tensor<4x8xf32, input>,
                          %T: !tile.tensor<1x8xf32, output>) {
  %i = tile.var "i"
  %c1 = tile.size 1
  %full = tile.full
  %ei = tile.elem %i
  %a = tile.load %A[%ei, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %e = tile.exp %a : !tile.tile<[1, 8], f32>
  %t = tile.load %T[%full, %full] : !tile.tensor<1x8xf32, output> -> !tile.tile<[1, 8], f32>
  %n = tile.add %t, %e : !tile.tile<[1, 8], f32>
  %st = tile.store %n, %T[%full, %full] : !tile.tile<[1, 8], f32>, !tile.tensor<1x8xf32, output>
  %l = tile.loop %i = 0 to 4 step %c1 body %st
  tile.yield %l
}

// -----

// Must not: an inout tensor holds the caller's values, not zeros.
// CHECK-LABEL: func.func @inout_rows
// CHECK: gpu.func @inout_rows_k0
// CHECK: memref.load %arg1
// CHECK: gpu.return
tile.program @inout_rows(%A: !tile.tensor<4x8xf32, input>,
                         %T: !tile.tensor<4x8xf32, inout>) {
  %i = tile.var "i"
  %c1 = tile.size 1
  %full = tile.full
  %ei = tile.elem %i
  %a = tile.load %A[%ei, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %e = tile.exp %a : !tile.tile<[1, 8], f32>
  %t = tile.load %T[%ei, %full] : !tile.tensor<4x8xf32, inout> -> !tile.tile<[1, 8], f32>
  %n = tile.add %t, %e : !tile.tile<[1, 8], f32>
  %st = tile.store %n, %T[%ei, %full] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, inout>
  %l = tile.loop %i = 0 to 4 step %c1 body %st
  tile.yield %l
}

// -----

// Must not: a first statement writes T (A itself) before the rows are
// added to it; the second kernel loads what the first stored.
// CHECK-LABEL: func.func @two_writers
// CHECK: gpu.func @two_writers_k1
// CHECK: memref.load %arg1
// CHECK: gpu.return
tile.program @two_writers(%A: !tile.tensor<4x8xf32, input>,
                          %T: !tile.tensor<4x8xf32, output>) {
  %i = tile.var "i"
  %c1 = tile.size 1
  %full = tile.full
  %ei = tile.elem %i
  %all = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %first = tile.store %all, %T[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %a = tile.load %A[%ei, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %e = tile.exp %a : !tile.tile<[1, 8], f32>
  %t = tile.load %T[%ei, %full] : !tile.tensor<4x8xf32, output> -> !tile.tile<[1, 8], f32>
  %n = tile.add %t, %e : !tile.tile<[1, 8], f32>
  %st = tile.store %n, %T[%ei, %full] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, output>
  %l = tile.loop %i = 0 to 4 step %c1 body %st
  %seq = tile.seq %first, %l
  tile.yield %seq
}

// -----

// Two loops over k bind the same variable inside the row loop: the first,
// whose body is two stores, is kept; the second, around one accumulation
// of row sums, is folded. With tile_k = 8 both have one trip from 0, so k
// is 0 wherever it is bound: the kept loop's indices become constants too,
// and the accumulation into T, now enclosed by the row loop alone, which
// indexes it, is the store T = rsum(exp(A)): T is not loaded and is marked
// overwritten (qknorm's RMS statistic over the head dimension beside its
// scores, both stepping by one size).
// CHECK-LABEL: func.func @shared_var
// CHECK-SAME: tile.name = "T", tile.overwritten, tile.role = "output"
// CHECK: gpu.func @shared_var_k1
// CHECK-NOT: memref.atomic_rmw
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: gpu.return
// Must not: with tile_k = 4 both loops have two trips; the second sums two
// tiles into T's row: the accumulation stays, split across blocks and
// added atomically.
// SPLIT-LABEL: func.func @shared_var
// SPLIT-NOT: tile.name = "T", tile.overwritten
// SPLIT: gpu.func @shared_var_k1
// SPLIT: memref.atomic_rmw addf %{{.*}}, %arg1
// SPLIT: gpu.return
tile.program @shared_var(%A: !tile.tensor<4x8xf32, input>,
                         %U: !tile.tensor<4x8xf32, output>,
                         %V: !tile.tensor<4x8xf32, output>,
                         %T: !tile.tensor<4xf32, output>) attributes {tile.tile_sizes = {tile_k = 8}} {
  %i = tile.var "i"
  %k = tile.var "k"
  %c1 = tile.size 1
  %tile_k = tile.size "tile_k"
  %ei = tile.elem %i
  %tk = tile.tile %k
  %a = tile.load %A[%ei, %tk] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, tile_k], f32>
  %two = tile.add %a, %a : !tile.tile<[1, tile_k], f32>
  %su = tile.store %two, %U[%ei, %tk] : !tile.tile<[1, tile_k], f32>, !tile.tensor<4x8xf32, output>
  %sq = tile.mul %a, %a : !tile.tile<[1, tile_k], f32>
  %sv = tile.store %sq, %V[%ei, %tk] : !tile.tile<[1, tile_k], f32>, !tile.tensor<4x8xf32, output>
  %uv = tile.seq %su, %sv
  %l1 = tile.loop %k = 0 to 8 step %tile_k body %uv
  %e = tile.exp %a : !tile.tile<[1, tile_k], f32>
  %r = tile.rsum %e, 1 : !tile.tile<[1, tile_k], f32> -> !tile.tile<[1], f32>
  %t = tile.load %T[%ei] : !tile.tensor<4xf32, output> -> !tile.tile<[1], f32>
  %n = tile.add %t, %r : !tile.tile<[1], f32>
  %st = tile.store %n, %T[%ei] : !tile.tile<[1], f32>, !tile.tensor<4xf32, output>
  %l2 = tile.loop %k = 0 to 8 step %tile_k body %st
  %both = tile.seq %l1, %l2
  %l = tile.loop %i = 0 to 4 step %c1 body %both
  tile.yield %l
}

// -----

// Must not halve: tile_d also steps the grid of the kernel that writes Y
// and Z (4 blocks, below min-blocks 16). Halving it would give that kernel
// more blocks and take the p loop's warp loop; with warp loops the size
// stays the whole head dimension, without them it is halved.
// GUARD-LABEL: func.func @flash_grid
// GUARD-SAME: tile.tile_sizes = {tile_d = 32 : i64, tile_p = 16 : i64}
// GUARD: nvgpu.mma.sync
// NOGUARD-LABEL: func.func @flash_grid
// NOGUARD-SAME: tile.tile_sizes = {tile_d = 8 : i64, tile_p = 16 : i64}
tile.program @flash_grid(
    %Q: !tile.tensor<4x16x32xf16, input>,
    %Kc: !tile.tensor<4x64x32xf16, input>,
    %Vc: !tile.tensor<4x64x16xf16, input>,
    %O: !tile.tensor<4x16x16xf32, output>,
    %S: !tile.tensor<4x16x64xf32, intermediate>,
    %accm: !tile.tensor<4x16xf32, intermediate>,
    %Y: !tile.tensor<4x16x32xf32, output>,
    %Z: !tile.tensor<4x16x32xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %d = tile.var "d"
  %tile_p = tile.size "tile_p"
  %tile_d = tile.size "tile_d"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %td = tile.tile %d
  %s = tile.load %S[%eh, %full, %tp] : !tile.tensor<4x16x64xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %qd = tile.load %Q[%eh, %full, %td] : !tile.tensor<4x16x32xf16, input> -> !tile.tile<[1, 16, tile_d], f16>
  %kd = tile.load %Kc[%eh, %tp, %td] : !tile.tensor<4x64x32xf16, input> -> !tile.tile<[1, tile_p, tile_d], f16>
  %kdt = tile.transpose %kd, 1, 2 : !tile.tile<[1, tile_p, tile_d], f16> -> !tile.tile<[1, tile_d, tile_p], f16>
  %qk = tile.matmul %qd, %kdt : !tile.tile<[1, 16, tile_d], f16>, !tile.tile<[1, tile_d, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %sn = tile.add %s, %qk : !tile.tile<[1, 16, tile_p], f32>
  %ss = tile.store %sn, %S[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<4x16x64xf32, intermediate>
  %ld = tile.loop %d = 0 to 32 step %tile_d body %ss
  %e = tile.exp %s : !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %es = tile.rsum %e, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %es : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<4x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<4x16x16xf32, output> -> !tile.tile<[1, 16, 16], f32>
  %e16 = tile.cast %e : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<4x64x16xf16, input> -> !tile.tile<[1, tile_p, 16], f16>
  %pv = tile.matmul %e16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 16], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %ld, %att2
  %lp = tile.loop %p = 0 to 64 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 16], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<4x16x16xf32, output>
  %e_ = tile.var "e"
  %te = tile.tile %e_
  %qe = tile.load %Q[%eh, %full, %te] : !tile.tensor<4x16x32xf16, input> -> !tile.tile<[1, 16, tile_d], f16>
  %qe32 = tile.cast %qe : !tile.tile<[1, 16, tile_d], f16> -> !tile.tile<[1, 16, tile_d], f32>
  %sy = tile.store %qe32, %Y[%eh, %full, %te] : !tile.tile<[1, 16, tile_d], f32>, !tile.tensor<4x16x32xf32, output>
  %qe2 = tile.mul %qe32, %qe32 : !tile.tile<[1, 16, tile_d], f32>
  %sz = tile.store %qe2, %Z[%eh, %full, %te] : !tile.tile<[1, 16, tile_d], f32>, !tile.tensor<4x16x32xf32, output>
  %yz = tile.seq %sy, %sz
  %le = tile.loop %e_ = 0 to 32 step %tile_d body %yz
  %att0 = tile.seq %lp, %sod
  %att = tile.seq %le, %att0
  %lh = tile.loop %h = 0 to 4 step %c1 body %att
  tile.yield %lh
}
