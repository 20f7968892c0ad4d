// RUN: tile-opt %s --tile-check-legality -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: tile-opt %s --tile-check-legality="timeout-ms=500" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT

// The pass's remarks: swap and fusion verdicts on the second statement of
// each adjacent pair, the conflicting accesses and a witness for refusals,
// and one summary per program. The legality suite is test/Legality.

// OPT: remark: legality: 0 of 2 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse
// OPT: remark: legality: 1 of 1 adjacent statement pairs may swap

tile.program @producer_consumer(%A: !tile.tensor<64xf32, input>,
    %B: !tile.tensor<64xf32, intermediate>, %C: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %t = tile.size 16
  %ti = tile.tile %i
  %tj = tile.tile %j
  %a = tile.load %A[%ti] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %s = tile.store %e, %B[%ti] : !tile.tile<[16], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %t body %s
  %b = tile.load %B[%tj] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[16], f32>
  %s2 = tile.store %b, %C[%tj] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  // CHECK: [[@LINE+3]]:9: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of B[tile j] in this statement conflict; witness: the previous statement at i = {{[0-9]+}} and this statement at j = {{[0-9]+}} both touch B[{{[0-9]+}}]
  // CHECK: [[@LINE-4]]:9: note: the previous statement
  // CHECK: [[@LINE+1]]:9: remark: may fuse with the previous loop
  %l2 = tile.loop %j = 0 to 64 step %t body %s2
  %f = tile.full
  %b3 = tile.load %B[%f] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[64], f32>
  // CHECK: [[@LINE+1]]:9: remark: cannot swap with the previous statement: write of C[tile j] in the previous statement and write of C[full] in this statement conflict
  %s3 = tile.store %b3, %C[%f] : !tile.tile<[64], f32>, !tile.tensor<64xf32, output>
  %q = tile.seq %l2, %s3
  %r = tile.seq %l1, %q
  tile.yield %r
}
// CHECK: remark: legality: 0 of 2 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse; 3 solver calls, 0 unknown

// -----

// Sequences inside loop bodies are checked too; the two halves of a
// reduction's output tile never meet.
tile.program @nested(%A: !tile.tensor<8x32xf32, input>,
    %O: !tile.tensor<8x32xf32, output>) {
  %n = tile.var "n"
  %c1 = tile.size 1
  %en = tile.elem %n
  %lo = tile.const_tile 0, 16
  %hi = tile.const_tile 16, 16
  %a = tile.load %A[%en, %lo] : !tile.tensor<8x32xf32, input> -> !tile.tile<[1, 16], f32>
  %s1 = tile.store %a, %O[%en, %lo] : !tile.tile<[1, 16], f32>, !tile.tensor<8x32xf32, output>
  %b = tile.load %A[%en, %hi] : !tile.tensor<8x32xf32, input> -> !tile.tile<[1, 16], f32>
  // CHECK: [[@LINE+1]]:9: remark: may swap with the previous statement
  %s2 = tile.store %b, %O[%en, %hi] : !tile.tile<[1, 16], f32>, !tile.tensor<8x32xf32, output>
  %body = tile.seq %s1, %s2
  %l = tile.loop %n = 0 to 8 step %c1 body %body
  tile.yield %l
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse; 0 solver calls, 0 unknown
