// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, block_size = 32, split_k = 4, min_blocks = 64}" --canonicalize --cse | FileCheck %s --check-prefix=SPLIT
// Each program, on the host emulation of its kernels (which lowers without
// the matrix units), against the interpreter.
// RUN: tile-run %s --entry online --device emulate | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --entry no_repair --device emulate | FileCheck %s --check-prefix=EMU
// EMU: PASS

// Online warp loops (docs/GPULowering.md): FlashAttention-2's loop as the
// online-softmax rule writes it. Per head: M = -inf; for each 16-key tile,
// the scores S (a stored tile), M' = max(M, rmax S), Z = Z * alpha +
// rsum(E), A = A * alpha + E V with alpha = exp(M - M') and
// E = exp(S - M'), then M = M'; after the loop O = A / Z. Each of the 4
// warps takes every 4th key tile with its own running maximum of its 16
// rows (quad shuffles for the row maximum of a tile), rescales its sums by
// alpha, and at the end the warps' maxima meet in shared memory, every
// warp scales its sums to the block's and they are added up; the first
// warp merges that into M, Z and A with plain stores (the block is their
// only writer). The GPU runs: test/GPU/online-warp-loop.test.
// CHECK-LABEL: func.func @online
// CHECK: gpu.launch_func @online_kernels::@online_k0 blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, vector<2x2xf32>, vector<2x2xf32>)
// CHECK: nvgpu.mma.sync
// CHECK: gpu.shuffle  xor
// CHECK: gpu.shuffle  xor
// CHECK: math.exp
// A compiler barrier keeps P.V's operand loads after the scores (registers).
// CHECK: llvm.inline_asm has_side_effects "", "~{memory}"
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: memref.store %{{.*}}#0, %{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return

// Split-KV (`split_k` chunks while the grid is short of `min_blocks`): one
// warp a block here, each of the 4 key tiles on a block of its own (2 heads
// x 4 chunks). After the loop the block writes its state (maxima, row sums,
// P.V) to its scratch, counts itself on its head's counter (fenced), and
// the last of the 4 merges every chunk's state into M, Z and A and alone
// runs the division after the loop, then clears the counter.
// SPLIT-LABEL: func.func @online
// SPLIT: gpu.launch_func @online_kernels::@online_k0 blocks in (%c8, %c1, %c1) threads in (%c32, %c1, %c1)
// SPLIT: gpu.func @online_k0
// SPLIT: scf.for {{.*}} -> (f32, f32, f32, f32, vector<2x2xf32>, vector<2x2xf32>)
// SPLIT: scf.yield
// SPLIT: memref.store {{.*}}, %arg8[{{.*}}] : memref<{{[0-9]+}}xf32>
// SPLIT: llvm.fence syncscope("agent") acq_rel
// SPLIT-NEXT: memref.atomic_rmw addf %{{.*}}, %arg9[%{{.*}}] : (f32, memref<2xf32>) -> f32
// SPLIT: llvm.fence syncscope("agent") acq_rel
// SPLIT: scf.if %[[LAST:.*]] {
// SPLIT: memref.load %arg8
// SPLIT: memref.store %{{.*}}, %arg9
// SPLIT: scf.if %[[LAST]] {
// SPLIT: arith.divf
// SPLIT: gpu.return

tile.program @online(
    %Q: !tile.tensor<2x16x16xf16, input>,
    %K: !tile.tensor<2x64x16xf16, input>,
    %V: !tile.tensor<2x64x16xf16, input>,
    %M: !tile.tensor<2x16xf32, intermediate>,
    %Z: !tile.tensor<2x16xf32, intermediate>,
    %A: !tile.tensor<2x16x16xf32, intermediate>,
    %S: !tile.tensor<2x16x64xf32, intermediate>,
    %O: !tile.tensor<2x16x16xf32, output>) {
  %h = tile.var "h"
  %k = tile.var "k"
  %c1 = tile.size 1
  %c16 = tile.size 16
  %f = tile.full
  %eh = tile.elem %h
  %tk = tile.tile %k
  %ninf = tile.constant -inf : !tile.tile<[1, 16], f32>
  %minit = tile.store %ninf, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %q = tile.load %Q[%eh, %f, %f] : !tile.tensor<2x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt0 = tile.load %K[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt = tile.permute %kt0 [0, 2, 1] : !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f16>
  %s0 = tile.matmul %q, %kt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %sts = tile.store %s0, %S[%eh, %f, %tk] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x64xf32, intermediate>
  %s = tile.load %S[%eh, %f, %tk] : !tile.tensor<2x16x64xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %mold = tile.load %M[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %rm = tile.rmax %s, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %mnew = tile.max %mold, %rm : !tile.tile<[1, 16], f32>
  %d0 = tile.sub %mold, %mnew : !tile.tile<[1, 16], f32>
  %alpha = tile.exp %d0 : !tile.tile<[1, 16], f32>
  %mb = tile.bcast %mnew [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %sd = tile.sub %s, %mb : !tile.tile<[1, 16, 16], f32>
  %e = tile.exp %sd : !tile.tile<[1, 16, 16], f32>
  %zold = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zs = tile.mul %zold, %alpha : !tile.tile<[1, 16], f32>
  %ze = tile.rsum %e, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %zn = tile.add %zs, %ze : !tile.tile<[1, 16], f32>
  %stz = tile.store %zn, %Z[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %eh16 = tile.cast %e : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16, 16], f16>
  %v = tile.load %V[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %pv = tile.matmul %eh16, %v : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %aold = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %ab = tile.bcast %alpha [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %as = tile.mul %aold, %ab : !tile.tile<[1, 16, 16], f32>
  %an = tile.add %pv, %as : !tile.tile<[1, 16, 16], f32>
  %sta = tile.store %an, %A[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, intermediate>
  %stm = tile.store %mnew, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %b1 = tile.seq %sta, %stm
  %b2 = tile.seq %stz, %b1
  %b3 = tile.seq %sts, %b2
  %lk = tile.loop %k = 0 to 64 step %c16 body %b3
  %af = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %zf = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zfb = tile.bcast %zf [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %o = tile.div %af, %zfb : !tile.tile<[1, 16, 16], f32>
  %sto = tile.store %o, %O[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, output>
  %p1 = tile.seq %lk, %sto
  %p2 = tile.seq %minit, %p1
  %l = tile.loop %h = 0 to 2 step %c1 body %p2
  tile.yield %l
}

// -----

// Must not: the row sum is not rescaled by the repair factor (Z = Z + rsum(E)):
// not the running sum of an online softmax, so the warps could not merge
// their sums; the block runs the loop step by step.
// CHECK-LABEL: func.func @no_repair
// CHECK: gpu.func @no_repair_k0
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return

tile.program @no_repair(
    %Q: !tile.tensor<2x16x16xf16, input>,
    %K: !tile.tensor<2x64x16xf16, input>,
    %V: !tile.tensor<2x64x16xf16, input>,
    %M: !tile.tensor<2x16xf32, intermediate>,
    %Z: !tile.tensor<2x16xf32, intermediate>,
    %A: !tile.tensor<2x16x16xf32, intermediate>,
    %S: !tile.tensor<2x16x64xf32, intermediate>,
    %O: !tile.tensor<2x16x16xf32, output>) {
  %h = tile.var "h"
  %k = tile.var "k"
  %c1 = tile.size 1
  %c16 = tile.size 16
  %f = tile.full
  %eh = tile.elem %h
  %tk = tile.tile %k
  %ninf = tile.constant -inf : !tile.tile<[1, 16], f32>
  %minit = tile.store %ninf, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %q = tile.load %Q[%eh, %f, %f] : !tile.tensor<2x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt0 = tile.load %K[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt = tile.permute %kt0 [0, 2, 1] : !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f16>
  %s0 = tile.matmul %q, %kt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %sts = tile.store %s0, %S[%eh, %f, %tk] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x64xf32, intermediate>
  %s = tile.load %S[%eh, %f, %tk] : !tile.tensor<2x16x64xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %mold = tile.load %M[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %rm = tile.rmax %s, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %mnew = tile.max %mold, %rm : !tile.tile<[1, 16], f32>
  %d0 = tile.sub %mold, %mnew : !tile.tile<[1, 16], f32>
  %alpha = tile.exp %d0 : !tile.tile<[1, 16], f32>
  %mb = tile.bcast %mnew [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %sd = tile.sub %s, %mb : !tile.tile<[1, 16, 16], f32>
  %e = tile.exp %sd : !tile.tile<[1, 16, 16], f32>
  %zold = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zs = tile.mul %zold, %alpha : !tile.tile<[1, 16], f32>
  %ze = tile.rsum %e, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %zn = tile.add %zold, %ze : !tile.tile<[1, 16], f32>
  %stz = tile.store %zn, %Z[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %eh16 = tile.cast %e : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16, 16], f16>
  %v = tile.load %V[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %pv = tile.matmul %eh16, %v : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %aold = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %ab = tile.bcast %alpha [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %as = tile.mul %aold, %ab : !tile.tile<[1, 16, 16], f32>
  %an = tile.add %pv, %as : !tile.tile<[1, 16, 16], f32>
  %sta = tile.store %an, %A[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, intermediate>
  %stm = tile.store %mnew, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %b1 = tile.seq %sta, %stm
  %b2 = tile.seq %stz, %b1
  %b3 = tile.seq %sts, %b2
  %lk = tile.loop %k = 0 to 64 step %c16 body %b3
  %af = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %zf = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zfb = tile.bcast %zf [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %o = tile.div %af, %zfb : !tile.tile<[1, 16, 16], f32>
  %sto = tile.store %o, %O[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, output>
  %p1 = tile.seq %lk, %sto
  %p2 = tile.seq %minit, %p1
  %l = tile.loop %h = 0 to 2 step %c1 body %p2
  tile.yield %l
}

// -----

// Must not: the maximum is over the rows (rmax axis 1), not over each row's
// keys: no running maximum of the rows.
// CHECK-LABEL: func.func @other_axis
// CHECK: gpu.func @other_axis_k0
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return

tile.program @other_axis(
    %Q: !tile.tensor<2x16x16xf16, input>,
    %K: !tile.tensor<2x64x16xf16, input>,
    %V: !tile.tensor<2x64x16xf16, input>,
    %M: !tile.tensor<2x16xf32, intermediate>,
    %Z: !tile.tensor<2x16xf32, intermediate>,
    %A: !tile.tensor<2x16x16xf32, intermediate>,
    %S: !tile.tensor<2x16x64xf32, intermediate>,
    %O: !tile.tensor<2x16x16xf32, output>) {
  %h = tile.var "h"
  %k = tile.var "k"
  %c1 = tile.size 1
  %c16 = tile.size 16
  %f = tile.full
  %eh = tile.elem %h
  %tk = tile.tile %k
  %ninf = tile.constant -inf : !tile.tile<[1, 16], f32>
  %minit = tile.store %ninf, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %q = tile.load %Q[%eh, %f, %f] : !tile.tensor<2x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt0 = tile.load %K[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt = tile.permute %kt0 [0, 2, 1] : !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f16>
  %s0 = tile.matmul %q, %kt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %sts = tile.store %s0, %S[%eh, %f, %tk] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x64xf32, intermediate>
  %s = tile.load %S[%eh, %f, %tk] : !tile.tensor<2x16x64xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %mold = tile.load %M[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %rm = tile.rmax %s, 1 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %mnew = tile.max %mold, %rm : !tile.tile<[1, 16], f32>
  %d0 = tile.sub %mold, %mnew : !tile.tile<[1, 16], f32>
  %alpha = tile.exp %d0 : !tile.tile<[1, 16], f32>
  %mb = tile.bcast %mnew [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %sd = tile.sub %s, %mb : !tile.tile<[1, 16, 16], f32>
  %e = tile.exp %sd : !tile.tile<[1, 16, 16], f32>
  %zold = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zs = tile.mul %zold, %alpha : !tile.tile<[1, 16], f32>
  %ze = tile.rsum %e, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %zn = tile.add %zs, %ze : !tile.tile<[1, 16], f32>
  %stz = tile.store %zn, %Z[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %eh16 = tile.cast %e : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16, 16], f16>
  %v = tile.load %V[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %pv = tile.matmul %eh16, %v : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %aold = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %ab = tile.bcast %alpha [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %as = tile.mul %aold, %ab : !tile.tile<[1, 16, 16], f32>
  %an = tile.add %pv, %as : !tile.tile<[1, 16, 16], f32>
  %sta = tile.store %an, %A[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, intermediate>
  %stm = tile.store %mnew, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %b1 = tile.seq %sta, %stm
  %b2 = tile.seq %stz, %b1
  %b3 = tile.seq %sts, %b2
  %lk = tile.loop %k = 0 to 64 step %c16 body %b3
  %af = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %zf = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zfb = tile.bcast %zf [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %o = tile.div %af, %zfb : !tile.tile<[1, 16, 16], f32>
  %sto = tile.store %o, %O[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, output>
  %p1 = tile.seq %lk, %sto
  %p2 = tile.seq %minit, %p1
  %l = tile.loop %h = 0 to 2 step %c1 body %p2
  tile.yield %l
}

// -----

// Must not: the exponentials subtract the old maximum M, not the new one:
// not the online form.
// CHECK-LABEL: func.func @old_max
// CHECK: gpu.func @old_max_k0
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return

tile.program @old_max(
    %Q: !tile.tensor<2x16x16xf16, input>,
    %K: !tile.tensor<2x64x16xf16, input>,
    %V: !tile.tensor<2x64x16xf16, input>,
    %M: !tile.tensor<2x16xf32, intermediate>,
    %Z: !tile.tensor<2x16xf32, intermediate>,
    %A: !tile.tensor<2x16x16xf32, intermediate>,
    %S: !tile.tensor<2x16x64xf32, intermediate>,
    %O: !tile.tensor<2x16x16xf32, output>) {
  %h = tile.var "h"
  %k = tile.var "k"
  %c1 = tile.size 1
  %c16 = tile.size 16
  %f = tile.full
  %eh = tile.elem %h
  %tk = tile.tile %k
  %ninf = tile.constant -inf : !tile.tile<[1, 16], f32>
  %minit = tile.store %ninf, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %q = tile.load %Q[%eh, %f, %f] : !tile.tensor<2x16x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt0 = tile.load %K[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %kt = tile.permute %kt0 [0, 2, 1] : !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f16>
  %s0 = tile.matmul %q, %kt : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %sts = tile.store %s0, %S[%eh, %f, %tk] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x64xf32, intermediate>
  %s = tile.load %S[%eh, %f, %tk] : !tile.tensor<2x16x64xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %mold = tile.load %M[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %rm = tile.rmax %s, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %mnew = tile.max %mold, %rm : !tile.tile<[1, 16], f32>
  %d0 = tile.sub %mold, %mnew : !tile.tile<[1, 16], f32>
  %alpha = tile.exp %d0 : !tile.tile<[1, 16], f32>
  %mb = tile.bcast %mold [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %sd = tile.sub %s, %mb : !tile.tile<[1, 16, 16], f32>
  %e = tile.exp %sd : !tile.tile<[1, 16, 16], f32>
  %zold = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zs = tile.mul %zold, %alpha : !tile.tile<[1, 16], f32>
  %ze = tile.rsum %e, 2 : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16], f32>
  %zn = tile.add %zs, %ze : !tile.tile<[1, 16], f32>
  %stz = tile.store %zn, %Z[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %eh16 = tile.cast %e : !tile.tile<[1, 16, 16], f32> -> !tile.tile<[1, 16, 16], f16>
  %v = tile.load %V[%eh, %tk, %f] : !tile.tensor<2x64x16xf16, input> -> !tile.tile<[1, 16, 16], f16>
  %pv = tile.matmul %eh16, %v : !tile.tile<[1, 16, 16], f16>, !tile.tile<[1, 16, 16], f16> -> !tile.tile<[1, 16, 16], f32>
  %aold = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %ab = tile.bcast %alpha [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %as = tile.mul %aold, %ab : !tile.tile<[1, 16, 16], f32>
  %an = tile.add %pv, %as : !tile.tile<[1, 16, 16], f32>
  %sta = tile.store %an, %A[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, intermediate>
  %stm = tile.store %mnew, %M[%eh, %f] : !tile.tile<[1, 16], f32>, !tile.tensor<2x16xf32, intermediate>
  %b1 = tile.seq %sta, %stm
  %b2 = tile.seq %stz, %b1
  %b3 = tile.seq %sts, %b2
  %lk = tile.loop %k = 0 to 64 step %c16 body %b3
  %af = tile.load %A[%eh, %f, %f] : !tile.tensor<2x16x16xf32, intermediate> -> !tile.tile<[1, 16, 16], f32>
  %zf = tile.load %Z[%eh, %f] : !tile.tensor<2x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %zfb = tile.bcast %zf [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 16], f32>
  %o = tile.div %af, %zfb : !tile.tile<[1, 16, 16], f32>
  %sto = tile.store %o, %O[%eh, %f, %f] : !tile.tile<[1, 16, 16], f32>, !tile.tensor<2x16x16xf32, output>
  %p1 = tile.seq %lk, %sto
  %p2 = tile.seq %minit, %p1
  %l = tile.loop %h = 0 to 2 step %c1 body %p2
  tile.yield %l
}
