// linalg.index: a body reads the positions of a loop from a `positions`
// tensor (element n holds n), and the integer arithmetic on them becomes f32
// arithmetic, exact within 2^24 (convert-linalg-to-tile-invalid.mlir has the
// refusals). Checked numerically against the linalg function on the CPU and
// through the GPU lowering's host emulation, and through the optimizer.
// RUN: tile-opt %s --convert-linalg-to-tile | FileCheck %s
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: for f in causal_softmax_pv sliding_window alibi not_masked; do \
// RUN:   tile-run %t.mlir --entry $f --reference %s || exit 1; \
// RUN:   tile-run %t.mlir --entry $f --reference %s --device emulate || exit 1; \
// RUN: done | FileCheck %s --check-prefix=NUM
// NUM-NOT: MISMATCH
// NUM-COUNT-8: PASS
// The optimizer's candidates of the causal softmax(S) @ V (fused into one
// loop nest that reads the positions) pass its check and the emulation;
// the converted program and every candidate (the online softmax's running
// max among them) stay right where an unsafe softmax overflows (logits of
// magnitude 100 and more), on the CPU and through the GPU lowering.
// RUN: tile-opt %s --tile-optimize 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir
// RUN: tile-run %t.mlir --entry causal_softmax_pv --reference %s --init "S=normal(0, 100)" | FileCheck %s --check-prefix=BIG
// RUN: tile-run %t.mlir --entry causal_softmax_pv --reference %s --init "S=normal(0, 100)" --device emulate | FileCheck %s --check-prefix=BIG
// RUN: for c in 0 1 2 3; do \
// RUN:   tile-run %t.opt.mlir --entry causal_softmax_pv_c$c --reference %s --init "S=normal(0, 100)" --device emulate || exit 1; \
// RUN: done | FileCheck %s --check-prefix=BIG4
// BIG-NOT: MISMATCH
// BIG: PASS
// BIG4-NOT: MISMATCH
// BIG4-COUNT-4: PASS
// OPT: remark: extracted {{[1-9][0-9]*}} candidate(s) of @causal_softmax_pv (0 dropped by the check)
// OPT: tile.program @causal_softmax_pv_c0({{.*}}%positions8: !tile.tensor<8xf32, positions>, %positions16: !tile.tensor<16xf32, positions>
// OPT-SAME: tile.emulation = "passed"

#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#m2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d0, d1)>

// Eight new tokens against 16 keys (8 cached): row i sees keys j <= i + 8.
// CHECK-LABEL: tile.program @causal_softmax_pv(
// CHECK-SAME: %positions8: !tile.tensor<8xf32, positions>, %positions16: !tile.tensor<16xf32, positions>
// CHECK: %[[I:.*]] = tile.load %positions8[%{{.*}}] : !tile.tensor<8xf32, positions> -> !tile.tile<[tile_i1], f32>
// CHECK: %[[J:.*]] = tile.load %positions16[%{{.*}}] : !tile.tensor<16xf32, positions> -> !tile.tile<[{{tile_[ir][0-9]}}], f32>
// CHECK: %[[C8:.*]] = tile.constant 8.000000e+00
// CHECK: %[[LIM:.*]] = tile.add %{{.*}}, %[[C8]]
// CHECK: %[[VIS:.*]] = tile.cmp le, %{{.*}}, %[[LIM]]
// CHECK: tile.select %[[VIS]], %{{.*}}, %{{.*}} : !tile.tile<[tile_i0, tile_i1, {{tile_[ir][0-9]}}], i1>
func.func @causal_softmax_pv(%S: tensor<2x8x16xf32> {tile.name = "S"},
                             %V: tensor<2x16x4xf32> {tile.name = "V"})
    -> (tensor<2x8x4xf32> {tile.name = "O"}) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x8x16xf32>
  %Sm = linalg.generic {indexing_maps = [#m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S : tensor<2x8x16xf32>) outs(%e0 : tensor<2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c8 = arith.constant 8 : index
    %lim = arith.addi %i, %c8 : index
    %vis = arith.cmpi ule, %j, %lim : index
    %r = arith.select %vis, %in, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x8x16xf32>
  %mi = tensor.empty() : tensor<2x8xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%mi : tensor<2x8xf32>) -> tensor<2x8xf32>
  %M = linalg.reduce ins(%Sm : tensor<2x8x16xf32>) outs(%mf : tensor<2x8xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %x = arith.maximumf %in, %acc : f32
      linalg.yield %x : f32
    }
  %E = linalg.generic {indexing_maps = [#m3, #m2, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%Sm, %M : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%e0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x8x16xf32>
  %zi = tensor.empty() : tensor<2x8xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%zi : tensor<2x8xf32>) -> tensor<2x8xf32>
  %Z = linalg.reduce ins(%E : tensor<2x8x16xf32>) outs(%zf : tensor<2x8xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %x = arith.addf %in, %acc : f32
      linalg.yield %x : f32
    }
  %P = linalg.generic {indexing_maps = [#m3, #m2, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%E, %Z : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%e0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x8x16xf32>
  %oi = tensor.empty() : tensor<2x8x4xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oi : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %O = linalg.batch_matmul ins(%P, %V : tensor<2x8x16xf32>, tensor<2x16x4xf32>)
      outs(%of : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %O : tensor<2x8x4xf32>
}

// A window of 4 keys ending at the diagonal: i - 4 < j <= i (and of two
// comparisons, i64 arithmetic).
// CHECK-LABEL: tile.program @sliding_window(
// CHECK: tile.cmp gt
// CHECK: tile.cmp le
// CHECK: tile.select
func.func @sliding_window(%S: tensor<12x12xf32> {tile.name = "S"})
    -> (tensor<12x12xf32> {tile.name = "R"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x12xf32>
  %r = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel", "parallel"]}
      ins(%S : tensor<12x12xf32>) outs(%e : tensor<12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c4 = arith.constant 4 : i64
    %lo = arith.subi %i64, %c4 : i64
    %after = arith.cmpi sgt, %j64, %lo : i64
    %upto = arith.cmpi sle, %j64, %i64 : i64
    %vis = arith.andi %after, %upto : i1
    %v = arith.select %vis, %in, %zero : f32
    linalg.yield %v : f32
  } -> tensor<12x12xf32>
  return %r : tensor<12x12xf32>
}

// ALiBi: scores plus slope * (j - i), the distance as a float.
// CHECK-LABEL: tile.program @alibi(
// CHECK: tile.sub
// CHECK: tile.mul
func.func @alibi(%S: tensor<4x8x8xf32> {tile.name = "S"},
                 %slope: tensor<4xf32> {tile.name = "slope"})
    -> (tensor<4x8x8xf32> {tile.name = "R"}) {
  %e = tensor.empty() : tensor<4x8x8xf32>
  %r = linalg.generic {indexing_maps = [#m3, affine_map<(d0, d1, d2) -> (d0)>, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S, %slope : tensor<4x8x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %d32 = arith.index_cast %d : index to i32
    %f = arith.sitofp %d32 : i32 to f32
    %b = arith.mulf %m, %f : f32
    %v = arith.addf %in, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}

// `not` of a comparison: the inverse comparison; a row reduction of the
// masked values (positions read inside a reduction).
// CHECK-LABEL: tile.program @not_masked(
// CHECK: tile.cmp ge
// CHECK: tile.rsum
func.func @not_masked(%S: tensor<6x10xf32> {tile.name = "S"})
    -> (tensor<6xf32> {tile.name = "R"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#m1, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%S : tensor<6x10xf32>) outs(%z : tensor<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %t = arith.constant true
    %before = arith.cmpi slt, %j, %i : index
    %notbefore = arith.xori %before, %t : i1
    %v = arith.select %notbefore, %in, %zero : f32
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
