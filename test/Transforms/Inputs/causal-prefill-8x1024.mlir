// Causal attention (one KV head per query head): O = softmax(mask(Q Kc^T / sqrt(d))) Vc with max subtraction.
// Llama-2-7B shapes scaled: H=8, M=1024, P=1024, d=128.
// bench/workloads/suite/attn_causal_llama2_7b_p2k.mlir with 8 heads and 1024
// rows and keys (what suite.py emits at those sizes).

#map3_01 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3_012 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @attn_causal_llama2_7b_p2k(
    %Q: tensor<8x1024x128xf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<8x1024x128xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<8x1024x128xf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"}
) -> (
    tensor<8x1024x128xf16> {tile.name = "O"}
) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // C = Q @ transpose(Kc, (0, 2, 1)) (f32)
  %KcT_init = tensor.empty() : tensor<8x128x1024xf16>
  %KcT = linalg.transpose ins(%Kc : tensor<8x1024x128xf16>) outs(%KcT_init : tensor<8x128x1024xf16>) permutation = [0, 2, 1]
  %C_zero_init = tensor.empty() : tensor<8x1024x1024xf32>
  %C_zero = linalg.fill ins(%zero : f32) outs(%C_zero_init : tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32>
  %C = linalg.batch_matmul ins(%Q, %KcT : tensor<8x1024x128xf16>, tensor<8x128x1024xf16>) outs(%C_zero : tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32>
  // Pr = softmax(C / sqrt(d)) with max subtraction and a causal mask (the 2048 rows are the last of the 2048 positions: row i sees keys j <= i + 0), stored f16
  %Pr_s_init = tensor.empty() : tensor<8x1024x1024xf32>
  %Pr_s = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C : tensor<8x1024x1024xf32>) outs(%Pr_s_init : tensor<8x1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.constant 0.08838834764831843 : f32
    %v2 = arith.mulf %in, %v1 : f32
    %v3 = linalg.index 1 : index
    %v4 = arith.constant 0 : index
    %v5 = arith.addi %v3, %v4 : index
    %v6 = linalg.index 2 : index
    %v7 = arith.cmpi ule, %v6, %v5 : index
    %v8 = arith.constant 0xFF800000 : f32
    %v9 = arith.select %v7, %v2, %v8 : f32
    linalg.yield %v9 : f32
  } -> tensor<8x1024x1024xf32>
  %Pr_m_ninf_init = tensor.empty() : tensor<8x1024xf32>
  %Pr_m_ninf = linalg.fill ins(%ninf : f32) outs(%Pr_m_ninf_init : tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %Pr_m = linalg.reduce ins(%Pr_s : tensor<8x1024x1024xf32>) outs(%Pr_m_ninf : tensor<8x1024xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %max = arith.maximumf %in, %acc : f32
      linalg.yield %max : f32
    }
  %Pr_e_init = tensor.empty() : tensor<8x1024x1024xf32>
  %Pr_e = linalg.generic {indexing_maps = [#map3_012, #map3_01, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%Pr_s, %Pr_m : tensor<8x1024x1024xf32>, tensor<8x1024xf32>) outs(%Pr_e_init : tensor<8x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %v1 = arith.subf %in0, %in1 : f32
    %v2 = math.exp %v1 : f32
    linalg.yield %v2 : f32
  } -> tensor<8x1024x1024xf32>
  %Pr_z_zero_init = tensor.empty() : tensor<8x1024xf32>
  %Pr_z_zero = linalg.fill ins(%zero : f32) outs(%Pr_z_zero_init : tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %Pr_z = linalg.reduce ins(%Pr_e : tensor<8x1024x1024xf32>) outs(%Pr_z_zero : tensor<8x1024xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %Pr_init = tensor.empty() : tensor<8x1024x1024xf16>
  %Pr = linalg.generic {indexing_maps = [#map3_012, #map3_01, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%Pr_e, %Pr_z : tensor<8x1024x1024xf32>, tensor<8x1024xf32>) outs(%Pr_init : tensor<8x1024x1024xf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: f16):
    %v1 = arith.divf %in0, %in1 : f32
    %v2 = arith.truncf %v1 : f32 to f16
    linalg.yield %v2 : f16
  } -> tensor<8x1024x1024xf16>
  // O = Pr @ Vc, stored f16
  %O1_zero_init = tensor.empty() : tensor<8x1024x128xf32>
  %O1_zero = linalg.fill ins(%zero : f32) outs(%O1_zero_init : tensor<8x1024x128xf32>) -> tensor<8x1024x128xf32>
  %O1 = linalg.batch_matmul ins(%Pr, %Vc : tensor<8x1024x1024xf16>, tensor<8x1024x128xf16>) outs(%O1_zero : tensor<8x1024x128xf32>) -> tensor<8x1024x128xf32>
  %O_init = tensor.empty() : tensor<8x1024x128xf16>
  %O = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%O1 : tensor<8x1024x128xf32>) outs(%O_init : tensor<8x1024x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v1 = arith.truncf %in : f32 to f16
    linalg.yield %v1 : f16
  } -> tensor<8x1024x128xf16>

  return %O : tensor<8x1024x128xf16>
}
