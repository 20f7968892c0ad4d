// Not what skinny-matmul.mlir computes: X @ W plus one.
func.func @lanes(%X: tensor<16x64xf16>, %W: tensor<64x128xf16>) -> tensor<16x128xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%X, %W : tensor<16x64xf16>, tensor<64x128xf16>) outs(%f : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}
