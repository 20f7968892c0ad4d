// A softmax over 4 rows of 65536 (test/GPU/wide-reduction-split.test).
func.func @softmax_rows(%X: tensor<4x65536xf32> {tile.name = "X", tile.init = "normal(0.0, 2.0)"})
    -> (tensor<4x65536xf32> {tile.name = "P"}) {
  %e = tensor.empty() : tensor<4x65536xf32>
  %P = linalg.softmax dimension(1) ins(%X : tensor<4x65536xf32>) outs(%e : tensor<4x65536xf32>) -> tensor<4x65536xf32>
  return %P : tensor<4x65536xf32>
}
