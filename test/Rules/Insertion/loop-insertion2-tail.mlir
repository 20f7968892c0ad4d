// RUN: not tile-opt %s --tile-saturate="only=loop-insertion2-tail iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-insertion2-tail.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-insertion2-tail: seq(b1, seq(loop i b2, t)) -> seq(loop i (b1; b2), t), guarded by InsertBeforeLegal
// (b1 straight-line, without i, idempotent, and b2 writes nothing b1 reads or writes).

// @fires: b1: P = B, b2: O[i] = A[i]; the rule moves b1 into the loop
// CHECK-DAG: remark: goal @fires is represented
// @blocked: b1: P = O while the loop writes O[i]; inside the loop b1 would copy a partly updated O (InsertBeforeLegal is false); the loop with b1 inside must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: b1: P = B, b2: O[i] = A[i]
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
  %b1v = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %b1 = tile.store %b1v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %b2v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %s2 = tile.seq %l, %t
  %r = tile.seq %b1, %s2
  tile.yield %r
}

// Start: b1: P = O while the loop writes O[i]
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
  %b1v = tile.load %O[%full] : !tile.tensor<16xf32, output> -> !tile.tile<[16], f32>
  %b1 = tile.store %b1v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %b2v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %s2 = tile.seq %l, %t
  %r = tile.seq %b1, %s2
  tile.yield %r
}
