// The PTX ISA the NVVM pipeline asks LLVM for: 8.1 by default (vector
// reductions), or the chip's first where that is later (sm_100: 8.6,
// sm_120: 8.7; with 8.1 LLVM's NVPTX backend stopped with a fatal error and
// no location). Features that name a PTX ISA too old for the chip are
// refused with a message.
// RUN: tile-opt %s --tile-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s --tile-lower-to-nvvm="chip=sm_100 format=isa" | FileCheck %s --check-prefix=SM100
// RUN: tile-opt %s --tile-lower-to-nvvm="chip=sm_120 format=isa" | FileCheck %s --check-prefix=SM120
// RUN: not tile-opt %s --tile-lower-to-nvvm="chip=sm_90 features=+ptx60" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// SM90: .version 8.1
// SM90: .target sm_90
// SM100: .version 8.6
// SM100: .target sm_100
// SM120: .version 8.7
// SM120: .target sm_120
// OLD: error: PTX ISA 6.0 (features '+ptx60') does not support sm_90: it needs 7.8 or later

tile.program @exp(%A: !tile.tensor<64x32xf32, input>,
                  %B: !tile.tensor<64x32xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %f = tile.full
  %a = tile.load %A[%t, %f] : !tile.tensor<64x32xf32, input> -> !tile.tile<[tile_i, 32], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, 32], f32>
  %s = tile.store %e, %B[%t, %f] : !tile.tile<[tile_i, 32], f32>, !tile.tensor<64x32xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}
