// An f64 program (tile-optimize.mlir).
func.func @exp(%A: tensor<64x32xf64> {tile.name = "A"}) -> (tensor<64x32xf64> {tile.name = "B"}) {
  %e = tensor.empty() : tensor<64x32xf64>
  %r = linalg.exp ins(%A : tensor<64x32xf64>) outs(%e : tensor<64x32xf64>) -> tensor<64x32xf64>
  return %r : tensor<64x32xf64>
}
