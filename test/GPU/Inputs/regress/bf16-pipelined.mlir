// A bf16 matmul with an f32 result: its pipelined loads carry bf16 values
// across loop iterations (test/GPU/emulate-regressions.test).
func.func @f(%X: tensor<4x64xbf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
             %W: tensor<64x8xbf16> {tile.name = "W", tile.init = "normal(0.0, 0.1)"})
    -> (tensor<4x8xf32> {tile.name = "Y"}) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %Y = linalg.matmul ins(%X, %W : tensor<4x64xbf16>, tensor<64x8xbf16>)
                     outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %Y : tensor<4x8xf32>
}
