// RUN: tile-opt %s --tile-estimate-cost -verify-diagnostics | FileCheck %s --check-prefix=IR
// RUN: tile-opt %s --tile-estimate-cost="target=sm_90 sizes=tile_i=64 kernels=true report=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: tile-opt %s --tile-estimate-cost="target=mi300x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD

// The pass leaves the IR unchanged.
// IR: tile.program @two_kernels
// IR: tile.program @fused

// T = exp(A), then B = T * T: T goes through HBM between the two kernels.
// expected-remark @below {{estimated 2.0 us on sm_90 (NVIDIA H100 SXM5 80GB): 2 kernels, 4.1 kB HBM traffic, limited by launch; tile sizes tile_i=128}}
tile.program @two_kernels(%A: !tile.tensor<256xf32, input>,
                          %T: !tile.tensor<256xf32, intermediate>,
                          %B: !tile.tensor<256xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<256xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %T[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, intermediate>
  %x = tile.load %T[%t] : !tile.tensor<256xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %m = tile.mul %x, %x : !tile.tile<[tile_i], f32>
  %s2 = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, output>
  %l1 = tile.loop %i = 0 to 256 step %ti body %s1
  %l2 = tile.loop %i = 0 to 256 step %ti body %s2
  %root = tile.seq %l1, %l2
  tile.yield %root
}

// The same in one kernel: T stays on chip.
// expected-remark @below {{estimated 1.0 us on sm_90 (NVIDIA H100 SXM5 80GB): 1 kernels, 2.0 kB HBM traffic, limited by launch; tile sizes tile_i=128}}
tile.program @fused(%A: !tile.tensor<256xf32, input>,
                    %T: !tile.tensor<256xf32, intermediate>,
                    %B: !tile.tensor<256xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<256xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %T[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, intermediate>
  %x = tile.load %T[%t] : !tile.tensor<256xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %m = tile.mul %x, %x : !tile.tile<[tile_i], f32>
  %s2 = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, output>
  %body = tile.seq %s1, %s2
  %l = tile.loop %i = 0 to 256 step %ti body %body
  tile.yield %l
}

// KERNELS: remark: estimated 2.0 us on sm_90 (NVIDIA H100 SXM5 80GB): 2 kernels, 4.1 kB HBM traffic, limited by launch; tile sizes tile_i=64
// KERNELS: remark: kernel 0 (loop i): grid 4 (i), 1 wave(s) at 3% fill; HBM 1.0 kB read (0.0 B from L2), 1.0 kB written, 0.0 B on chip; 0.0 FLOP matrix, 1.0 kFLOP vector; 1.01 us, limited by launch
// KERNELS: remark: kernel 1 (loop i): grid 4 (i), 1 wave(s) at 3% fill; HBM 1.0 kB read (0.0 B from L2), 1.0 kB written, 0.0 B on chip; 0.0 FLOP matrix, 256.0 FLOP vector; 1.01 us, limited by launch
// KERNELS: remark: estimated 1.0 us on sm_90 {{.*}} 1 kernels, 2.0 kB HBM traffic
// KERNELS: remark: kernel 0 (loop i): grid 4 (i), {{.*}} HBM 1.0 kB read (0.0 B from L2), 1.0 kB written, 2.0 kB on chip; 0.0 FLOP matrix, 1.3 kFLOP vector;

// JSON: "device": "NVIDIA H100 SXM5 80GB",
// JSON: "grid_size": 4,
// JSON: "hbm_read_bytes": 1024,
// JSON: "hbm_write_bytes": 1024,
// JSON: "limiter": "launch",
// JSON: "vector_flops": 1024
// JSON: "program": "two_kernels",
// JSON: "on_chip_bytes": 2048,
// JSON: "program": "fused",
// JSON: "target": "sm_90"

// AMD: remark: estimated {{.*}} us on gfx942 (AMD Instinct MI300X): 2 kernels, {{.*}} tile sizes tile_i=64
// AMD: remark: estimated {{.*}} us on gfx942 (AMD Instinct MI300X): 1 kernels, {{.*}} tile sizes tile_i=64
