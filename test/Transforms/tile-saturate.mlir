// The program is left unchanged; the JSON report describes the saturated
// e-graph. (Pass statistics are declared too, but Debian's LLVM is built
// without statistics, so --mlir-pass-statistics prints none.)
// RUN: tile-opt %s --tile-saturate | FileCheck %s
// RUN: tile-opt %s --tile-saturate="report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// start => goal (egg): the naive vanilla block (test/Examples/vanilla.mlir)
// saturates, with the default limits (8 iterations), into an e-graph that
// represents FlashAttention (Trinity Figure 4(d)) and the fully fused
// program of Figure 4(f), scaled down and at LLaMA size.
// RUN: tile-opt %S/../Examples/vanilla.mlir --tile-saturate="goal=%S/../Examples/goals/vanilla-fig4d.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GOAL4D
// RUN: tile-opt %S/../Examples/vanilla.mlir --tile-saturate="goal=%S/../Examples/goals/vanilla-fig4f.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GOAL4F
// RUN: tile-opt %S/../../examples/vanilla.mlir --tile-saturate="goal=%S/../../examples/goals/vanilla-fig4d.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GOAL4D
// RUN: tile-opt %S/../../examples/vanilla.mlir --tile-saturate="goal=%S/../../examples/goals/vanilla-fig4f.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GOAL4F
// GOAL4D: remark: goal @vanilla_fig4d is represented in the saturated e-graph of @vanilla
// From the full-size linalg vanilla: P.V factored as (E @ cast(Vc)) / S, which
// needs loop-whole to drop P.V's loop over the head dimension.
// RUN: tile-opt %S/../../bench/workloads/llama/vanilla.mlir --convert-linalg-to-tile --tile-saturate="goal=%S/Inputs/vanilla-linalg-factored.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FACTORED
// FACTORED: remark: goal @vanilla_factored is represented in the saturated e-graph of @vanilla
// GOAL4F: remark: goal @vanilla_fig4f is represented in the saturated e-graph of @vanilla

// Two iterations are too few for Figure 4(f): the error names the first goal
// term missing from the e-graph, and the pass fails.
// RUN: not tile-opt %S/../Examples/vanilla.mlir --tile-saturate="iterations=2 goal=%S/../Examples/goals/vanilla-fig4f.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: goal @vanilla_fig4f is not represented in the saturated e-graph of @vanilla
// MISSING: note: first goal term not in the e-graph: {{.*}} = tile.

// Without the fusion family nothing fuses: not even Figure 4(d).
// RUN: not tile-opt %S/../Examples/vanilla.mlir --tile-saturate="disable=Fusion goal=%S/../Examples/goals/vanilla-fig4d.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFUSION
// NOFUSION: error: goal @vanilla_fig4d is not represented

// Rules loaded at run time (rules=PATH, PDL as mlir-pdll -x=mlir writes it).
// RUN: tile-opt %s --tile-saturate="rules=%S/Inputs/saturate-extra-rule.pdl.mlir only=double-to-add goal=%S/Inputs/saturate-double.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: remark: goal @double is represented
// RUN: not tile-opt %s --tile-saturate="only=comm-mul goal=%S/Inputs/saturate-double.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOEXTRA
// NOEXTRA: error: goal @double is not represented

// Bad input is diagnosed.
// RUN: not tile-opt %s --tile-saturate="only=no-such-rule" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown rule or rule family 'no-such-rule'
// RUN: not tile-opt %s --tile-saturate="rules=%S/Inputs/saturate-bad-rule.pdl.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADRULE
// BADRULE: error: unknown native constraint 'NoSuchGuard'
// RUN: not tile-opt %s --tile-saturate="goal=%t.does-not-exist" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOGOAL
// NOGOAL: error: cannot read the goal file

// A small e-graph can be written as Graphviz.
// RUN: tile-opt %s --tile-saturate="iterations=1 dot=%t.dot" -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// DOT: digraph
// DOT: subgraph cluster_
// DOT: tile.mul

// CHECK-LABEL: tile.program @double
// CHECK: tile.mul
// CHECK-NOT: tile.add

// REPORT: "eclasses":
// REPORT: "enodes":
// REPORT: "iterations": 2
// REPORT: "log10_programs": 0.301
// REPORT: "program": "double"
// REPORT: "programs": 2
// REPORT: "rules": [
// REPORT: "applied":
// REPORT: "name": "seq-comm"
// REPORT: "seconds":
// REPORT: "stop_reason": "saturated"

tile.program @double(%A: !tile.tensor<4x8xf32, input>,
                     %B: !tile.tensor<4x8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %two = tile.constant 2.0 : !tile.tile<[4, 8], f32>
  %m = tile.mul %a, %two : !tile.tile<[4, 8], f32>
  %st = tile.store %m, %B[%f, %f] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %st
}
