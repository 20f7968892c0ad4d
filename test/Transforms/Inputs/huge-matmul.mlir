func.func @huge(%A: tensor<100000x100000xf32> {tile.name = "A"}, %B: tensor<100000x100000xf32> {tile.name = "B"}) -> (tensor<100000x100000xf32> {tile.name = "C"}) {
  %zero = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<100000x100000xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<100000x100000xf32>) -> tensor<100000x100000xf32>
  %y = linalg.matmul ins(%A, %B : tensor<100000x100000xf32>, tensor<100000x100000xf32>) outs(%z : tensor<100000x100000xf32>) -> tensor<100000x100000xf32>
  return %y : tensor<100000x100000xf32>
}
