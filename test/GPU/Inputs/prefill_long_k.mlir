// One GEMM with a long contraction (M=128, K=4096, N=128): its 128 x 128
// tile split in chunks of 1024 k runs as a split block matmul
// (test/GPU/block-matmul.test).
#map2_01 = affine_map<(d0, d1) -> (d0, d1)>

func.func @prefill_long_k(
    %X: tensor<128x4096xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W: tensor<4096x128xf16> {tile.name = "W", tile.init = "normal(0.0, 0.02)"}
) -> (
    tensor<128x128xf16> {tile.name = "Y"}
) {
  %zero = arith.constant 0.0 : f32
  %Y1_init = tensor.empty() : tensor<128x128xf32>
  %Y1_zero = linalg.fill ins(%zero : f32) outs(%Y1_init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %Y1 = linalg.matmul ins(%X, %W : tensor<128x4096xf16>, tensor<4096x128xf16>) outs(%Y1_zero : tensor<128x128xf32>) -> tensor<128x128xf32>
  %Y_init = tensor.empty() : tensor<128x128xf16>
  %Y = linalg.generic {indexing_maps = [#map2_01, #map2_01], iterator_types = ["parallel", "parallel"]} ins(%Y1 : tensor<128x128xf32>) outs(%Y_init : tensor<128x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  } -> tensor<128x128xf16>
  return %Y : tensor<128x128xf16>
}
