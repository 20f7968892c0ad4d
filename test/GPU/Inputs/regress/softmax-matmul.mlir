func.func @sm(%X: tensor<8x32xf32> {tile.name = "X"}, %W: tensor<32x16xf32> {tile.name = "W"}) -> (tensor<8x16xf32> {tile.name = "Y"}) {
  %e = tensor.empty() : tensor<8x32xf32>
  %s = linalg.softmax dimension(1) ins(%X : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%s, %W : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
