// RUN: tile-opt %s --tile-program-stats -o /dev/null 2>&1 | FileCheck %s
// RUN: tile-opt %s --tile-program-stats="output=%t.txt" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.txt
// RUN: not tile-opt %s --tile-program-stats="output=%t.missing/dir/x.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: echo "module {}" | tile-opt --tile-program-stats -o /dev/null 2>&1 | count 0

// The pass leaves the IR unchanged.
// IR: tile.program @two_nests
// ERR: error: cannot open '{{.*}}x.txt'

// CHECK-LABEL: tile.program @two_nests
// CHECK-NEXT:   tensors: 3 (input 1, output 1, inout 0, intermediate 1)
// CHECK-NEXT:   top-level loop nests: 2 of 3 top-level statements
// CHECK-NEXT:   loops: 2 over 1 loop variables
// CHECK-NEXT:     i in [0, 64) step tile_i
// CHECK-NEXT:   tile sizes: tile_i
// CHECK-NEXT:   ops: 14 in the DAG, 23 in the program tree
// CHECK:          tile.load: 2
// CHECK:          tile.loop: 2
// CHECK:          tile.seq: 2
tile.program @two_nests(%A: !tile.tensor<64xf32, input>,
                        %T: !tile.tensor<64xf32, intermediate>,
                        %B: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %T[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %ti body %s1
  %x = tile.load %T[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %y = tile.sqr %x : !tile.tile<[tile_i], f32>
  %s2 = tile.store %y, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l2 = tile.loop %i = 0 to 64 step %ti body %s2
  %n = tile.nop
  %q2 = tile.seq %l2, %n
  %q1 = tile.seq %l1, %q2
  tile.yield %q1
}

// A program with no loops: no kernels, no tile sizes.
// CHECK-LABEL: tile.program @empty
// CHECK-NEXT:   tensors: 0 (input 0, output 0, inout 0, intermediate 0)
// CHECK-NEXT:   top-level loop nests: 0 of 1 top-level statements
// CHECK-NEXT:   loops: 0 over 0 loop variables
// CHECK-NEXT:   tile sizes: none
// CHECK-NEXT:   ops: 1 in the DAG, 1 in the program tree
tile.program @empty() {
  %n = tile.nop
  tile.yield %n
}
