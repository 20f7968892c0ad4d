// Row sums of a 4x8 input, as linalg.
func.func @sum(%x: tensor<4x8xf32> {tile.name = "x", tile.init = "uniform(2.0, 2.0)"}) -> (tensor<4xf32> {tile.name = "s"}) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
