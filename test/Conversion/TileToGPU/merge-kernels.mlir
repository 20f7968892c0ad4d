// RUN: tile-opt %s --split-input-file --tile-merge-kernels="config={zero_in_kernels = false}" | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-merge-kernels="config={shared_memory = 100, zero_in_kernels = false}" | FileCheck %s --check-prefix=SMALL
// RUN: tile-opt %s --split-input-file --tile-merge-kernels="config={shared_memory = 48, zero_in_kernels = false}" | FileCheck %s --check-prefix=TINY
// RUN: tile-opt %s --split-input-file --tile-merge-kernels="config={zero_in_kernels = true}" | FileCheck %s --check-prefix=ZERO

// Three kernels that read X and each write their own output: one launch of
// 4 + 2 + 4 blocks; block b runs the kernel whose range holds b, with its
// block index and grid size relative to that range; X is passed once. The
// workgroup buffers of a and c are views of one buffer of 64 bytes, each
// from its start (a block runs one member).
// CHECK-LABEL: func.func @independent
// CHECK: gpu.launch_func @k::@p_a_b_c blocks in (%[[TEN:.*]], %{{.*}}, %{{.*}}) threads in (%[[T:.*]], %{{.*}}, %{{.*}}) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>, %arg3 : memref<64xf32>)
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @p_a_b_c(%[[X:.*]]: memref<64xf32>, %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>) workgroup(%[[W:.*]] : memref<64xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 16, 1, 1>}
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[L0:.*]] = arith.subi %[[BID]], %c0
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[L0]], %c4
// CHECK: scf.if %[[IN0]] {
// CHECK:   %[[WA:.*]] = memref.view %[[W]][%[[Z0:.*]]][] : memref<64xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK:   memref.load %[[X]]
// CHECK:   memref.store %{{.*}}, %[[WA]]
// CHECK:   memref.store %{{.*}}, %[[A]][%{{.*}}]
// CHECK: }
// CHECK: %[[L1:.*]] = arith.subi %[[BID]], %c4
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[L1]], %c2
// CHECK: scf.if %[[IN1]] {
// CHECK:   arith.muli %[[L1]], %c2
// CHECK:   memref.store %{{.*}}, %[[B]]
// CHECK: }
// CHECK: %[[L2:.*]] = arith.subi %[[BID]], %c6
// CHECK: %[[IN2:.*]] = arith.cmpi ult, %[[L2]], %c4
// CHECK: scf.if %[[IN2]] {
// CHECK:   %[[WC:.*]] = memref.view %[[W]][%[[Z2:.*]]][] : memref<64xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK:   memref.store %{{.*}}, %[[WC]]
// CHECK:   memref.store %{{.*}}, %[[C]]
// CHECK: }
// CHECK-NOT: gpu.func @p_a(
// Merged while each member's workgroup buffers fit: a and c have 64 bytes
// each, 128 together, and share 64 (SMALL); with 48 bytes, neither a nor c
// is merged (TINY).
// SMALL-LABEL: func.func @independent
// SMALL: gpu.launch_func @k::@p_a_b_c blocks
// SMALL: gpu.func @p_a_b_c({{.*}}) workgroup(%{{.*}} : memref<64xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// TINY-LABEL: func.func @independent
// TINY: gpu.launch_func @k::@p_a blocks
// TINY: gpu.launch_func @k::@p_b blocks
// TINY: gpu.launch_func @k::@p_c blocks
module attributes {gpu.container_module} {
func.func @independent(%x: memref<64xf32>, %a: memref<64xf32>,
                       %b: memref<64xf32>, %c: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch_func @k::@p_a blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %a : memref<64xf32>)
  gpu.launch_func @k::@p_b blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %b : memref<64xf32>)
  gpu.launch_func @k::@p_c blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %c : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @p_a(%x: memref<64xf32>, %a: memref<64xf32>)
      workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %blk = gpu.block_id x
    %c16 = arith.constant 16 : index
    %base = arith.muli %blk, %c16 : index
    %i = arith.addi %base, %t : index
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %u = memref.load %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %u, %a[%i] : memref<64xf32>
    gpu.return
  }
  gpu.func @p_b(%x: memref<64xf32>, %b: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %blk = gpu.block_id x
    %n = gpu.grid_dim x
    %c2 = arith.constant 2 : index
    %base = arith.muli %blk, %c2 : index
    %i = arith.addi %base, %n : index
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %b[%i] : memref<64xf32>
    gpu.return
  }
  gpu.func @p_c(%x: memref<64xf32>, %c: memref<64xf32>)
      workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %v, %c[%t] : memref<64xf32>
    gpu.return
  }
}
}

// -----


// A chain: b reads what a writes (a true dependence), c overwrites what b
// reads (an anti dependence); d depends on neither and joins a's launch,
// ahead of b. Launched kernels merged away are erased.
// CHECK-LABEL: func.func @chain
// CHECK: gpu.launch_func @k::@q_a_d blocks in (%{{.*}}) {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg3 : memref<64xf32>)
// CHECK-NEXT: gpu.launch_func @k::@q_b blocks in
// CHECK-NEXT: gpu.launch_func @k::@q_c blocks in
// CHECK-NEXT: return
// CHECK-NOT: gpu.func @q_a(
// CHECK-NOT: gpu.func @q_d(
module attributes {gpu.container_module} {
func.func @chain(%x: memref<64xf32>, %t: memref<64xf32>, %y: memref<64xf32>,
                 %z: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch_func @k::@q_a blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %t : memref<64xf32>)
  gpu.launch_func @k::@q_b blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%t : memref<64xf32>, %y : memref<64xf32>)
  gpu.launch_func @k::@q_c blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %t : memref<64xf32>)
  gpu.launch_func @k::@q_d blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %z : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @q_a(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @q_b(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @q_c(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @q_d(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
}
}

// -----


// Must not: different block sizes; buffers `tile.may_alias` pairs; a
// kernel that uses its buffer through a view (unknown accesses) next to
// one that writes it.
// CHECK-LABEL: func.func @apart
// CHECK: gpu.launch_func @k::@r_a blocks
// CHECK-NEXT: gpu.launch_func @k::@r_b blocks
// CHECK-NEXT: gpu.launch_func @k::@r_c blocks
// CHECK-NEXT: gpu.launch_func @k::@r_view blocks
// CHECK-NEXT: return
module attributes {gpu.container_module} {
func.func @apart(%x: memref<64xf32>, %a: memref<64xf32>, %b: memref<64xf32>,
                 %c: memref<64xf32>) attributes {tile.may_alias = [array<i64: 2, 3>]} {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch_func @k::@r_a blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<64xf32>, %a : memref<64xf32>)
  gpu.launch_func @k::@r_b blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %b : memref<64xf32>)
  gpu.launch_func @k::@r_c blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %c : memref<64xf32>)
  gpu.launch_func @k::@r_view blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @r_a(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @r_b(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @r_c(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @r_view(%buf: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %view = memref.subview %buf[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
    %v = memref.load %view[%t] : memref<32xf32, strided<[1]>>
    gpu.return
  }
}
}

// -----


// Must not: a kernel that adds to its buffer through the buffer's address
// (the vector reductions of split accumulations: inline PTX, which declares
// no effect on the memref) and a kernel that reads that buffer.
// CHECK-LABEL: func.func @through_address
// CHECK: gpu.launch_func @k::@red blocks
// CHECK-NEXT: gpu.launch_func @k::@use blocks
// CHECK-NEXT: return
module attributes {gpu.container_module} {
func.func @through_address(%s: memref<64xf32>, %o: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch_func @k::@red blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%s : memref<64xf32>)
  gpu.launch_func @k::@use blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%s : memref<64xf32>, %o : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @red(%buf: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    %c16 = arith.constant 16 : index
    %base = memref.extract_aligned_pointer_as_index %buf : memref<64xf32> -> index
    %off = arith.muli %t, %c16 : index
    %addr = arith.addi %base, %off : index
    %a = arith.index_cast %addr : index to i64
    llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f" %a, %one, %one, %one, %one : (i64, f32, f32, f32, f32) -> ()
    gpu.return
  }
  gpu.func @use(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
}
}

// -----


// Must not: the host function does more than launch (a copy between the
// launches could be reordered with them).
// CHECK-LABEL: func.func @not_straight
// CHECK: gpu.launch_func @k::@s_a blocks
// CHECK-NEXT: memref.copy
// CHECK-NEXT: gpu.launch_func @k::@s_b blocks
module attributes {gpu.container_module} {
func.func @not_straight(%x: memref<64xf32>, %a: memref<64xf32>, %b: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch_func @k::@s_a blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %a : memref<64xf32>)
  memref.copy %a, %x : memref<64xf32> to memref<64xf32>
  gpu.launch_func @k::@s_b blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %b : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @s_a(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @s_b(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<64xf32>
    memref.store %v, %out[%t] : memref<64xf32>
    gpu.return
  }
}
}

// -----

// zero-buffers on a chain s += x; t = s; o = t (three groups): s is touched
// by the first two groups, so the third clears it after its last use
// ("restored"); t and the output o are first touched later, so the first
// group clears them before ("start"); u is touched by no launch. Each
// clearing member has its group's block size (16 threads, 8 elements each:
// one block for 64 elements). Without zero-buffers nothing changes.
// ZERO-LABEL: func.func @zero_chain(
// ZERO-SAME: %{{[a-z0-9]+}}: memref<64xf32> {tile.role = "input"}
// ZERO-SAME: %{{[a-z0-9]+}}: memref<64xf32> {tile.name = "s", tile.role = "intermediate", tile.zero = "restored"}
// ZERO-SAME: %{{[a-z0-9]+}}: memref<64xf32> {tile.name = "t", tile.role = "intermediate", tile.zero = "start"}
// ZERO-SAME: %{{[a-z0-9]+}}: memref<64xf32> {tile.name = "o", tile.role = "output", tile.zero = "start"}
// ZERO-SAME: %{{[a-z0-9]+}}: memref<64xf32> {tile.name = "u", tile.role = "intermediate", tile.zero = "unused"}
// ZERO: gpu.launch_func @k::@z_acc_zero blocks in (%[[SIX:.*]], %{{.*}}, %{{.*}}) threads in (%[[T16:.*]], %{{.*}}, %{{.*}}) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>, %arg3 : memref<64xf32>)
// ZERO: gpu.launch_func @k::@z_cast blocks
// ZERO: gpu.launch_func @k::@z_copy_zero blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%arg2 : memref<64xf32>, %arg3 : memref<64xf32>, %arg1 : memref<64xf32>)
// CHECK-LABEL: func.func @zero_chain(
// CHECK-NOT: tile.zero
// CHECK: gpu.launch_func @k::@z_acc blocks
// CHECK-NEXT: gpu.launch_func @k::@z_cast blocks
// CHECK-NEXT: gpu.launch_func @k::@z_copy blocks
module attributes {gpu.container_module} {
func.func @zero_chain(%x: memref<64xf32> {tile.role = "input"},
                 %s: memref<64xf32> {tile.name = "s", tile.role = "intermediate"},
                 %t: memref<64xf32> {tile.name = "t", tile.role = "intermediate"},
                 %o: memref<64xf32> {tile.name = "o", tile.role = "output"},
                 %u: memref<64xf32> {tile.name = "u", tile.role = "intermediate"}) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch_func @k::@z_acc blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %s : memref<64xf32>)
  gpu.launch_func @k::@z_cast blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%s : memref<64xf32>, %t : memref<64xf32>)
  gpu.launch_func @k::@z_copy blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%t : memref<64xf32>, %o : memref<64xf32>)
  return
}
// s is touched by the first and the last group: left to the caller (no
// mark); so is the output o, touched by the first group (an output is not
// cleared after its use), and i, which may alias the input x. Nothing is
// added: the two accumulations are one launch, as without zero-buffers.
// ZERO-LABEL: func.func @zero_span(
// ZERO-NOT: tile.zero
// ZERO: gpu.launch_func @k::@z_acc_z_acc blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>)
// ZERO-NEXT: gpu.launch_func @k::@z_copy blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%arg1 : memref<64xf32>, %arg3 : memref<64xf32>)
// ZERO-NEXT: return
// The clearing member of @zero_chain's first group: after the accumulation
// (blocks 0-3), block 4 clears t, block 5 clears o.
// ZERO: gpu.func @z_acc_zero(%[[X:.*]]: memref<64xf32>, %[[S:.*]]: memref<64xf32>, %[[T:.*]]: memref<64xf32>, %[[O:.*]]: memref<64xf32>)
// ZERO: scf.if
// ZERO: memref.load %[[S]]
// ZERO: %[[L1:.*]] = arith.subi %{{.*}}, %c4{{(_[0-9]+)?}}
// ZERO: %[[IN1:.*]] = arith.cmpi ult, %[[L1]], %c1
// ZERO: scf.if %[[IN1]] {
// ZERO:   %[[FIRST:.*]] = arith.muli %[[L1]], %c128
// ZERO:   scf.for %[[E:.*]] = %{{.*}} to %c128{{(_[0-9]+)?}} step %c16 {
// ZERO:     %[[FLAT:.*]] = arith.addi %[[FIRST]], %[[E]]
// ZERO:     %[[INSIDE:.*]] = arith.cmpi ult, %[[FLAT]], %c64
// ZERO:     scf.if %[[INSIDE]] {
// ZERO:       memref.store %{{.*}}, %[[T]][%[[FLAT]]]
// ZERO: memref.store %{{.*}}, %[[O]]
func.func @zero_span(%x: memref<64xf32> {tile.role = "input"},
                     %s: memref<64xf32> {tile.name = "s", tile.role = "intermediate"},
                     %o: memref<64xf32> {tile.name = "o", tile.role = "output"},
                     %i: memref<64xf32> {tile.name = "i", tile.role = "intermediate"})
    attributes {tile.may_alias = [array<i64: 0, 3>]} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch_func @k::@z_acc blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %s : memref<64xf32>)
  gpu.launch_func @k::@z_acc blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %o : memref<64xf32>)
  gpu.launch_func @k::@z_copy blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%s : memref<64xf32>, %i : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @z_acc(%in: memref<64xf32>, %acc: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %blk = gpu.block_id x
    %c16 = arith.constant 16 : index
    %base = arith.muli %blk, %c16 : index
    %i = arith.addi %base, %t : index
    %v = memref.load %in[%i] : memref<64xf32>
    %a = memref.load %acc[%i] : memref<64xf32>
    %sum = arith.addf %a, %v : f32
    memref.store %sum, %acc[%i] : memref<64xf32>
    gpu.return
  }
  gpu.func @z_cast(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %blk = gpu.block_id x
    %c16 = arith.constant 16 : index
    %base = arith.muli %blk, %c16 : index
    %i = arith.addi %base, %t : index
    %v = memref.load %in[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<64xf32>
    gpu.return
  }
  gpu.func @z_copy(%in: memref<64xf32>, %out: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %blk = gpu.block_id x
    %c16 = arith.constant 16 : index
    %base = arith.muli %blk, %c16 : index
    %i = arith.addi %base, %t : index
    %v = memref.load %in[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<64xf32>
    gpu.return
  }
}
}

// -----

// Kernels merge only with kernels that pipeline their loads alike
// (`tile.pipeline_loads`, a statement configured apart): r_a and r_c, both
// with 0, merge and the merged kernel keeps the attribute; r_b, with the
// module's own (no attribute), launches alone.
// CHECK-LABEL: func.func @pipelining
// CHECK-DAG: gpu.launch_func @k::@r_a_c blocks
// CHECK-DAG: gpu.launch_func @k::@r_b blocks
// CHECK: gpu.func @r_a_c({{.*}} tile.pipeline_loads = 0 : i64
// CHECK: gpu.func @r_b(
// CHECK-NOT: tile.pipeline_loads
// CHECK: gpu.return
module attributes {gpu.container_module} {
func.func @pipelining(%x: memref<64xf32>, %a: memref<64xf32>,
                      %b: memref<64xf32>, %c: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch_func @k::@r_a blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %a : memref<64xf32>)
  gpu.launch_func @k::@r_b blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %b : memref<64xf32>)
  gpu.launch_func @k::@r_c blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %c : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @r_a(%x: memref<64xf32>, %a: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>, tile.pipeline_loads = 0 : i64} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %a[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @r_b(%x: memref<64xf32>, %b: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %b[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @r_c(%x: memref<64xf32>, %c: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>, tile.pipeline_loads = 0 : i64} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %c[%t] : memref<64xf32>
    gpu.return
  }
}
}

// -----

// Launches with dynamic shared memory (block matmuls' stages) merge with
// each other, the merged launch giving the most any member takes (each
// member's gpu.dynamic_shared_memory reads it); not with launches without.
// CHECK-LABEL: func.func @dynamic
// CHECK: gpu.launch_func @k::@d_a_b blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %c512_i32{{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>)
// CHECK: gpu.launch_func @k::@d_c blocks
// CHECK-NOT: dynamic_shared_memory_size
// CHECK: return
// CHECK: gpu.func @d_a_b
// CHECK-COUNT-2: gpu.dynamic_shared_memory
module attributes {gpu.container_module} {
func.func @dynamic(%x: memref<64xf32>, %a: memref<64xf32>,
                   %b: memref<64xf32>, %c: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %small = arith.constant 256 : i32
  %large = arith.constant 512 : i32
  gpu.launch_func @k::@d_a blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %small args(%x : memref<64xf32>, %a : memref<64xf32>)
  gpu.launch_func @k::@d_b blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %large args(%x : memref<64xf32>, %b : memref<64xf32>)
  gpu.launch_func @k::@d_c blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %c : memref<64xf32>)
  return
}
gpu.module @k {
  gpu.func @d_a(%x: memref<64xf32>, %a: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %w = memref.view %s[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    %u = memref.load %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %u, %a[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @d_b(%x: memref<64xf32>, %b: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %w = memref.view %s[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    %u = memref.load %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %u, %b[%t] : memref<64xf32>
    gpu.return
  }
  gpu.func @d_c(%x: memref<64xf32>, %c: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf32>
    memref.store %v, %c[%t] : memref<64xf32>
    gpu.return
  }
}
}
