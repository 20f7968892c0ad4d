// exp of a 64 x 32 tensor (tile-optimize-tuning.mlir).
func.func @exp(%A: tensor<64x32xf32> {tile.name = "A"}) -> (tensor<64x32xf32> {tile.name = "B"}) {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.exp ins(%A : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
