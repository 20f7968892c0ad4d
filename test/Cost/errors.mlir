// RUN: not tile-opt %s --tile-estimate-cost="target=sm_100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tile-opt %s --tile-estimate-cost="target=%t.missing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not tile-opt %s --tile-estimate-cost="sizes=tile_i" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tile-opt %s --tile-estimate-cost="report=%t.missing/dir/r.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// An unknown target name lists the known ones.
// TARGET: error: unknown target 'sm_100'; known targets: gfx942 (AMD Instinct MI300X), sm_80 (NVIDIA A100 SXM4 80GB), sm_89 (NVIDIA GeForce RTX 4090), sm_90 (NVIDIA H100 SXM5 80GB), sm_90_h200 (NVIDIA H200 SXM 141GB), or a path to a .json target description
// FILE: error: cannot read target file '{{.*}}missing.json'
// MALFORMED: error: malformed tile size 'tile_i' (expected name=positive integer)
// REPORT: error: cannot write '{{.*}}r.json'

tile.program @exp(%A: !tile.tensor<96xf32, input>,
                  %B: !tile.tensor<96xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<96xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<96xf32, output>
  %l = tile.loop %i = 0 to 96 step %ti body %s
  tile.yield %l
}
