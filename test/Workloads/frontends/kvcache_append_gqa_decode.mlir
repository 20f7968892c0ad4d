// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s --input mask=@%S/Inputs/p17_mask.npy | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --input mask=@%S/Inputs/p17_mask.npy --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Decode step with in-place KV-cache append (insert_slice of the new token's K/V at position 37 of a 48-slot
// cache, returned), GQA via expand_shape of Q (H=6, KVH=2, G=3, d=40), QK^T by batch_matmul with a
// transposed-B indexing map over the whole cache (future slots hold garbage, masked additively from a .npy),
// named linalg.exp/linalg.div for the softmax pieces.
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rd3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#mk3 = affine_map<(d0, d1, d2) -> (d2)>
func.func @kv_append_decode(
    %q: tensor<6x40xf16> {tile.name = "q", tile.init = "normal(0.0, 1.0)"},
    %knew: tensor<2x1x40xf16> {tile.name = "knew", tile.init = "normal(0.0, 1.0)"},
    %vnew: tensor<2x1x40xf16> {tile.name = "vnew", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x48x40xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<2x48x40xf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"},
    %mask: tensor<48xf32> {tile.name = "mask"}
) -> (tensor<6x40xf16> {tile.name = "O"}, tensor<2x48x40xf16> {tile.name = "Kc"}, tensor<2x48x40xf16> {tile.name = "Vc"}) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %K = tensor.insert_slice %knew into %Kc[0, 37, 0] [2, 1, 40] [1, 1, 1] : tensor<2x1x40xf16> into tensor<2x48x40xf16>
  %V = tensor.insert_slice %vnew into %Vc[0, 37, 0] [2, 1, 40] [1, 1, 1] : tensor<2x1x40xf16> into tensor<2x48x40xf16>
  %qg = tensor.expand_shape %q [[0, 1], [2]] output_shape [2, 3, 40] : tensor<6x40xf16> into tensor<2x3x40xf16>
  %eS = tensor.empty() : tensor<2x3x48xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%qg, %K : tensor<2x3x40xf16>, tensor<2x48x40xf16>) outs(%fS : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %eL = tensor.empty() : tensor<2x3x48xf32>
  %L = linalg.generic {indexing_maps = [#id3, #mk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S, %mask : tensor<2x3x48xf32>, tensor<48xf32>) outs(%eL : tensor<2x3x48xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %c = arith.constant 0.15811388300841897 : f32
    %a = arith.mulf %s, %c : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x48xf32>
  %eM = tensor.empty() : tensor<2x3xf32>
  %fM = linalg.fill ins(%ninf : f32) outs(%eM : tensor<2x3xf32>) -> tensor<2x3xf32>
  %M = linalg.reduce ins(%L : tensor<2x3x48xf32>) outs(%fM : tensor<2x3xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %eMb = tensor.empty() : tensor<2x3x48xf32>
  %Mb = linalg.broadcast ins(%M : tensor<2x3xf32>) outs(%eMb : tensor<2x3x48xf32>) dimensions = [2]
  %eD = tensor.empty() : tensor<2x3x48xf32>
  %D = linalg.sub ins(%L, %Mb : tensor<2x3x48xf32>, tensor<2x3x48xf32>) outs(%eD : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %eE = tensor.empty() : tensor<2x3x48xf32>
  %E = linalg.exp ins(%D : tensor<2x3x48xf32>) outs(%eE : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %fZ = linalg.fill ins(%z : f32) outs(%eM : tensor<2x3xf32>) -> tensor<2x3xf32>
  %Z = linalg.reduce ins(%E : tensor<2x3x48xf32>) outs(%fZ : tensor<2x3xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %eZb = tensor.empty() : tensor<2x3x48xf32>
  %Zb = linalg.broadcast ins(%Z : tensor<2x3xf32>) outs(%eZb : tensor<2x3x48xf32>) dimensions = [2]
  %eP = tensor.empty() : tensor<2x3x48xf32>
  %P = linalg.div ins(%E, %Zb : tensor<2x3x48xf32>, tensor<2x3x48xf32>) outs(%eP : tensor<2x3x48xf32>) -> tensor<2x3x48xf32>
  %eP16 = tensor.empty() : tensor<2x3x48xf16>
  %P16 = linalg.map ins(%P : tensor<2x3x48xf32>) outs(%eP16 : tensor<2x3x48xf16>)
    (%in: f32, %o: f16) {
      %t = arith.truncf %in : f32 to f16
      linalg.yield %t : f16
    }
  %eO = tensor.empty() : tensor<2x3x40xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<2x3x40xf32>) -> tensor<2x3x40xf32>
  %O1 = linalg.batch_matmul ins(%P16, %V : tensor<2x3x48xf16>, tensor<2x48x40xf16>) outs(%fO : tensor<2x3x40xf32>) -> tensor<2x3x40xf32>
  %eO16 = tensor.empty() : tensor<2x3x40xf16>
  %O2 = linalg.map ins(%O1 : tensor<2x3x40xf32>) outs(%eO16 : tensor<2x3x40xf16>)
    (%in: f32, %o: f16) {
      %t = arith.truncf %in : f32 to f16
      linalg.yield %t : f16
    }
  %O = tensor.collapse_shape %O2 [[0, 1], [2]] : tensor<2x3x40xf16> into tensor<6x40xf16>
  return %O, %K, %V : tensor<6x40xf16>, tensor<2x48x40xf16>, tensor<2x48x40xf16>
}
