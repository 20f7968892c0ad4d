// --tile-optimize="tuning=CACHE": a program the cache has an entry for (by
// the hash of the converted program, on the target's chip) is not
// saturated; it comes out as the measured winner with the entry's
// configuration as its tile.gpu_config. Without an entry, a remark says so
// and the program is optimized as usual. (The entry whose winner is an
// optimizer's candidate: test/Tools/tile-tune/measure.test.)
// RUN: echo '{"entries": []}' > %t.empty.json
// A cache entry whose candidate_program takes other tensors (8 x 8 for a
// 64 x 32 program) is refused: it was installed unchecked.
// RUN: not tile-opt %S/Inputs/exp-64x32.mlir --tile-optimize="tuning=%S/Inputs/exp-wrong-candidate.tuning.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: error: tuning: {{.*}}: entry for @exp ({{.*}}): candidate @exp_c7: the entry's candidate_program does not take the program's inputs and outputs (tensor 'A' is !tile.tensor<8x8xf32, input>, not !tile.tensor<64x32xf32, input>); re-tune, or remove the entry
// RUN: tile-opt %s --tile-optimize="tuning=%t.empty.json top-k=1" -o %t.plain.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: remark: tuning: no entry for @gemv (0x{{[0-9a-f]+}}) in {{.*}}empty.json
// NONE: remark: extracted
// RUN: tile-opt %s --tile-optimize="tuning=%t.empty.json top-k=1" -o /dev/null 2>&1 \
// RUN:   | %python %S/Inputs/tuning-entry.py "split_k = 2, thread_elements = 8" > %t.cache.json
// RUN: tile-opt %s --tile-optimize="tuning=%t.cache.json" 2>&1 | FileCheck %s
// CHECK: remark: tuning: {{.*}}cache.json: entry for @gemv (0x{{[0-9a-f]+}}), variant hand, measured 1.5 us (measured winner; not saturated)
// CHECK-NOT: remark: extracted
// CHECK: tile.program @gemv({{.*}}) attributes {tile.gpu_config = #tile.gpu_config<thread_elements = 8, split_k = 2>
// Another chip's entry does not apply.
// RUN: tile-opt %s --tile-optimize="tuning=%t.cache.json target=sm_80 top-k=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: remark: tuning: no entry for @gemv (0x{{[0-9a-f]+}}) in {{.*}}cache.json for sm_80 (only for sm_90)
// A cache that is not one is an error.
// RUN: echo 'nonsense' > %t.bad.json
// RUN: not tile-opt %s --tile-optimize="tuning=%t.bad.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tuning cache '{{.*}}bad.json' is not JSON

func.func @gemv(%x: tensor<1x64xf16> {tile.name = "x", tile.init = "normal(0.0, 1.0)"},
                %w: tensor<64x32xf16> {tile.name = "w", tile.init = "normal(0.0, 0.1)"})
    -> (tensor<1x32xf32> {tile.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf16>, tensor<64x32xf16>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}
