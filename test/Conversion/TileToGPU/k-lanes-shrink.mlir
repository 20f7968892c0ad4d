// Tiles the lowering sizes itself: 64 outputs with 4 lanes each are short
// of 128 bytes of a row per step only because the block holds no more, so
// the tile halves (reading x, one row, twice as often): 32 outputs, 8
// lanes, twice the blocks. Where `reduce_lanes` allows no more than 4, the
// tile stays.
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 4, min_blocks = 1024, max_tile_size = 64}" --canonicalize --cse | FileCheck %s --check-prefix=SHRINK
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 4, min_blocks = 1024, max_tile_size = 64, reduce_lanes = 4}" --canonicalize --cse | FileCheck %s --check-prefix=KEEP
// RUN: tile-run %s --device emulate --gpu-config="split_k = 4, min_blocks = 1024, max_tile_size = 64" | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

// SHRINK-LABEL: func.func @shrink_t
// SHRINK: gpu.launch_func @shrink_t_kernels::@shrink_t_k0 blocks in (%c128, %c1, %c1) threads in (%c256, %c1, %c1)
// SHRINK: gpu.func @shrink_t_k0
// SHRINK: arith.remui %{{.*}}, %c8 : index
// KEEP-LABEL: func.func @shrink_t
// KEEP: gpu.launch_func @shrink_t_kernels::@shrink_t_k0 blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1)
// KEEP: gpu.func @shrink_t_k0
// KEEP: arith.remui %{{.*}}, %c4 : index
tile.program @shrink_t(%X: !tile.tensor<1x512xf16, input>,
                       %W: !tile.tensor<1024x512xf16, input>,
                       %S: !tile.tensor<1x1024xf32, output>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<1x512xf16, input> -> !tile.tile<[1, tile_k], f16>
  %w = tile.load %W[%tn, %tk] : !tile.tensor<1024x512xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %wt = tile.permute %w [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %wt : !tile.tile<[1, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[1, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<1x1024xf32, output> -> !tile.tile<[1, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[1, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[1, tile_n], f32>, !tile.tensor<1x1024xf32, output>
  %lk = tile.loop %k = 0 to 512 step %sk body %st
  %ln = tile.loop %n = 0 to 1024 step %sn body %lk
  tile.yield %ln
}
