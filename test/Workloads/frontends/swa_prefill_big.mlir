// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Larger copy of p14: M=16, P=256, H=4, d=64, W=100. Chunked-prefill attention (f16) with a
// causal + sliding-window (W=24) mask computed from linalg.index (as torch-mlir / IREE emit
// for a generated mask), select to -inf, linalg.softmax over keys in f32.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @swa_prefill_big(
    %Q: tensor<4x16x64xf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<4x256x64xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<4x256x64xf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<4x16x64xf16> {tile.name = "O"}) {
  %z = arith.constant 0.0 : f32
  %eKT = tensor.empty() : tensor<4x64x256xf16>
  %KT = linalg.transpose ins(%Kc : tensor<4x256x64xf16>) outs(%eKT : tensor<4x64x256xf16>) permutation = [0, 2, 1]
  %eS = tensor.empty() : tensor<4x16x256xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %S = linalg.batch_matmul ins(%Q, %KT : tensor<4x16x64xf16>, tensor<4x64x256xf16>) outs(%fS : tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %eL = tensor.empty() : tensor<4x16x256xf32>
  %L = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S : tensor<4x16x256xf32>) outs(%eL : tensor<4x16x256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %off = arith.constant 240 : i64
    %win = arith.constant 100 : i64
    %pos = arith.addi %ii, %off : i64
    %lo = arith.subi %pos, %win : i64
    %c1 = arith.cmpi sle, %jj, %pos : i64
    %c2 = arith.cmpi sgt, %jj, %lo : i64
    %vis = arith.andi %c1, %c2 : i1
    %scale = arith.constant 0.125 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %a = arith.mulf %s, %scale : f32
    %r = arith.select %vis, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x16x256xf32>
  %eP = tensor.empty() : tensor<4x16x256xf32>
  %P = linalg.softmax dimension(2) ins(%L : tensor<4x16x256xf32>) outs(%eP : tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %eP16 = tensor.empty() : tensor<4x16x256xf16>
  %P16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%P : tensor<4x16x256xf32>) outs(%eP16 : tensor<4x16x256xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x16x256xf16>
  %eO = tensor.empty() : tensor<4x16x64xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
  %O1 = linalg.batch_matmul ins(%P16, %Vc : tensor<4x16x256xf16>, tensor<4x256x64xf16>) outs(%fO : tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
  %eO16 = tensor.empty() : tensor<4x16x64xf16>
  %O = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%O1 : tensor<4x16x64xf32>) outs(%eO16 : tensor<4x16x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x16x64xf16>
  return %O : tensor<4x16x64xf16>
}
