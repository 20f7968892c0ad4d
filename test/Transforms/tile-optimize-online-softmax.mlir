// RUN: tile-opt %s --tile-optimize="top-k=4 emulate=true" 2>&1 | FileCheck %s

// Softmax with max subtraction, then @ V, with scores of magnitude 100+
// (normal(0, 100) in f16): exp without the max overflows f32 here, so only
// the safe forms pass the check. The online-softmax rule fuses the
// running-max loop with the sum and P.V loops: a candidate carries the
// running max (the NaN-safe rebase select(M' == -inf, 0, M')), and it passes
// the check against the fp64 linalg reference and the host emulation of its
// lowered kernels.

// CHECK: remark: extracted 4 candidate(s) of @softmax_pv (0 dropped by the check)
// CHECK: tile.program @softmax_pv_c
// CHECK: tile.cmp eq
// CHECK: tile.select
// CHECK: tile.exp
// CHECK: tile.store
// CHECK-SAME: intermediate>
// CHECK-NOT: tile.loop
// CHECK: tile.store
// CHECK-SAME: intermediate>
// CHECK: tile.seq
// CHECK: tile.loop %r0

#map3_01 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3_012 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @softmax_pv(
    %S: tensor<2x4x256xf16> {tile.name = "S", tile.init = "normal(0.0, 100.0)"},
    %V: tensor<2x256x32xf16> {tile.name = "V", tile.init = "normal(0.0, 1.0)"}
) -> (
    tensor<2x4x32xf16> {tile.name = "O"}
) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // Pr = softmax(S, -1) with max subtraction, stored f16
  %Pr_s_init = tensor.empty() : tensor<2x4x256xf32>
  %Pr_s = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%S : tensor<2x4x256xf16>) outs(%Pr_s_init : tensor<2x4x256xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v1 = arith.extf %in : f16 to f32
    linalg.yield %v1 : f32
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
  // O = Pr @ V, stored f16
  %O1_zero_init = tensor.empty() : tensor<2x4x32xf32>
  %O1_zero = linalg.fill ins(%zero : f32) outs(%O1_zero_init : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %O1 = linalg.batch_matmul ins(%Pr, %V : tensor<2x4x256xf16>, tensor<2x256x32xf16>) outs(%O1_zero : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %O_init = tensor.empty() : tensor<2x4x32xf16>
  %O = linalg.generic {indexing_maps = [#map3_012, #map3_012], iterator_types = ["parallel", "parallel", "parallel"]} ins(%O1 : tensor<2x4x32xf32>) outs(%O_init : tensor<2x4x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v1 = arith.truncf %in : f32 to f16
    linalg.yield %v1 : f16
  } -> tensor<2x4x32xf16>

  return %O : tensor<2x4x32xf16>
}
