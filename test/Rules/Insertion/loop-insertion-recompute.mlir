// RUN: not tile-opt %s --tile-saturate="only=loop-insertion-recompute iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-insertion-recompute.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-insertion-recompute: seq(b1, loop i b2) -> loop i (S = 0; b1; b2), guarded by RecomputeBeforeLegal
// (b1 is the input's whole writer of the zero-start accumulator S and writes nothing else, does not
// use or bind i, and b2 reads S but writes nothing b1 reads or writes).

// @fires: b1: S = S + rowsum(A[:, j]^2) over j (S's only writer), b2: O[:, i] = B[:, i] / S; the rule moves S = 0; b1 into the loop
// CHECK-DAG: remark: goal @fires is represented
// @writes_input: b1 sums Q, which b2 writes: a later iteration would sum the updated Q (RecomputeBeforeLegal is false); the loop with S = 0; b1 inside must not appear
// CHECK-DAG: error: goal @writes_input is not represented
// @two_writers: another top-level statement writes S first, so b1 is not S's whole writer and S is not zero before it (RecomputeBeforeLegal is false); the loop with S = 0; b1 inside must not appear
// CHECK-DAG: error: goal @two_writers is not represented
// @no_read: b2 does not read S: recomputing it per iteration would be pure cost (RecomputeBeforeLegal is false); the loop with S = 0; b1 inside must not appear
// CHECK-DAG: error: goal @no_read is not represented
// @matmul: b1 accumulates a matmul: repeating a contraction per iteration is not recomputed (RecomputeBeforeLegal is false); the loop with S = 0; b1 inside must not appear
// CHECK-DAG: error: goal @matmul is not represented

// Start: b1: S = S + rowsum(A[:, j]^2) over j (S's only writer), b2: O[:, i] = B[:, i] / S; the rule moves S = 0; b1 into the loop
tile.program @fires(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %root = tile.seq %b1, %l
  tile.yield %root
}

// Start: b1 sums Q, which b2 writes: a later iteration would sum the updated Q (RecomputeBeforeLegal is false)
tile.program @writes_input(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %Q[%full, %tj] : !tile.tensor<4x16xf32, inout> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %Q[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, inout>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %root = tile.seq %b1, %l
  tile.yield %root
}

// Start: another top-level statement writes S first, so b1 is not S's whole writer and S is not zero before it (RecomputeBeforeLegal is false)
tile.program @two_writers(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s0 = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a0 = tile.load %A[%full, %full] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %r0 = tile.rsum %a0, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %n0 = tile.add %s0, %r0 : !tile.tile<[4], f32>
  %early = tile.store %n0, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %root = tile.seq %b1, %l
  %top = tile.seq %early, %root
  tile.yield %top
}

// Start: b2 does not read S: recomputing it per iteration would be pure cost (RecomputeBeforeLegal is false)
tile.program @no_read(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %x2 = tile.mul %x, %x : !tile.tile<[4, 4], f32>
  %r = tile.rsum %x2, 1 : !tile.tile<[4, 4], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %b2 = tile.store %y, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %root = tile.seq %b1, %l
  tile.yield %root
}

// Start: b1 accumulates a matmul: repeating a contraction per iteration is not recomputed (RecomputeBeforeLegal is false)
tile.program @matmul(
    %A: !tile.tensor<4x16xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %W: !tile.tensor<16x16xf32, input>,
    %Q: !tile.tensor<4x16xf32, inout>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>,
    %R: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %x = tile.load %A[%full, %tj] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %w = tile.load %W[%tj, %full] : !tile.tensor<16x16xf32, input> -> !tile.tile<[4, 16], f32>
  %xw = tile.matmul %x, %w : !tile.tile<[4, 4], f32>, !tile.tile<[4, 16], f32> -> !tile.tile<[4, 16], f32>
  %r = tile.rsum %xw, 1 : !tile.tile<[4, 16], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %acc = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %b1 = tile.loop %j = 0 to 16 step %c4 body %acc
  %sv = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %sb = tile.bcast %sv [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %y = tile.load %B[%full, %ti] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %q = tile.div %y, %sb : !tile.tile<[4, 4], f32>
  %b2 = tile.store %q, %O[%full, %ti] : !tile.tile<[4, 4], f32>, !tile.tensor<4x16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  %root = tile.seq %b1, %l
  tile.yield %root
}
