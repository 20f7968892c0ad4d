// What ships is checked: every candidate --tile-optimize keeps has passed
// the interpreter's check and then the host emulation of its kernels, as
// the default GPU lowering emits them, on the same inputs; the IR and the
// report say so.
// RUN: tile-opt %s --tile-optimize="report=%t.json" 2>&1 | FileCheck %s
// CHECK: remark: extracted {{[1-9]}} candidate(s) of @softmax_matmul (0 dropped by the check)
// CHECK: tile.program @softmax_matmul_c0
// CHECK-SAME: tile.emulation = "passed"
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "emulation": "passed"
// REPORT: "dropped_by_emulation": 0

// Kernels whose outputs differ are dropped with the reason. The kernels
// compute in f32, so no candidate's kernels match the fp64 outputs exactly:
// with a tolerance of 0 every candidate is dropped by the emulation.
// RUN: not tile-opt %s --tile-optimize="emulate-tolerance=0 report=%t.strict.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: remark: candidate softmax_matmul_c0 dropped: its lowered kernels fail in the host emulation: the emulated kernels differ: Y: shape=8x16 max_abs_err={{.*}} MISMATCH
// STRICT: error: no candidate passed the check
// RUN: FileCheck %s --check-prefix=STRICT-REPORT < %t.strict.json
// STRICT-REPORT: "check": "passed"
// STRICT-REPORT: "emulation": "failed"
// STRICT-REPORT: "emulation_detail": "the emulated kernels differ: Y: shape=8x16

// emulate=false leaves the kernels unchecked, and says nothing of them.
// RUN: tile-opt %s --tile-optimize="emulate=false" 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: tile.emulation

// A budget below what the emulation is expected to take skips it, and the
// IR says why.
// RUN: tile-opt %s --tile-optimize="emulate-budget=1e-9" 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: tile.emulation = "skipped: expected to take {{.*}} more than emulate-budget=0 s"

func.func @softmax_matmul(%X: tensor<8x32xf32> {tile.name = "X"}, %W: tensor<32x16xf32> {tile.name = "W"}) -> (tensor<8x16xf32> {tile.name = "Y"}) {
  %e = tensor.empty() : tensor<8x32xf32>
  %s = linalg.softmax dimension(1) ins(%X : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%s, %W : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
