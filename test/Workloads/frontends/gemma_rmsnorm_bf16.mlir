// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Gemma-style RMSNorm: y = x * rsqrt(mean(x^2) + eps) * (1 + w), bf16 in/out, f32 math.
// torch-mlir style: extf via linalg.map, named linalg.mul, linalg.reduce, linalg.broadcast.
func.func @gemma_rmsnorm(
    %X: tensor<5x96xbf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %w: tensor<96xbf16> {tile.name = "w", tile.init = "normal(0.0, 0.1)"}
) -> (tensor<5x96xbf16> {tile.name = "Y"}) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<5x96xf32>
  %Xf = linalg.map ins(%X : tensor<5x96xbf16>) outs(%e0 : tensor<5x96xf32>)
    (%in: bf16, %o: f32) {
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
    }
  %e1 = tensor.empty() : tensor<5x96xf32>
  %sq = linalg.mul ins(%Xf, %Xf : tensor<5x96xf32>, tensor<5x96xf32>) outs(%e1 : tensor<5x96xf32>) -> tensor<5x96xf32>
  %e2 = tensor.empty() : tensor<5xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<5xf32>) -> tensor<5xf32>
  %ss = linalg.reduce ins(%sq : tensor<5x96xf32>) outs(%z2 : tensor<5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<5xf32>
  %inv = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<5xf32>) outs(%e3 : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 96.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %e4 = tensor.empty() : tensor<5x96xf32>
  %invb = linalg.broadcast ins(%inv : tensor<5xf32>) outs(%e4 : tensor<5x96xf32>) dimensions = [1]
  %e5 = tensor.empty() : tensor<5x96xf32>
  %xn = linalg.mul ins(%Xf, %invb : tensor<5x96xf32>, tensor<5x96xf32>) outs(%e5 : tensor<5x96xf32>) -> tensor<5x96xf32>
  %e6 = tensor.empty() : tensor<96xf32>
  %w1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<96xbf16>) outs(%e6 : tensor<96xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %one = arith.constant 1.0 : f32
    %x = arith.extf %in : bf16 to f32
    %a = arith.addf %x, %one : f32
    linalg.yield %a : f32
  } -> tensor<96xf32>
  %e7 = tensor.empty() : tensor<5x96xf32>
  %wb = linalg.broadcast ins(%w1 : tensor<96xf32>) outs(%e7 : tensor<5x96xf32>) dimensions = [0]
  %e8 = tensor.empty() : tensor<5x96xf32>
  %y = linalg.mul ins(%xn, %wb : tensor<5x96xf32>, tensor<5x96xf32>) outs(%e8 : tensor<5x96xf32>) -> tensor<5x96xf32>
  %e9 = tensor.empty() : tensor<5x96xbf16>
  %Y = linalg.map ins(%y : tensor<5x96xf32>) outs(%e9 : tensor<5x96xbf16>)
    (%in: f32, %o: bf16) {
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
  return %Y : tensor<5x96xbf16>
}
