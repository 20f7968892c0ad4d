// Every long phase of --tile-optimize shows its progress when asked, and
// the numerical check has a time budget: a check that cannot finish within
// it is an error that says so and how to proceed, not a run without end.

// RUN: tile-opt %s --tile-optimize="progress" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROGRESS
// PROGRESS: tile-extract @softmax_matmul: round 1: saturating
// PROGRESS: tile-extract @softmax_matmul: round 1: iteration 1: {{[0-9]+}} e-nodes
// PROGRESS: tile-extract @softmax_matmul: round 1: extracting
// PROGRESS: tile-extract @softmax_matmul: round 1: {{[0-9]+}} candidate(s)
// PROGRESS: tile-extract @softmax_matmul: checking {{[0-9]+}} candidate(s) against the linalg reference (budget 120 s)
// PROGRESS: tile-extract @softmax_matmul: reference run in
// PROGRESS: tile-extract @softmax_matmul: checked softmax_matmul_c{{[0-9]}}: passed
// PROGRESS: remark: extracted

// Without progress, nothing of it.
// RUN: tile-opt %s --tile-optimize -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: tile-extract @

// A budget of 0 s runs out at the reference's first op.
// RUN: not tile-opt %s --tile-optimize="check-timeout=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: error: cannot check the candidates of @softmax_matmul: the check's time budget ran out while running the linalg reference (check-timeout=0 s; raise it, or check=false emits unchecked candidates)

// Tensors the host cannot hold are refused before saturation, with the
// size; so does tile-run.
// RUN: not tile-opt %S/Inputs/huge-matmul.mlir --tile-optimize -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: cannot check the candidates of @huge: the check needs {{[0-9.]+}} GiB of host memory, more than {{the limit of|this machine's}} {{[0-9.]+}} {{G|M}}iB; check=false emits unchecked candidates
// RUN: not tile-run %S/Inputs/huge-matmul.mlir 2>&1 | FileCheck %s --check-prefix=HUGE-TOOL
// HUGE-TOOL: error: cannot run on the host: it needs 521.5 GiB of host memory, more than {{the limit of|this machine's}}
// RUN: not tile-run %S/Inputs/matmul-512.mlir --host-memory-limit-mb=1 2>&1 | FileCheck %s --check-prefix=LIMIT
// A limit above the machine's memory does not let a program past it (the
// allocator aborted): 2^40 doubles are refused whatever the limit.
// RUN: not tile-run %S/Inputs/huge-exp.mlir --host-memory-limit-mb=1000000000 2>&1 | FileCheck %s --check-prefix=MACHINE
// MACHINE: error: cannot run on the host: it needs {{.*}} of host memory, more than this machine's
// LIMIT: error: cannot run on the host: it needs {{[0-9.]+}} MiB of host memory, more than the limit of 1.0 MiB

func.func @softmax_matmul(%X: tensor<8x32xf32> {tile.name = "X"}, %W: tensor<32x16xf32> {tile.name = "W"}) -> (tensor<8x16xf32> {tile.name = "Y"}) {
  %e = tensor.empty() : tensor<8x32xf32>
  %s = linalg.softmax dimension(1) ins(%X : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%s, %W : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
