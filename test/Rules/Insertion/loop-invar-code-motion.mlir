// RUN: not tile-opt %s --tile-saturate="only=loop-invar-code-motion iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-invar-code-motion.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-invar-code-motion: loop i body -> body, guarded by LoopInvariant (body without i, idempotent).

// @fires: body: P = B; the rule replaces the loop by its body
// CHECK-DAG: remark: goal @fires is represented
// @blocked: body: Q = Q + B is not idempotent (LoopInvariant is false); running it once must not be equated with running it four times
// CHECK-DAG: error: goal @blocked is not represented

// Start: body: P = B
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
  %b2v = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %b2 = tile.store %b2v, %P[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  tile.yield %l
}

// Start: body: Q = Q + B is not idempotent (LoopInvariant is false)
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
  %qv = tile.load %Q[%full] : !tile.tensor<16xf32, inout> -> !tile.tile<[16], f32>
  %bv = tile.load %B[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %qn = tile.add %qv, %bv : !tile.tile<[16], f32>
  %b2 = tile.store %qn, %Q[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, inout>
  %l = tile.loop %i = 0 to 16 step %c4 body %b2
  tile.yield %l
}
