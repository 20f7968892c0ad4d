// Found by tools/tile-fuzz (seed 41379 (8 ops), shrunk to 4 ops: ew,transpose,greduce-add,expand).
// A --tile-optimize candidate that passed the optimizer's check (seed 0) and
// was wrong: it wrote only the diagonal blocks of the transposed store r0.
// Cause: renaming a loop variable (iteration-space reindexing) went under a
// loop that binds the renamed variable, in a class holding both a statement
// naming i0 and a loop over i0, and built `loop i0 (r0[tile s0, ...])`.
// substitute() now keeps the body of a loop binding the renamed variable and
// refuses to rename into a loop binding the new name
// (unittests/Saturation/SubstituteTest.cpp).
//
// The rules that built the wrong program, without the check that could hide it:
// RUN: tile-opt %s --convert-linalg-to-tile --tile-extract="only=Fusion,Sequence,loop-insertion2,loop-invar-code-motion top-k=20 check=false" -o %t.sub.mlir
// RUN: for c in $(grep -o 'tile.program @[A-Za-z0-9_]*' %t.sub.mlir | cut -d@ -f2); do \
// RUN:   tile-run %t.sub.mlir --entry $c --reference %s --precision f32 --tolerance 0.02 --seed 379 || exit 1; \
// RUN: done | FileCheck %s
// And the default path, every candidate:
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir
// RUN: for c in $(grep -o 'tile.program @[A-Za-z0-9_]*' %t.opt.mlir | cut -d@ -f2); do \
// RUN:   tile-run %t.opt.mlir --entry $c --reference %s --precision f32 --tolerance 0.02 --seed 379 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS

func.func @fuzz(
    %a0: tensor<2x4xf32> {tile.name = "a0", tile.init = "uniform(-1.0, 1.0)"},
    %a1: tensor<4x2x4xf32> {tile.name = "a1", tile.init = "uniform(0.5, 2.0)"}
) -> (
    tensor<4x4x2xf16> {tile.name = "r0"},
    tensor<2x2x2xf32> {tile.name = "r1"}
) {
  %v0_e = tensor.empty() : tensor<4x2x4xf16>
  %v0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0, %a1 : tensor<2x4xf32>, tensor<4x2x4xf32>) outs(%v0_e : tensor<4x2x4xf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: f16):
    %x1 = arith.subf %in1, %in0 : f32
    %x2 = arith.constant 1.000000e-03 : f32
    %x3 = arith.minimumf %x1, %x2 : f32
    %x4 = arith.truncf %x3 : f32 to f16
    linalg.yield %x4 : f16
  } -> tensor<4x2x4xf16>
  %v1_e = tensor.empty() : tensor<4x4x2xf16>
  %v1 = linalg.transpose ins(%v0 : tensor<4x2x4xf16>) outs(%v1_e : tensor<4x4x2xf16>) permutation = [2, 0, 1]
  %v4_c = arith.constant 0.000000e+00 : f32
  %v4_e = tensor.empty() : tensor<4x2xf32>
  %v4_f = linalg.fill ins(%v4_c : f32) outs(%v4_e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a1 : tensor<4x2x4xf32>) outs(%v4_f : tensor<4x2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %x1 = arith.addf %out, %in0 : f32
    linalg.yield %x1 : f32
  } -> tensor<4x2xf32>
  %v5 = tensor.expand_shape %v4 [[0, 1], [2]] output_shape [2, 2, 2] : tensor<4x2xf32> into tensor<2x2x2xf32>
  return %v1, %v5 : tensor<4x4x2xf16>, tensor<2x2x2xf32>
}
