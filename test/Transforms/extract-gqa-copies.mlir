// RUN: tile-opt %S/Inputs/gqa-decode-small.mlir --tile-optimize="top-k=3 target=sm_90_h200 check=false" | FileCheck %s

// Grouped-query decode attention groups its queries with expand_shape and
// collapse_shape, which convert to copies between tensors of one row-major
// layout. The lowering gives such tensors one buffer (copy elision), so at
// the top level a copy is no kernel to pass 1 either. Counted as kernels,
// they made a loop over the group's query rows, one row at a time, around
// the attention the best structure (fewer kernels), and its 4 rows never
// shared a tile. Now the fused candidates are one loop over the keys
// (running maximum, sum and P.V), none a row at a time: inside a loop over
// the KV heads with the group's 4 rows in the tile, or inside a loop over
// the rows (a symbolic tile) with both heads in it (equal estimates).
// At this size (2 KV heads, 256 keys: 2 blocks) the converted input is
// estimated faster than the one-pass loop, whose few warps wait on their
// loads, and comes first.
// CHECK-LABEL: tile.program @gqa_decode_c0
// CHECK-SAME: tile.input
// CHECK-LABEL: tile.program @gqa_decode_c1
// CHECK-SAME: tile.kernels = 2
// CHECK-NOT: to 4 step %c1
// CHECK: tile.loop %i2 = 0 to 256
// CHECK-NOT: tile.loop %i2
// CHECK-NOT: to 4 step %c1
// CHECK-LABEL: tile.program @gqa_decode_c2
// CHECK-SAME: tile.kernels = 2
// CHECK-NOT: to 4 step %c1
// CHECK: tile.loop %i2 = 0 to 256
// CHECK-NOT: tile.loop %i2
// CHECK-NOT: to 4 step %c1
// CHECK: tile.yield
