// RUN: tile-opt %S/Inputs/causal-prefill-8x1024.mlir --tile-optimize="top-k=2 target=sm_90_h200 check=false" | FileCheck %s
// RUN: tile-opt %S/Inputs/causal-prefill-8x1024.mlir --convert-linalg-to-tile | tile-opt --tile-extract="top-k=1 check=false target=sm_90_h200" | FileCheck %s --check-prefix=ONE

// The top-k keeps a candidate with the fewest loops (among those with the
// fewest kernels): pass 2's costs under the H200's constants rank the safe
// softmax's one-pass online loop (scores, running max, sum and P.V in one
// loop over the keys) 4th behind two-pass forms, which the H200 ran 1.6-2.7x
// slower. Kept, it is estimated as fast as they are (34.3 us, each an online
// warp loop over batch loops) and faster than the input, and equal estimates
// rank fewer loops first: it is c0, one loop over the keys.
// CHECK-LABEL: tile.program @attn_causal_llama2_7b_p2k_c0
// CHECK-NOT: tile.input
// CHECK: tile.loop %r0
// CHECK: tile.loop %i2
// CHECK-NOT: tile.loop %i2
// CHECK: tile.loop %i1
// CHECK-LABEL: tile.program @attn_causal_llama2_7b_p2k_c1
// CHECK: tile.loop %i2
// CHECK: tile.loop %i2
// CHECK-NOT: tile.program

// With one candidate nothing is added: extraction's best, two passes over
// the keys.
// ONE-LABEL: tile.program @attn_causal_llama2_7b_p2k_c0
// ONE: tile.loop %r0
// ONE: tile.loop %i2
// ONE: tile.loop %i2
// ONE: tile.loop %i1
