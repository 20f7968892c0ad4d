// RUN: not tile-opt %s --tile-saturate="only=loop-insertion-producer-tail iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-insertion-producer-tail.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-insertion-producer-tail: seq(b1, seq(loop i b2, t)) -> seq(loop i (b1; b2), t), guarded by ProducerBeforeLegal
// (b1 a loop nest that reads nothing it writes and computes no matmul, not using or binding i;
// b2 reads what b1 writes, never a part that moves with i, and writes nothing b1 reads or writes).

// @fires: b1: N[:, j] = B[:, j]^2 over j (a loop nest reading nothing it writes), b2: O[:, i] = A[:, i] / rowsum(N) reads all of N; the rule moves b1 into the loop
// CHECK-DAG: remark: goal @fires is represented
// @writes_input: b1 reads Q, which b2 writes: a later iteration would square the updated Q (ProducerBeforeLegal is false); the loop with b1 inside must not appear
// CHECK-DAG: error: goal @writes_input is not represented
// @reads_own: b1: N[:, j] = B[:, j] + N[:, j] reads what it writes, so repeating it adds B again (ProducerBeforeLegal is false); the loop with b1 inside must not appear
// CHECK-DAG: error: goal @reads_own is not represented
// @matmul: b1 computes a matmul: contractions are not repeated per iteration (ProducerBeforeLegal is false); the loop with b1 inside must not appear
// CHECK-DAG: error: goal @matmul is not represented
// @sliced: b2 reads only N[:, i], the part that moves with i: that is loop fusion's case, not a copy per iteration (ProducerBeforeLegal is false); the loop with b1 inside must not appear
// CHECK-DAG: error: goal @sliced is not represented

// Start: b1: N[:, j] = B[:, j]^2 over j (a loop nest reading nothing it writes), b2: O[:, i] = A[:, i] / rowsum(N) reads all of N; the rule moves b1 into the loop
tile.program @fires(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %lt = tile.seq %l, %t
  %root = tile.seq %b1, %lt
  tile.yield %root
}

// Start: b1 reads Q, which b2 writes: a later iteration would square the updated Q (ProducerBeforeLegal is false)
tile.program @writes_input(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %Q[%full, %tj] : !tile.tensor<4x16xf32, inout> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %Q[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, inout>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %lt = tile.seq %l, %t
  %root = tile.seq %b1, %lt
  tile.yield %root
}

// Start: b1: N[:, j] = B[:, j] + N[:, j] reads what it writes, so repeating it adds B again (ProducerBeforeLegal is false)
tile.program @reads_own(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %old = tile.load %N[%full, %tj] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 4], f32>
  %y2 = tile.add %y, %old : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %lt = tile.seq %l, %t
  %root = tile.seq %b1, %lt
  tile.yield %root
}

// Start: b1 computes a matmul: contractions are not repeated per iteration (ProducerBeforeLegal is false)
tile.program @matmul(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %w = tile.load %W[%tj, %tj] : !tile.tensor<16x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.matmul %y, %w : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %full] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 16], f32>
  %ns = tile.rsum %nv, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %nb = tile.bcast %ns [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.div %a, %nb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %lt = tile.seq %l, %t
  %root = tile.seq %b1, %lt
  tile.yield %root
}

// Start: b2 reads only N[:, i], the part that moves with i: that is loop fusion's case, not a copy per iteration (ProducerBeforeLegal is false)
tile.program @sliced(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>,
    %N: !tile.tensor<4x16xf32, intermediate>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %y = tile.load %B[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %y2 = tile.mul %y, %y : !tile.tile<[4, 4], f32>
  %p = tile.store %y2, %N[%full, %tj] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %p
  %nv = tile.load %N[%full, %ti] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 4], f32>
  %a = tile.load %A[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %o = tile.add %a, %nv : !tile.tile<[4, 4], f32>
  %b2 = tile.store %o, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %tv = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %t = tile.store %tv, %R[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %lt = tile.seq %l, %t
  %root = tile.seq %b1, %lt
  tile.yield %root
}
