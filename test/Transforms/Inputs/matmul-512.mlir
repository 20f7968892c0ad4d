func.func @mm512(%A: tensor<512x512xf32> {tile.name = "A"}, %B: tensor<512x512xf32> {tile.name = "B"}) -> (tensor<512x512xf32> {tile.name = "C"}) {
  %zero = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<512x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<512x512xf32>) -> tensor<512x512xf32>
  %y = linalg.matmul ins(%A, %B : tensor<512x512xf32>, tensor<512x512xf32>) outs(%z : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %y : tensor<512x512xf32>
}
