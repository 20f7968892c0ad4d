// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --verify-diagnostics
// RUN: not tile-opt %s --split-input-file --tile-lower-to-gpu="config={tile_sizes = {tile_i = 0}}" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tile-opt %s --split-input-file --tile-lower-to-gpu="config={shared_memory = 65536, max_tile_size = 0}" 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not tile-opt %s --split-input-file --tile-lower-to-gpu="config={block_size = 2048, max_tile_size = 0}" 2>&1 | FileCheck %s --check-prefix=BLOCK

// An unbound symbolic tile size is an error, not a guess.
tile.program @unbound(%A: !tile.tensor<64xf32, input>,
                      %B: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  // expected-error @below {{tile size 'tile_i' has no value: bind it with the configuration's tile_sizes = {tile_i = N}, the program's tile.tile_sizes attribute or max_tile_size}}
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %s = tile.store %a, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// expected-error @below {{tensor 'A' of type 'f64' cannot be lowered to GPU kernels (f16, bf16, f32 and i1 are supported)}}
tile.program @double(%A: !tile.tensor<8xf64, input>,
                     %B: !tile.tensor<8xf64, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<8xf64, input> -> !tile.tile<[8], f64>
  %s = tile.store %a, %B[%full] : !tile.tile<[8], f64>, !tile.tensor<8xf64, output>
  tile.yield %s
}

// -----

// A size that does not divide its loop is reported by the plan builder.
tile.program @nondividing(%A: !tile.tensor<10xf32, input>,
                          %B: !tile.tensor<10xf32, output>) attributes {tile.tile_sizes = {tile_i = 4}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<10xf32, input> -> !tile.tile<[tile_i], f32>
  %s = tile.store %a, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<10xf32, output>
  // expected-error @below {{step 4 does not divide the range [0, 10) (tile size 'tile_i')}}
  %l = tile.loop %i = 0 to 10 step %ti body %s
  tile.yield %l
}

// OPTION: gpu_config tile size 'tile_i' must be a positive integer
// SHARED: gpu_config field 'shared_memory' must be at least 0 and at most 49152, got 65536
// BLOCK: gpu_config field 'block_size' must be at least 1 and at most 1024, got 2048

// -----

func.func @taken_kernels() {
  return
}
// expected-error @below {{'tile.program' op cannot be lowered: the module already defines 'taken_kernels', the name of its kernels' gpu.module}}
tile.program @taken(%A: !tile.tensor<8xf32, input>, %B: !tile.tensor<8xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %s = tile.store %a, %B[%full] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  tile.yield %s
}
