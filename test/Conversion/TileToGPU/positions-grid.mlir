// Positions (what linalg.index becomes) are not data a kernel's tiles are
// kept whole for: the causal mask's key positions, read by every head, do
// not keep a split row max from shrinking its head tiles to fill its blocks.
// In 16-token causal attention against 4096 positions (Llama-2-7B), the
// masked row max ran 4 blocks of 32 heads x 16 rows (357 us on the H200);
// now 512 (7.2 us; bench/results/h200-2026-11-28-causal.md).
// RUN: tile-opt %tile_src_root/bench/workloads/suite/attn_causal_llama2_7b_m16_p4k.mlir --convert-linalg-to-tile --tile-select-gpu-config --tile-lower-to-gpu | FileCheck %s

// CHECK-LABEL: func.func @attn_causal_llama2_7b_m16_p4k(
// CHECK-SAME: tile.role = "positions"
// The row max of the masked scores, split 4 ways over the keys.
// CHECK: gpu.launch_func @attn_causal_llama2_7b_m16_p4k_kernels::@attn_causal_llama2_7b_m16_p4k_k3 blocks in (%c512

// A kernel computes a position from its offset (element n of a positions
// tensor holds n) instead of loading it: the one-kernel online candidate of
// the same program, as a warp loop, reads neither the key nor the query
// positions (the tile's causal mask), while the converted program's masked
// scores still name the tensor (its kernels pass it).
// RUN: tile-opt %S/Inputs/causal-online-m16.tile.mlir --tile-select-gpu-config --tile-lower-to-gpu | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: gpu.func @attn_causal_llama2_7b_m16_p4k_c0_k0(%{{.*}}, %[[KPOS:arg[0-9]+]]: memref<4096xf32>
// COMPUTED-NOT: memref.load %[[KPOS]]
// COMPUTED: arith.uitofp %{{.*}} : i32 to f32
// COMPUTED-NOT: memref.load %[[KPOS]]
// COMPUTED: gpu.return
