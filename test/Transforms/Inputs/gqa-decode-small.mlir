// A grouped-query decode attention at small sizes (8 query heads on 2 KV
// heads, 1 token, 256 keys, d 64), written as bench/workloads/suite's
// attn_decode_* programs are: the queries grouped by expand_shape and
// collapse_shape, the output ungrouped the same way.

#map3_01 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3_012 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @gqa_decode(
    %Q: tensor<8x1x64xf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x256x64xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<2x256x64xf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"}
) -> (
    tensor<8x1x64xf16> {tile.name = "O"}
) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // GQA: query head h = k * G + j reads KV head k (G = H / KVH = 4): Qg = reshape(Q, (KVH, G * M, d))
  %Qe = tensor.expand_shape %Q [[0, 1], [2], [3]] output_shape [2, 4, 1, 64] : tensor<8x1x64xf16> into tensor<2x4x1x64xf16>
  %Qg = tensor.collapse_shape %Qe [[0], [1, 2], [3]] : tensor<2x4x1x64xf16> into tensor<2x4x64xf16>
  // C = Qg @ transpose(Kc, (0, 2, 1)) (f32)
  %KcT_init = tensor.empty() : tensor<2x64x256xf16>
  %KcT = linalg.transpose ins(%Kc : tensor<2x256x64xf16>) outs(%KcT_init : tensor<2x64x256xf16>) permutation = [0, 2, 1]
  %C_zero_init = tensor.empty() : tensor<2x4x256xf32>
  %C_zero = linalg.fill ins(%zero : f32) outs(%C_zero_init : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %C = linalg.batch_matmul ins(%Qg, %KcT : tensor<2x4x64xf16>, tensor<2x64x256xf16>) outs(%C_zero : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  // Pr = softmax(C / sqrt(d)) with max subtraction, stored f16
  %Pr_s_init = tensor.empty() : tensor<2x4x256xf32>
  %Pr_s = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C : tensor<2x4x256xf32>) outs(%Pr_s_init : tensor<2x4x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.constant 0.125 : f32
    %v2 = arith.mulf %in, %v1 : f32
    linalg.yield %v2 : f32
  } -> tensor<2x4x256xf32>
  %Pr_m_ninf_init = tensor.empty() : tensor<2x4xf32>
  %Pr_m_ninf = linalg.fill ins(%ninf : f32) outs(%Pr_m_ninf_init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %Pr_m = linalg.reduce ins(%Pr_s : tensor<2x4x256xf32>) outs(%Pr_m_ninf : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %max = arith.maximumf %in, %acc : f32
      linalg.yield %max : f32
    }
  %Pr_e_init = tensor.empty() : tensor<2x4x256xf32>
  %Pr_e = linalg.generic {indexing_maps = [#map3_012, #map3_01, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%Pr_s, %Pr_m : tensor<2x4x256xf32>, tensor<2x4xf32>) outs(%Pr_e_init : tensor<2x4x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %v1 = arith.subf %in0, %in1 : f32
    %v2 = math.exp %v1 : f32
    linalg.yield %v2 : f32
  } -> tensor<2x4x256xf32>
  %Pr_z_zero_init = tensor.empty() : tensor<2x4xf32>
  %Pr_z_zero = linalg.fill ins(%zero : f32) outs(%Pr_z_zero_init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %Pr_z = linalg.reduce ins(%Pr_e : tensor<2x4x256xf32>) outs(%Pr_z_zero : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %Pr_init = tensor.empty() : tensor<2x4x256xf16>
  %Pr = linalg.generic {indexing_maps = [#map3_012, #map3_01, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%Pr_e, %Pr_z : tensor<2x4x256xf32>, tensor<2x4xf32>) outs(%Pr_init : tensor<2x4x256xf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: f16):
    %v1 = arith.divf %in0, %in1 : f32
    %v2 = arith.truncf %v1 : f32 to f16
    linalg.yield %v2 : f16
  } -> tensor<2x4x256xf16>
  // O = reshape(Pr @ Vc, (H, M, d)), stored f16
  %Og1_zero_init = tensor.empty() : tensor<2x4x64xf32>
  %Og1_zero = linalg.fill ins(%zero : f32) outs(%Og1_zero_init : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %Og1 = linalg.batch_matmul ins(%Pr, %Vc : tensor<2x4x256xf16>, tensor<2x256x64xf16>) outs(%Og1_zero : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %Og_init = tensor.empty() : tensor<2x4x64xf16>
  %Og = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%Og1 : tensor<2x4x64xf32>) outs(%Og_init : tensor<2x4x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v1 = arith.truncf %in : f32 to f16
    linalg.yield %v1 : f16
  } -> tensor<2x4x64xf16>
  %Oe = tensor.expand_shape %Og [[0], [1, 2], [3]] output_shape [2, 4, 1, 64] : tensor<2x4x64xf16> into tensor<2x4x1x64xf16>
  %O = tensor.collapse_shape %Oe [[0, 1], [2], [3]] : tensor<2x4x1x64xf16> into tensor<8x1x64xf16>

  return %O : tensor<8x1x64xf16>
}
