//===- AttentionProgram.h - The vanilla attention block in linalg ---------===//
//
// The `vanilla` workload of docs/Workloads.md written in linalg at any size, as a
// test input for the reference evaluator (and for timing it at full size).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_UNITTESTS_REFERENCE_ATTENTIONPROGRAM_H
#define TILEDIALECT_UNITTESTS_REFERENCE_ATTENTIONPROGRAM_H

#include <cstdint>
#include <initializer_list>
#include <string>

namespace mlir::tileir::testing {

/// `tensor<AxBx...xelt>`.
inline std::string tensorType(std::initializer_list<int64_t> shape,
                              const std::string &element) {
  std::string type = "tensor<";
  for (int64_t dim : shape)
    type += std::to_string(dim) + "x";
  return type + element + ">";
}

/// func.func @vanilla(X, WQ, WK, WV, Kc, Vc) -> (O2, Kc', Vc'): f16 storage,
/// f32 matmul accumulation and softmax statistics, no max subtraction.
inline std::string vanillaAttentionSource(int64_t m, int64_t h, int64_t d,
                                          int64_t p, int64_t pre) {
  int64_t dm = h * d;
  std::string s = std::to_string(m), sh = std::to_string(h),
              sd = std::to_string(d), sdm = std::to_string(dm),
              spre = std::to_string(pre);
  std::string x = tensorType({m, dm}, "f16"), w = tensorType({dm, dm}, "f16"),
              cache = tensorType({h, p, d}, "f16"),
              proj32 = tensorType({m, dm}, "f32"),
              proj16 = tensorType({m, dm}, "f16"),
              split = tensorType({m, h, d}, "f16"),
              heads = tensorType({h, m, d}, "f16"),
              scores = tensorType({h, m, p}, "f32"),
              probs = tensorType({h, m, p}, "f16"),
              sums = tensorType({h, m}, "f32"),
              out32 = tensorType({h, m, d}, "f32"),
              outT = tensorType({m, h, d}, "f32");
  std::string src;
  src += "#id2 = affine_map<(i, j) -> (i, j)>\n";
  src += "#id3 = affine_map<(a, b, c) -> (a, b, c)>\n";
  src += "#row3 = affine_map<(a, b, c) -> (a, b)>\n";
  src += "func.func @vanilla(%X: " + x + ", %WQ: " + w + ", %WK: " + w +
         ", %WV: " + w + ", %Kc: " + cache + ", %Vc: " + cache + ") -> (" +
         proj16 + ", " + cache + ", " + cache + ") {\n";
  src += "  %zero = arith.constant 0.0 : f32\n";
  src += "  %e_proj = tensor.empty() : " + proj32 + "\n";
  src += "  %acc_proj = linalg.fill ins(%zero : f32) outs(%e_proj : " + proj32 +
         ") -> " + proj32 + "\n";
  src += "  %e_proj16 = tensor.empty() : " + proj16 + "\n";
  src += "  %e_heads = tensor.empty() : " + heads + "\n";
  // Q, K, V: project, cast to f16, split heads, move heads first.
  for (const char *name : {"Q", "K", "V"}) {
    std::string n = name;
    src += "  %" + n + "1 = linalg.matmul ins(%X, %W" + n + " : " + x + ", " +
           w + ") outs(%acc_proj : " + proj32 + ") -> " + proj32 + "\n";
    src += "  %" + n +
           "16 = linalg.generic {indexing_maps = [#id2, #id2], "
           "iterator_types = [\"parallel\", \"parallel\"]} ins(%" +
           n + "1 : " + proj32 + ") outs(%e_proj16 : " + proj16 +
           ") {\n  ^bb0(%a: f32, %o: f16):\n    %t = arith.truncf %a : f32 "
           "to f16\n    linalg.yield %t : f16\n  } -> " +
           proj16 + "\n";
    src += "  %" + n + "3 = tensor.expand_shape %" + n +
           "16 [[0], [1, 2]] "
           "output_shape [" +
           s + ", " + sh + ", " + sd + "] : " + proj16 + " into " + split +
           "\n";
    src += "  %" + n + " = linalg.transpose ins(%" + n + "3 : " + split +
           ") outs(%e_heads : " + heads + ") permutation = [1, 0, 2]\n";
  }
  // KV-cache update.
  for (const char *name : {"K", "V"}) {
    std::string n = name;
    src += "  %" + n + "c2 = tensor.insert_slice %" + n + " into %" + n +
           "c[0, " + spre + ", 0] [" + sh + ", " + s + ", " + sd +
           "] [1, 1, 1] : " + heads + " into " + cache + "\n";
  }
  // C = Q @ Kc^T, E = exp(C), S = sum(E), Cdiv = E / S.
  src += "  %e_scores = tensor.empty() : " + scores + "\n";
  src += "  %acc_scores = linalg.fill ins(%zero : f32) outs(%e_scores : " +
         scores + ") -> " + scores + "\n";
  src += "  %C = linalg.batch_matmul indexing_maps = ["
         "affine_map<(b, i, j, k) -> (b, i, k)>, "
         "affine_map<(b, i, j, k) -> (b, j, k)>, "
         "affine_map<(b, i, j, k) -> (b, i, j)>] ins(%Q, %Kc2 : " +
         heads + ", " + cache + ") outs(%acc_scores : " + scores + ") -> " +
         scores + "\n";
  src += "  %E = linalg.exp ins(%C : " + scores +
         ") outs(%e_scores : " + scores + ") -> " + scores + "\n";
  src += "  %e_sums = tensor.empty() : " + sums + "\n";
  src += "  %acc_sums = linalg.fill ins(%zero : f32) outs(%e_sums : " + sums +
         ") -> " + sums + "\n";
  src += "  %S = linalg.reduce ins(%E : " + scores +
         ") outs(%acc_sums : " + sums +
         ") dimensions = [2]\n    (%in: f32, %init: f32) {\n"
         "      %r = arith.addf %in, %init : f32\n"
         "      linalg.yield %r : f32\n    }\n";
  src += "  %e_probs = tensor.empty() : " + probs + "\n";
  src += "  %Cdiv = linalg.generic {indexing_maps = [#id3, #row3, #id3], "
         "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
         "ins(%E, %S : " +
         scores + ", " + sums + ") outs(%e_probs : " + probs +
         ") {\n  ^bb0(%a: f32, %b: f32, %o: f16):\n"
         "    %q = arith.divf %a, %b : f32\n"
         "    %t = arith.truncf %q : f32 to f16\n"
         "    linalg.yield %t : f16\n  } -> " +
         probs + "\n";
  // O = Cdiv @ Vc, O2 = reshape(transpose(O)).
  src += "  %e_out = tensor.empty() : " + out32 + "\n";
  src += "  %acc_out = linalg.fill ins(%zero : f32) outs(%e_out : " + out32 +
         ") -> " + out32 + "\n";
  src += "  %O = linalg.batch_matmul ins(%Cdiv, %Vc2 : " + probs + ", " +
         cache + ") outs(%acc_out : " + out32 + ") -> " + out32 + "\n";
  src += "  %e_outT = tensor.empty() : " + outT + "\n";
  src += "  %OT = linalg.transpose ins(%O : " + out32 +
         ") outs(%e_outT : " + outT + ") permutation = [1, 0, 2]\n";
  src += "  %O2f = tensor.collapse_shape %OT [[0], [1, 2]] : " + outT +
         " into " + proj32 + "\n";
  src += "  %O2 = linalg.generic {indexing_maps = [#id2, #id2], "
         "iterator_types = [\"parallel\", \"parallel\"]} ins(%O2f : " +
         proj32 + ") outs(%e_proj16 : " + proj16 +
         ") {\n  ^bb0(%a: f32, %o: f16):\n    %t = arith.truncf %a : f32 "
         "to f16\n    linalg.yield %t : f16\n  } -> " +
         proj16 + "\n";
  src += "  return %O2, %Kc2, %Vc2 : " + proj16 + ", " + cache + ", " + cache +
         "\n}\n";
  return src;
}

} // namespace mlir::tileir::testing

#endif // TILEDIALECT_UNITTESTS_REFERENCE_ATTENTIONPROGRAM_H
