// `budget=` bounds the whole of --tile-optimize: each phase's own limit is
// capped by what is left, a refinement round needs half the share, and a
// remark names what the budget lowered. With check=false nothing depends on
// how fast this machine is: the limits only decide how many candidates there
// are.
//
// RUN: tile-opt %S/../Workloads/vanilla.mlir \
// RUN:   --tile-optimize="budget=1 check=false" -o %t.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIRES
// FIRES: remark: the budget of @vanilla (1.0 s): saturation limited to {{[0-9.]+}} s, extraction limited to {{[0-9.]+}} s
// FIRES: remark: extracted {{[0-9]+}} candidate(s) of @vanilla
// RUN: FileCheck %s --check-prefix=OUT < %t.mlir
// OUT: tile.program @vanilla_c0
//
// Without a budget (the default) the phases keep their own limits.
// RUN: tile-opt %S/../Workloads/vanilla.mlir \
// RUN:   --tile-optimize="check=false iterations=2 rounds=1" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE-NOT: the budget of
// NONE: remark: extracted {{[0-9]+}} candidate(s) of @vanilla
//
// A budget too small for the check keeps the input and says which limit to
// raise; the pass fails, as with check-timeout.
// RUN: not tile-opt %S/../Workloads/vanilla.mlir \
// RUN:   --tile-optimize="budget=0.001" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL
// SMALL: error: cannot check the candidates of @vanilla: {{.*}}(the budget left the check 0.0 s; raise budget=); the input program is kept
//
// The phases are timed by --mlir-timing.
// RUN: tile-opt %S/../Workloads/vanilla.mlir \
// RUN:   --tile-optimize="budget=2 check=false" --mlir-timing -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMING
// TIMING: TileOptimize
// TIMING: 'tile.program' Pipeline
// TIMING-NEXT: tile-optimize: saturate
// TIMING-NEXT: tile-optimize: extract
