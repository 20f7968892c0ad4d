// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// A whole Llama-style decoder layer, one token, 80-dim heads (D=160, H=2, KVH=1, d=80, F=224, cache 40 slots,
// new token at slot 39): RMSNorm, nn.Linear projections (linalg.matmul with transposed-B maps), rotate-half rope
// (extract_slice + insert_slice concat), in-place KV-cache append, GQA via reshapes, linalg.softmax, out proj,
// residual, RMSNorm, SwiGLU, residual. f16 storage, f32 math.
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#cs3 = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @decoder80(
    %X: tensor<1x160xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %g1: tensor<160xf16> {tile.name = "g1", tile.init = "normal(1.0, 0.1)"},
    %Wq: tensor<160x160xf16> {tile.name = "Wq", tile.init = "normal(0.0, 0.08)"},
    %Wk: tensor<80x160xf16> {tile.name = "Wk", tile.init = "normal(0.0, 0.08)"},
    %Wv: tensor<80x160xf16> {tile.name = "Wv", tile.init = "normal(0.0, 0.08)"},
    %cos: tensor<1x80xf16> {tile.name = "cos", tile.init = "uniform(-1.0, 1.0)"},
    %sin: tensor<1x80xf16> {tile.name = "sin", tile.init = "uniform(-1.0, 1.0)"},
    %Kc: tensor<1x40x80xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<1x40x80xf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"},
    %Wo: tensor<160x160xf16> {tile.name = "Wo", tile.init = "normal(0.0, 0.08)"},
    %g2: tensor<160xf16> {tile.name = "g2", tile.init = "normal(1.0, 0.1)"},
    %Wg: tensor<224x160xf16> {tile.name = "Wg", tile.init = "normal(0.0, 0.08)"},
    %Wu: tensor<224x160xf16> {tile.name = "Wu", tile.init = "normal(0.0, 0.08)"},
    %Wd: tensor<160x224xf16> {tile.name = "Wd", tile.init = "normal(0.0, 0.08)"}
) -> (tensor<1x160xf16> {tile.name = "Y"}, tensor<1x40x80xf16> {tile.name = "Kc"}, tensor<1x40x80xf16> {tile.name = "Vc"}) {
  %z = arith.constant 0.0 : f32
  // ---- RMSNorm 1
  %es = tensor.empty() : tensor<1xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<1xf32>) -> tensor<1xf32>
  %ss1 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<1x160xf16>) outs(%fs : tensor<1xf32>) {
  ^bb0(%x16: f16, %acc: f32):
    %x = arith.extf %x16 : f16 to f32
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %exn = tensor.empty() : tensor<1x160xf16>
  %xn = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%X, %ss1, %g1 : tensor<1x160xf16>, tensor<1xf32>, tensor<160xf16>) outs(%exn : tensor<1x160xf16>) {
  ^bb0(%x16: f16, %ss: f32, %g16: f16, %o: f16):
    %n = arith.constant 160.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %x = arith.extf %x16 : f16 to f32
    %g = arith.extf %g16 : f16 to f32
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %y0 = arith.mulf %x, %r : f32
    %y1 = arith.mulf %y0, %g : f32
    %y = arith.truncf %y1 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x160xf16>
  // ---- projections
  %eq = tensor.empty() : tensor<1x160xf32>
  %fq = linalg.fill ins(%z : f32) outs(%eq : tensor<1x160xf32>) -> tensor<1x160xf32>
  %q32 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%xn, %Wq : tensor<1x160xf16>, tensor<160x160xf16>) outs(%fq : tensor<1x160xf32>) -> tensor<1x160xf32>
  %ek = tensor.empty() : tensor<1x80xf32>
  %fk = linalg.fill ins(%z : f32) outs(%ek : tensor<1x80xf32>) -> tensor<1x80xf32>
  %k32 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%xn, %Wk : tensor<1x160xf16>, tensor<80x160xf16>) outs(%fk : tensor<1x80xf32>) -> tensor<1x80xf32>
  %v32 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%xn, %Wv : tensor<1x160xf16>, tensor<80x160xf16>) outs(%fk : tensor<1x80xf32>) -> tensor<1x80xf32>
  %eq16 = tensor.empty() : tensor<1x160xf16>
  %q16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%q32 : tensor<1x160xf32>) outs(%eq16 : tensor<1x160xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x160xf16>
  %ek16 = tensor.empty() : tensor<1x80xf16>
  %k16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%k32 : tensor<1x80xf32>) outs(%ek16 : tensor<1x80xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x80xf16>
  %v16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v32 : tensor<1x80xf32>) outs(%ek16 : tensor<1x80xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x80xf16>
  // heads: q [M,H,d] -> [H,M,d]; k, v [1,1,80]
  %q3 = tensor.expand_shape %q16 [[0], [1, 2]] output_shape [1, 2, 80] : tensor<1x160xf16> into tensor<1x2x80xf16>
  %eqh = tensor.empty() : tensor<2x1x80xf16>
  %qh = linalg.transpose ins(%q3 : tensor<1x2x80xf16>) outs(%eqh : tensor<2x1x80xf16>) permutation = [1, 0, 2]
  %kh = tensor.expand_shape %k16 [[0, 1], [2]] output_shape [1, 1, 80] : tensor<1x80xf16> into tensor<1x1x80xf16>
  %vh = tensor.expand_shape %v16 [[0, 1], [2]] output_shape [1, 1, 80] : tensor<1x80xf16> into tensor<1x1x80xf16>
  // ---- rope on q
  %q1 = tensor.extract_slice %qh[0, 0, 0] [2, 1, 40] [1, 1, 1] : tensor<2x1x80xf16> to tensor<2x1x40xf16>
  %q2 = tensor.extract_slice %qh[0, 0, 40] [2, 1, 40] [1, 1, 1] : tensor<2x1x80xf16> to tensor<2x1x40xf16>
  %eqn = tensor.empty() : tensor<2x1x40xf16>
  %nq2 = linalg.negf ins(%q2 : tensor<2x1x40xf16>) outs(%eqn : tensor<2x1x40xf16>) -> tensor<2x1x40xf16>
  %eqr = tensor.empty() : tensor<2x1x80xf16>
  %qr0 = tensor.insert_slice %nq2 into %eqr[0, 0, 0] [2, 1, 40] [1, 1, 1] : tensor<2x1x40xf16> into tensor<2x1x80xf16>
  %qrot = tensor.insert_slice %q1 into %qr0[0, 0, 40] [2, 1, 40] [1, 1, 1] : tensor<2x1x40xf16> into tensor<2x1x80xf16>
  %eqo = tensor.empty() : tensor<2x1x80xf16>
  %qe = linalg.generic {indexing_maps = [#id3, #id3, #cs3, #cs3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qh, %qrot, %cos, %sin : tensor<2x1x80xf16>, tensor<2x1x80xf16>, tensor<1x80xf16>, tensor<1x80xf16>) outs(%eqo : tensor<2x1x80xf16>) {
  ^bb0(%x16: f16, %r16: f16, %c16: f16, %s16: f16, %o: f16):
    %x = arith.extf %x16 : f16 to f32
    %r = arith.extf %r16 : f16 to f32
    %c = arith.extf %c16 : f16 to f32
    %s = arith.extf %s16 : f16 to f32
    %a = arith.mulf %x, %c : f32
    %b = arith.mulf %r, %s : f32
    %y = arith.addf %a, %b : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x1x80xf16>
  // ---- rope on k
  %k1 = tensor.extract_slice %kh[0, 0, 0] [1, 1, 40] [1, 1, 1] : tensor<1x1x80xf16> to tensor<1x1x40xf16>
  %k2 = tensor.extract_slice %kh[0, 0, 40] [1, 1, 40] [1, 1, 1] : tensor<1x1x80xf16> to tensor<1x1x40xf16>
  %ekn = tensor.empty() : tensor<1x1x40xf16>
  %nk2 = linalg.negf ins(%k2 : tensor<1x1x40xf16>) outs(%ekn : tensor<1x1x40xf16>) -> tensor<1x1x40xf16>
  %ekr = tensor.empty() : tensor<1x1x80xf16>
  %kr0 = tensor.insert_slice %nk2 into %ekr[0, 0, 0] [1, 1, 40] [1, 1, 1] : tensor<1x1x40xf16> into tensor<1x1x80xf16>
  %krot = tensor.insert_slice %k1 into %kr0[0, 0, 40] [1, 1, 40] [1, 1, 1] : tensor<1x1x40xf16> into tensor<1x1x80xf16>
  %eko = tensor.empty() : tensor<1x1x80xf16>
  %ke = linalg.generic {indexing_maps = [#id3, #id3, #cs3, #cs3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%kh, %krot, %cos, %sin : tensor<1x1x80xf16>, tensor<1x1x80xf16>, tensor<1x80xf16>, tensor<1x80xf16>) outs(%eko : tensor<1x1x80xf16>) {
  ^bb0(%x16: f16, %r16: f16, %c16: f16, %s16: f16, %o: f16):
    %x = arith.extf %x16 : f16 to f32
    %r = arith.extf %r16 : f16 to f32
    %c = arith.extf %c16 : f16 to f32
    %s = arith.extf %s16 : f16 to f32
    %a = arith.mulf %x, %c : f32
    %b = arith.mulf %r, %s : f32
    %y = arith.addf %a, %b : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x1x80xf16>
  // ---- cache append
  %Kn = tensor.insert_slice %ke into %Kc[0, 39, 0] [1, 1, 80] [1, 1, 1] : tensor<1x1x80xf16> into tensor<1x40x80xf16>
  %Vn = tensor.insert_slice %vh into %Vc[0, 39, 0] [1, 1, 80] [1, 1, 1] : tensor<1x1x80xf16> into tensor<1x40x80xf16>
  // ---- attention (GQA: [KVH=1, G*M=2, d])
  %qf = tensor.collapse_shape %qe [[0, 1], [2]] : tensor<2x1x80xf16> into tensor<2x80xf16>
  %qg = tensor.expand_shape %qf [[0, 1], [2]] output_shape [1, 2, 80] : tensor<2x80xf16> into tensor<1x2x80xf16>
  %eS = tensor.empty() : tensor<1x2x40xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%qg, %Kn : tensor<1x2x80xf16>, tensor<1x40x80xf16>) outs(%fS : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %eSc = tensor.empty() : tensor<1x2x40xf32>
  %Sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%S : tensor<1x2x40xf32>) outs(%eSc : tensor<1x2x40xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant 0.11180339887498948 : f32
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x40xf32>
  %eP = tensor.empty() : tensor<1x2x40xf32>
  %P = linalg.softmax dimension(2) ins(%Sc : tensor<1x2x40xf32>) outs(%eP : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %eP16 = tensor.empty() : tensor<1x2x40xf16>
  %P16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%P : tensor<1x2x40xf32>) outs(%eP16 : tensor<1x2x40xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x40xf16>
  %eO = tensor.empty() : tensor<1x2x80xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<1x2x80xf32>) -> tensor<1x2x80xf32>
  %O1 = linalg.batch_matmul ins(%P16, %Vn : tensor<1x2x40xf16>, tensor<1x40x80xf16>) outs(%fO : tensor<1x2x80xf32>) -> tensor<1x2x80xf32>
  %eO16 = tensor.empty() : tensor<1x2x80xf16>
  %O16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%O1 : tensor<1x2x80xf32>) outs(%eO16 : tensor<1x2x80xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x80xf16>
  %Ocat = tensor.collapse_shape %O16 [[0], [1, 2]] : tensor<1x2x80xf16> into tensor<1x160xf16>
  // ---- out proj + residual
  %fa = linalg.fill ins(%z : f32) outs(%eq : tensor<1x160xf32>) -> tensor<1x160xf32>
  %A = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%Ocat, %Wo : tensor<1x160xf16>, tensor<160x160xf16>) outs(%fa : tensor<1x160xf32>) -> tensor<1x160xf32>
  %eX2 = tensor.empty() : tensor<1x160xf32>
  %X2 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%X, %A : tensor<1x160xf16>, tensor<1x160xf32>) outs(%eX2 : tensor<1x160xf32>) {
  ^bb0(%x16: f16, %a: f32, %o: f32):
    %x = arith.extf %x16 : f16 to f32
    %s = arith.addf %x, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x160xf32>
  // ---- RMSNorm 2 (named ops)
  %esq = tensor.empty() : tensor<1x160xf32>
  %sq2 = linalg.mul ins(%X2, %X2 : tensor<1x160xf32>, tensor<1x160xf32>) outs(%esq : tensor<1x160xf32>) -> tensor<1x160xf32>
  %fs2 = linalg.fill ins(%z : f32) outs(%es : tensor<1xf32>) -> tensor<1xf32>
  %ss2 = linalg.reduce ins(%sq2 : tensor<1x160xf32>) outs(%fs2 : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %exn2 = tensor.empty() : tensor<1x160xf16>
  %xn2 = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%X2, %ss2, %g2 : tensor<1x160xf32>, tensor<1xf32>, tensor<160xf16>) outs(%exn2 : tensor<1x160xf16>) {
  ^bb0(%x: f32, %ss: f32, %g16: f16, %o: f16):
    %n = arith.constant 160.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %g = arith.extf %g16 : f16 to f32
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %y0 = arith.mulf %x, %r : f32
    %y1 = arith.mulf %y0, %g : f32
    %y = arith.truncf %y1 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x160xf16>
  // ---- SwiGLU
  %eg = tensor.empty() : tensor<1x224xf32>
  %fg = linalg.fill ins(%z : f32) outs(%eg : tensor<1x224xf32>) -> tensor<1x224xf32>
  %G = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%xn2, %Wg : tensor<1x160xf16>, tensor<224x160xf16>) outs(%fg : tensor<1x224xf32>) -> tensor<1x224xf32>
  %U = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%xn2, %Wu : tensor<1x160xf16>, tensor<224x160xf16>) outs(%fg : tensor<1x224xf32>) -> tensor<1x224xf32>
  %eh = tensor.empty() : tensor<1x224xf16>
  %H = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%G, %U : tensor<1x224xf32>, tensor<1x224xf32>) outs(%eh : tensor<1x224xf16>) {
  ^bb0(%g: f32, %u: f32, %o: f16):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %g : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %g, %d : f32
    %r = arith.mulf %s, %u : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x224xf16>
  %fd = linalg.fill ins(%z : f32) outs(%eq : tensor<1x160xf32>) -> tensor<1x160xf32>
  %D = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%H, %Wd : tensor<1x224xf16>, tensor<160x224xf16>) outs(%fd : tensor<1x160xf32>) -> tensor<1x160xf32>
  %eY = tensor.empty() : tensor<1x160xf16>
  %Y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%X2, %D : tensor<1x160xf32>, tensor<1x160xf32>) outs(%eY : tensor<1x160xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %s = arith.addf %a, %b : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x160xf16>
  return %Y, %Kn, %Vn : tensor<1x160xf16>, tensor<1x40x80xf16>, tensor<1x40x80xf16>
}
