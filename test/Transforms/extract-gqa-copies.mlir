// RUN: tile-opt %S/Inputs/gqa-decode-small.mlir --tile-optimize="top-k=2 target=sm_90_h200 check=false" | FileCheck %s

// Grouped-query decode attention groups its queries with expand_shape and
// collapse_shape, which convert to copies between tensors of one row-major
// layout. The lowering gives such tensors one buffer (copy elision), so at
// the top level a copy is no kernel to pass 1 either. Counted as kernels,
// they made a loop over the group's query rows, one row at a time, around
// the attention the best structure (fewer kernels), and its 4 rows never
// shared a tile. Now the fused candidate is one loop over the keys (running
// maximum, sum and P.V) in a loop over the KV heads, all 4 rows of the group
// in its tiles.
// CHECK-LABEL: tile.program @gqa_decode_c1
// CHECK-SAME: tile.kernels = 2
// CHECK-NOT: step %c1 body
// CHECK: tile.loop %i2 = 0 to 256
// CHECK-NOT: tile.loop %i2
// CHECK: tile.loop %s0 = 0 to 8 step %c4
// CHECK-NOT: to 4 step %c1
// CHECK: tile.yield
