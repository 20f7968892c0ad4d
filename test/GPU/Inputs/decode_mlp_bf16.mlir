// A SwiGLU MLP at a small decode size (M=16, D=256, F=512) with [K, N]
// weights, whose GEMMs run on the matrix units in element loops
// (test/GPU/mma-bf16.test), in bf16.
#map2_01 = affine_map<(d0, d1) -> (d0, d1)>

func.func @decode_mlp_bf16(
    %X: tensor<16x256xbf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W1: tensor<256x512xbf16> {tile.name = "W1", tile.init = "normal(0.0, 0.02)"},
    %W3: tensor<256x512xbf16> {tile.name = "W3", tile.init = "normal(0.0, 0.02)"},
    %W2: tensor<512x256xbf16> {tile.name = "W2", tile.init = "normal(0.0, 0.02)"}
) -> (
    tensor<16x256xbf16> {tile.name = "Y"}
) {
  %zero = arith.constant 0.0 : f32
  // H1 = X @ W1; H3 = X @ W3 (f32)
  %H1_zero_init = tensor.empty() : tensor<16x512xf32>
  %H1_zero = linalg.fill ins(%zero : f32) outs(%H1_zero_init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %H1 = linalg.matmul ins(%X, %W1 : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%H1_zero : tensor<16x512xf32>) -> tensor<16x512xf32>
  %H3_zero_init = tensor.empty() : tensor<16x512xf32>
  %H3_zero = linalg.fill ins(%zero : f32) outs(%H3_zero_init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %H3 = linalg.matmul ins(%X, %W3 : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%H3_zero : tensor<16x512xf32>) -> tensor<16x512xf32>
  // A = silu(H1) * H3, stored bf16
  %A_init = tensor.empty() : tensor<16x512xbf16>
  %A = linalg.generic {indexing_maps = [#map2_01, #map2_01, #map2_01], iterator_types = ["parallel", "parallel"]} ins(%H1, %H3 : tensor<16x512xf32>, tensor<16x512xf32>) outs(%A_init : tensor<16x512xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: bf16):
    %v1 = arith.constant 1.0 : f32
    %v2 = arith.negf %in0 : f32
    %v3 = math.exp %v2 : f32
    %v4 = arith.addf %v1, %v3 : f32
    %v5 = arith.divf %v1, %v4 : f32
    %v6 = arith.mulf %in0, %v5 : f32
    %v7 = arith.mulf %v6, %in1 : f32
    %v8 = arith.truncf %v7 : f32 to bf16
    linalg.yield %v8 : bf16
  } -> tensor<16x512xbf16>
  // Y = A @ W2, stored bf16
  %Y1_zero_init = tensor.empty() : tensor<16x256xf32>
  %Y1_zero = linalg.fill ins(%zero : f32) outs(%Y1_zero_init : tensor<16x256xf32>) -> tensor<16x256xf32>
  %Y1 = linalg.matmul ins(%A, %W2 : tensor<16x512xbf16>, tensor<512x256xbf16>) outs(%Y1_zero : tensor<16x256xf32>) -> tensor<16x256xf32>
  %Y_init = tensor.empty() : tensor<16x256xbf16>
  %Y = linalg.generic {indexing_maps = [#map2_01, #map2_01], iterator_types = ["parallel", "parallel"]} ins(%Y1 : tensor<16x256xf32>) outs(%Y_init : tensor<16x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v1 = arith.truncf %in : f32 to bf16
    linalg.yield %v1 : bf16
  } -> tensor<16x256xbf16>

  return %Y : tensor<16x256xbf16>
}
