// A chain of insert_slices into one argument (a KV-cache write of several
// tokens: speculative decoding's draft tokens) updates the argument in
// place, each insert a store into the inout tensor, when nothing reads an
// intermediate value of the chain after the next insert. Before, only the
// first insert was in place and the rest went into a copy of the whole
// cache, a new output: the caller's buffer was left half-updated.
// RUN: tile-opt %s --convert-linalg-to-tile | FileCheck %s
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --entry chain --reference %s --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --entry chain --reference %s --device emulate | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --entry chain_read_between --reference %s --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --entry chain_read_between --reference %s --device emulate | FileCheck %s --check-prefix=CMP
// CMP: PASS: 2 outputs

// CHECK-LABEL: tile.program @chain(
// CHECK-SAME: %Kc: !tile.tensor<2x24x16xf16, inout>, %S: !tile.tensor<2x1x24xf32, output>)
// CHECK-SAME: tile.results = ["S", "Kc"]
// CHECK-DAG: %[[T20:.*]] = tile.const_tile 20, 1
// CHECK-DAG: %[[T21:.*]] = tile.const_tile 21, 1
// CHECK-DAG: tile.store %{{.*}}, %Kc[%{{.*}}, %[[T20]], %{{.*}}]
// CHECK-DAG: tile.store %{{.*}}, %Kc[%{{.*}}, %[[T21]], %{{.*}}]

// Not in place where the first update's value is read after the second:
// the second writes a copy (a new output), the scores read the first.
// CHECK-LABEL: tile.program @chain_read_between(
// CHECK-SAME: %Kc: !tile.tensor<2x24x16xf16, inout>, %Kc_: !tile.tensor<2x24x16xf16, output>
// CHECK-SAME: tile.results = ["S", "Kc_"]

#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @chain(
    %k0: tensor<2x1x16xf16> {tile.name = "k0", tile.init = "normal(0.0, 1.0)"},
    %k1: tensor<2x1x16xf16> {tile.name = "k1", tile.init = "normal(0.0, 1.0)"},
    %q: tensor<2x1x16xf16> {tile.name = "q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x24x16xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<2x1x24xf32> {tile.name = "S"}, tensor<2x24x16xf16> {tile.name = "Kc"}) {
  %z = arith.constant 0.0 : f32
  %K1 = tensor.insert_slice %k0 into %Kc[0, 20, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %K2 = tensor.insert_slice %k1 into %K1[0, 21, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %eS = tensor.empty() : tensor<2x1x24xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%q, %K2 : tensor<2x1x16xf16>, tensor<2x24x16xf16>) outs(%fS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  return %S, %K2 : tensor<2x1x24xf32>, tensor<2x24x16xf16>
}
func.func @chain_read_between(
    %k0: tensor<2x1x16xf16> {tile.name = "k0", tile.init = "normal(0.0, 1.0)"},
    %k1: tensor<2x1x16xf16> {tile.name = "k1", tile.init = "normal(0.0, 1.0)"},
    %q: tensor<2x1x16xf16> {tile.name = "q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x24x16xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<2x1x24xf32> {tile.name = "S"}, tensor<2x24x16xf16> {tile.name = "Kc"}) {
  %z = arith.constant 0.0 : f32
  %K1 = tensor.insert_slice %k0 into %Kc[0, 20, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %K2 = tensor.insert_slice %k1 into %K1[0, 21, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %eS = tensor.empty() : tensor<2x1x24xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%q, %K1 : tensor<2x1x16xf16>, tensor<2x24x16xf16>) outs(%fS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  return %S, %K2 : tensor<2x1x24xf32>, tensor<2x24x16xf16>
}
