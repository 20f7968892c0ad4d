// RUN: not tile-opt %s --tile-saturate="only=loop-insertion1-tail iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-insertion1-tail.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-insertion1-tail: seq(loop i b1, seq(b2, t)) -> seq(loop i (b1; b2), t), guarded by InsertAfterLegal
// (b2 straight-line, without i, idempotent, and b1 reads nothing b2 writes).

// @fires: b1: O[i] = A[i], b2: P = B; the rule moves b2 into the loop
// CHECK-DAG: remark: goal @fires is represented
// @blocked: b2: Q = Q + B reads what it writes, so repeating it per iteration adds B four times (InsertAfterLegal is false); the loop with b2 inside must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: b1: O[i] = A[i], b2: P = B
tile.program @fires(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %b2v = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %b2 = tile.store %b2v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b1
  %s2 = tile.seq %b2, %t
  %r = tile.seq %l, %s2
  tile.yield %r
}

// Start: b2: Q = Q + B reads what it writes, so repeating it per iteration adds B four times (InsertAfterLegal is false)
tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %qv = tile.load %Q[%full] : !tile.tensor<16xf32, inout> -> !tile.tile<[16], f32>
  %bv = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %qn = tile.add %qv, %bv : !tile.tile<[16], f32>
  %b2 = tile.store %qn, %Q[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, inout>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b1
  %s2 = tile.seq %b2, %t
  %r = tile.seq %l, %s2
  tile.yield %r
}
