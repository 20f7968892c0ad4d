// Found by tools/tile-fuzz (seed 400120, through tools/tile-fuzz/device-batch.sh).
// Extraction found no candidate (every combination refused by the verifier),
// and --tile-optimize failed with "no candidate passed the check". The input,
// right by construction and checked, was then kept as the only candidate
// (that path is tested by optimize-extraction-budget.mlir). Since the e-class
// analysis stopped counting a loop whose body ignores its variable as
// binding it (issue 46), extraction finds candidates here: they must pass.
//
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir 2>&1 | FileCheck %s
// CHECK: remark: extracted {{[1-9]}} candidate(s) of @fuzz (0 dropped by the check)
// RUN: tile-run %t.opt.mlir --entry fuzz_c0 --reference %s --precision f32 --tolerance 2e-2 --device emulate | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

func.func @fuzz(
    %a0: tensor<2xf16> {tile.name = "a0", tile.init = "normal(0.0, 0.5)"},
    %a1: tensor<5x2x2xf16> {tile.name = "a1", tile.init = "normal(0.0, 0.5)"},
    %a2: tensor<13xf16> {tile.name = "a2", tile.init = "normal(0.0, 1.0)"}
) -> (
    tensor<1xf16> {tile.name = "r0"},
    tensor<2x2x5xf32> {tile.name = "r1"},
    tensor<f32> {tile.name = "r2"},
    tensor<1xf16> {tile.name = "r3"},
    tensor<13xf16> {tile.name = "a2"}
) {
  %v0 = tensor.extract_slice %a0[0] [1] [1] : tensor<2xf16> to tensor<1xf16>
  %v1_e = tensor.empty() : tensor<2x2x5xf32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a1 : tensor<5x2x2xf16>) outs(%v1_e : tensor<2x2x5xf32>) {
  ^bb0(%in0: f16, %out: f32):
    %x1 = arith.extf %in0 : f16 to f32
    linalg.yield %x1 : f32
  } -> tensor<2x2x5xf32>
  %v2_c = arith.constant 0xFF800000 : f32
  %v2_e = tensor.empty() : tensor<f32>
  %v2_f = linalg.fill ins(%v2_c : f32) outs(%v2_e : tensor<f32>) -> tensor<f32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%v0 : tensor<1xf16>) outs(%v2_f : tensor<f32>) {
  ^bb0(%in0: f16, %out: f32):
    %x1 = arith.extf %in0 : f16 to f32
    %x2 = arith.maxnumf %x1, %out : f32
    linalg.yield %x2 : f32
  } -> tensor<f32>
  %v3_e = tensor.empty() : tensor<1xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v0, %v2 : tensor<1xf16>, tensor<f32>) outs(%v3_e : tensor<1xf32>) {
  ^bb0(%in0: f16, %in1: f32, %out: f32):
    %x1 = arith.extf %in0 : f16 to f32
    %x2 = arith.subf %x1, %in1 : f32
    linalg.yield %x2 : f32
  } -> tensor<1xf32>
  %v4_e = tensor.empty() : tensor<1xf32>
  %v4 = linalg.exp ins(%v3 : tensor<1xf32>) outs(%v4_e : tensor<1xf32>) -> tensor<1xf32>
  %v5_c = arith.constant 0.000000e+00 : f32
  %v5_e = tensor.empty() : tensor<f32>
  %v5_f = linalg.fill ins(%v5_c : f32) outs(%v5_e : tensor<f32>) -> tensor<f32>
  %v5 = linalg.reduce ins(%v4 : tensor<1xf32>) outs(%v5_f : tensor<f32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %r = arith.addf %init, %in : f32
      linalg.yield %r : f32
    }
  %v6_e = tensor.empty() : tensor<1xf16>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v4, %v5 : tensor<1xf32>, tensor<f32>) outs(%v6_e : tensor<1xf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: f16):
    %x1 = arith.divf %in0, %in1 : f32
    %x2 = arith.truncf %x1 : f32 to f16
    linalg.yield %x2 : f16
  } -> tensor<1xf16>
  %v7 = tensor.insert_slice %v6 into %a2[12] [1] [1] : tensor<1xf16> into tensor<13xf16>
  return %v0, %v1, %v2, %v6, %v7 : tensor<1xf16>, tensor<2x2x5xf32>, tensor<f32>, tensor<1xf16>, tensor<13xf16>
}
