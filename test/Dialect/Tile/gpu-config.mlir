// RUN: tile-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tile-opt %s --split-input-file --verify-diagnostics | tile-opt --split-input-file --verify-diagnostics | FileCheck %s

// #tile.gpu_config prints the fields that are set, knobs in declaration
// order (GPUConfigKnobs.def), then the tile sizes; integers of any width
// are stored as i64.

// CHECK-LABEL: func.func @set
// CHECK-SAME: tile.gpu_config = #tile.gpu_config<min_blocks = 2048, split_k = 8, mma = true, tile_sizes = {tile_i0 = 16, tile_r0 = 32}>
func.func @set() attributes {tile.gpu_config = #tile.gpu_config<tile_sizes = {tile_r0 = 32, tile_i0 = 16}, mma = true, split_k = 8 : i32, min_blocks = 2048>} {
  return
}

// -----

// CHECK-LABEL: func.func @empty
// CHECK-SAME: tile.gpu_config = #tile.gpu_config<>
func.func @empty() attributes {tile.gpu_config = #tile.gpu_config<>} {
  return
}

// -----

// expected-error @+1 {{gpu_config has no field 'splitk'; the fields are max_tile_size, min_blocks}}
func.func @unknown() attributes {tile.gpu_config = #tile.gpu_config<splitk = 8>} {
  return
}

// -----

// expected-error @+1 {{gpu_config field 'mma' must be true or false}}
func.func @bool() attributes {tile.gpu_config = #tile.gpu_config<mma = 1>} {
  return
}

// -----

// expected-error @+1 {{gpu_config field 'k_slices' must be an integer}}
func.func @int() attributes {tile.gpu_config = #tile.gpu_config<k_slices = true>} {
  return
}

// -----

// expected-error @+1 {{gpu_config field 'block_size' must be at least 1 and at most 1024, got 2048}}
func.func @range() attributes {tile.gpu_config = #tile.gpu_config<block_size = 2048>} {
  return
}

// -----

// expected-error @+1 {{gpu_config tile size 'tile_i0' must be a positive integer}}
func.func @size() attributes {tile.gpu_config = #tile.gpu_config<tile_sizes = {tile_i0 = 0}>} {
  return
}

// -----

// expected-error @+1 {{gpu_config field 'mma' is set twice}}
func.func @twice() attributes {tile.gpu_config = #tile.gpu_config<mma = true, mma = false>} {
  return
}
