// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// torch-mlir's aten.addmm / nn.Linear-with-bias lowering: the bias is broadcast into the matmul's
// init (outs) and the matmul accumulates onto it; f32 accumulation of f16 operands, then truncf.
// Two layers back to back (Qwen-style q_proj with bias, then a bias-free o_proj-like matmul onto a residual init).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @addmm_bias_init(
    %X: tensor<5x72xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W: tensor<72x96xf16> {tile.name = "W", tile.init = "normal(0.0, 0.1)"},
    %b: tensor<96xf32> {tile.name = "b", tile.init = "normal(0.0, 1.0)"},
    %W2: tensor<96x72xf16> {tile.name = "W2", tile.init = "normal(0.0, 0.1)"},
    %R: tensor<5x72xf32> {tile.name = "R", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<5x72xf16> {tile.name = "Y"}) {
  %e0 = tensor.empty() : tensor<5x96xf32>
  %bb = linalg.broadcast ins(%b : tensor<96xf32>) outs(%e0 : tensor<5x96xf32>) dimensions = [0]
  %H32 = linalg.matmul ins(%X, %W : tensor<5x72xf16>, tensor<72x96xf16>) outs(%bb : tensor<5x96xf32>) -> tensor<5x96xf32>
  %e1 = tensor.empty() : tensor<5x96xf16>
  %H = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%H32 : tensor<5x96xf32>) outs(%e1 : tensor<5x96xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<5x96xf16>
  %Y32 = linalg.matmul ins(%H, %W2 : tensor<5x96xf16>, tensor<96x72xf16>) outs(%R : tensor<5x72xf32>) -> tensor<5x72xf32>
  %e2 = tensor.empty() : tensor<5x72xf16>
  %Y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%Y32 : tensor<5x72xf32>) outs(%e2 : tensor<5x72xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<5x72xf16>
  return %Y : tensor<5x72xf16>
}
