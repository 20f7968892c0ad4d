// Found by tools/tile-fuzz (seed 5010 (8 ops), shrunk to 5 ops: expand,greduce-add,ew,reduce-maxnumf,insert).
// --tile-optimize dropped wrong candidates (`outputs differ by 0.65`): the
// statement storing a4 ended up fused into the loop accumulating the row
// sums t1, reading partial sums. The same cause as
// optimize-reindex-under-binder.mlir: a loop variable renamed under a loop
// binding it. With the fix no candidate is wrong, with or without the check.
//
// RUN: tile-opt %s --convert-linalg-to-tile --tile-extract="only=Fusion,Sequence,loop-insertion1,loop-insertion1-tail,loop-invar-code-motion top-k=20 check=false" -o %t.sub.mlir
// RUN: for c in $(grep -o 'tile.program @[A-Za-z0-9_]*' %t.sub.mlir | cut -d@ -f2); do \
// RUN:   tile-run %t.sub.mlir --entry $c --reference %s --precision f32 --tolerance 0.001 --seed 5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: MISMATCH
// EXEC: PASS
//
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK-NOT: dropped:
// CHECK: remark: extracted

func.func @fuzz(
    %a0: tensor<48x1xf32> {tile.name = "a0", tile.init = "uniform(-1.0, 1.0)"},
    %a1: tensor<16x48xf32> {tile.name = "a1", tile.init = "uniform(0.1, 1.0)"},
    %a2: tensor<48xf32> {tile.name = "a2", tile.init = "uniform(0.5, 2.0)"},
    %a4: tensor<19x48xf32> {tile.name = "a4", tile.init = "normal(0.0, 0.1)"}
) -> (
    tensor<3x16x1xf32> {tile.name = "r0"},
    tensor<16x48xf32> {tile.name = "r1"},
    tensor<f32> {tile.name = "r2"},
    tensor<19x48xf32> {tile.name = "a4"}
) {
  %v0 = tensor.expand_shape %a0 [[0, 1], [2]] output_shape [3, 16, 1] : tensor<48x1xf32> into tensor<3x16x1xf32>
  %v2_c = arith.constant 0.000000e+00 : f32
  %v2_e = tensor.empty() : tensor<16xf32>
  %v2_f = linalg.fill ins(%v2_c : f32) outs(%v2_e : tensor<16xf32>) -> tensor<16xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<16x48xf32>) outs(%v2_f : tensor<16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %x1 = arith.addf %in0, %out : f32
    linalg.yield %x1 : f32
  } -> tensor<16xf32>
  %v4_e = tensor.empty() : tensor<16x48xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2, %a2 : tensor<16xf32>, tensor<48xf32>) outs(%v4_e : tensor<16x48xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %x1 = arith.mulf %in0, %in1 : f32
    linalg.yield %x1 : f32
  } -> tensor<16x48xf32>
  %v6_c = arith.constant 0xFF800000 : f32
  %v6_e = tensor.empty() : tensor<f32>
  %v6_f = linalg.fill ins(%v6_c : f32) outs(%v6_e : tensor<f32>) -> tensor<f32>
  %v6 = linalg.reduce ins(%v2 : tensor<16xf32>) outs(%v6_f : tensor<f32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %r = arith.maxnumf %in, %init : f32
      linalg.yield %r : f32
    }
  %v7 = tensor.insert_slice %v4 into %a4[0, 0] [16, 48] [1, 1] : tensor<16x48xf32> into tensor<19x48xf32>
  return %v0, %v4, %v6, %v7 : tensor<3x16x1xf32>, tensor<16x48xf32>, tensor<f32>, tensor<19x48xf32>
}
