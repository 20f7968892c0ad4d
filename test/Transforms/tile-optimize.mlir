// RUN: tile-opt %S/../Workloads/vanilla.mlir --tile-optimize="top-k=2 report=%t.json" 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: not tile-opt %S/../Workloads/vanilla.mlir --tile-optimize="target=sm_00" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTARGET
// An f64 program's candidates skip the emulation (the GPU lowering takes
// no f64): they were all dropped as failing it ("no candidate passed").
// RUN: tile-opt %S/Inputs/exp-f64.mlir --tile-optimize="report=%t-f64.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=F64
// F64: remark: extracted {{[0-9]+}} candidate(s) of @exp (0 dropped by the check)
// RUN: FileCheck %s --check-prefix=F64REPORT < %t-f64.json
// F64REPORT: "emulation": "skipped"
// F64REPORT: "emulation_detail": "f64 tensors are not lowered to GPU kernels"

// linalg in (the scaled-down vanilla block), checked tile candidates out.
// The converter's naive program has one loop nest per linalg op; the best
// candidate has fewer kernels and passes the check.
// CHECK: remark: extracted 2 candidate(s) of @vanilla (0 dropped by the check)
// CHECK-LABEL: tile.program @vanilla_c0
// CHECK-SAME: tile.check_error
// CHECK-SAME: tile.estimated_us
// CHECK-SAME: tile.kernels = [[K:[0-9]+]]
// CHECK-LABEL: tile.program @vanilla_c1
// CHECK-NOT: func.func

// REPORT: "candidates": [
// REPORT: "check": "passed"
// REPORT: "estimated_us":
// REPORT: "dropped": 0

// BADTARGET: error: --tile-extract: unknown target 'sm_00'
