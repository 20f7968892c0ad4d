// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// BERT/ViT/Whisper-style MLP: fc1 as a linalg.generic contraction reading nn.Linear weights [out,in] through a
// permuted map, bias + exact erf GELU (math.erf) in f16 with f32 math, fc2 likewise, and the epilogue generic writes
// its output transposed ([D, M], permuted output map), maxnumf clamp of the activations (arith.maxnumf).
#cA = affine_map<(m, n, k) -> (m, k)>
#cB = affine_map<(m, n, k) -> (n, k)>
#cC = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @bert_mlp(
    %X: tensor<7x48xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W1: tensor<112x48xf16> {tile.name = "W1", tile.init = "normal(0.0, 0.15)"},
    %b1: tensor<112xf16> {tile.name = "b1", tile.init = "normal(0.0, 0.5)"},
    %W2: tensor<48x112xf16> {tile.name = "W2", tile.init = "normal(0.0, 0.1)"},
    %b2: tensor<48xf16> {tile.name = "b2", tile.init = "normal(0.0, 0.5)"}
) -> (tensor<48x7xf16> {tile.name = "YT"}) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<7x112xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<7x112xf32>) -> tensor<7x112xf32>
  %H0 = linalg.generic {indexing_maps = [#cA, #cB, #cC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%X, %W1 : tensor<7x48xf16>, tensor<112x48xf16>) outs(%f0 : tensor<7x112xf32>) {
  ^bb0(%a16: f16, %b16: f16, %acc: f32):
    %a = arith.extf %a16 : f16 to f32
    %b = arith.extf %b16 : f16 to f32
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<7x112xf32>
  %e1 = tensor.empty() : tensor<7x112xf16>
  %H = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%H0, %b1 : tensor<7x112xf32>, tensor<112xf16>) outs(%e1 : tensor<7x112xf16>) {
  ^bb0(%h: f32, %bb16: f16, %o: f16):
    %bb = arith.extf %bb16 : f16 to f32
    %x = arith.addf %h, %bb : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.7071067811865476 : f32
    %lo = arith.constant -8.0 : f32
    %xc = arith.maxnumf %x, %lo : f32
    %u = arith.mulf %xc, %rs2 : f32
    %er = math.erf %u : f32
    %p = arith.addf %er, %one : f32
    %q = arith.mulf %xc, %half : f32
    %g = arith.mulf %q, %p : f32
    %t = arith.truncf %g : f32 to f16
    linalg.yield %t : f16
  } -> tensor<7x112xf16>
  %e2 = tensor.empty() : tensor<7x48xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<7x48xf32>) -> tensor<7x48xf32>
  %Y0 = linalg.generic {indexing_maps = [#cA, #cB, #cC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%H, %W2 : tensor<7x112xf16>, tensor<48x112xf16>) outs(%f2 : tensor<7x48xf32>) {
  ^bb0(%a16: f16, %b16: f16, %acc: f32):
    %a = arith.extf %a16 : f16 to f32
    %b = arith.extf %b16 : f16 to f32
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<7x48xf32>
  %e3 = tensor.empty() : tensor<48x7xf16>
  %YT = linalg.generic {indexing_maps = [#id2, #col, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%Y0, %b2 : tensor<7x48xf32>, tensor<48xf16>) outs(%e3 : tensor<48x7xf16>) {
  ^bb0(%y: f32, %bb16: f16, %o: f16):
    %bb = arith.extf %bb16 : f16 to f32
    %r = arith.addf %y, %bb : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<48x7xf16>
  return %YT : tensor<48x7xf16>
}
