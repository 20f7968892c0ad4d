#!/usr/bin/env bash
# Compiles GPU artifacts (docs/Runtime.md) for the benchmark workloads on a
# machine with the tools built (no GPU needed), inputs described by their
# seed, expected outputs computed by the linalg reference on the CPU. Run the
# artifacts on a GPU machine with bench/gpu/run-artifacts.sh or bench.py.
#
# Usage: bench/gpu/make-artifacts.sh OUT_DIR [CONFIG...]   (default: llama falcon)
# Each artifact is OUT_DIR/<config>-<workload>-<program>[-el<true|false>]:
#   program naive: tile-opt --convert-linalg-to-tile
#           opt:   tile-opt --tile-optimize=top-k=1 (best candidate); with
#                  TOP_K=N the N best, as opt0 ... opt<N-1>; ROUNDS=1
#                  stops after the first saturation (more kernels, more
#                  blocks per kernel: worth timing against the fused ones)
#           own:   tile-opt --convert-linalg-to-tile=own-reduction-variables=true
#                  (reduction loops get variables apart from the intermediates
#                  they read: a GEMM's K tile tuned apart from the width of
#                  the loop that wrote its operand; TILE_SIZES names them
#                  r1, r2, ...)
#           ownx:  the own program's best candidate of --tile-extract, even
#                  where the input is estimated faster (the estimate does not
#                  model fission_blocks; lower it with FISSION_BLOCKS)
#           hand:  the hand-written naive program of examples/ (llama only)
#           gate:  ffn only: bench/gpu/programs/<config>-ffn-gate.mlir, the
#                  converted program with the gate GEMMs and their SiLU
#                  product fused into one loop nest
#           rownorm: ffn only, where bench/gpu/programs/<config>-ffn-rownorm.mlir
#                  exists (falcon): gate with the RMS statistic and the
#                  normalization in one loop over rows
# Environment (lowering knobs are assembled into one tile-run
# --gpu-config="field = value, ..." per artifact; a variable left unset
# leaves its field to the strategy of --tile-select-gpu-config, or to the
# knob's default: docs/GPULowering.md, "Choosing a configuration"):
#   PROGRAMS      which programs (default "naive opt")
#   ELEMENT_LOOPS "true", "false" or "true false" (both, as separate
#                 variants suffixed -eltrue / -elfalse): element_loops;
#                 default: unset, no suffix
#   MMA=1 / MMA=0  mma = true / false (f16 matmuls on the matrix units;
#                 unset: the strategy's, on for f16 matmuls on sm_80+)
#   TF32=1 / TF32=0  tf32 = true / false (warp loops' f32 products by a
#                 cast f16 load as tf32 on the matrix units)
#   TUNING=FILE   compile with only --tuning FILE (and --entry): a
#                 program with an entry in the cache
#                 (bench/tuning/<device>.json) takes its configuration
#                 from it; of the variables below only MAX_TILE,
#                 PREFETCH_BYTES, SPLIT_EPILOGUES, EARLY_LAUNCH_BLOCKS and
#                 GPU_CONFIG apply too (they override the entry's fields)
#   MERGE_KERNELS=0  merge_kernels = false (each kernel its own launch;
#                 the default merges independent kernels)
#   PROLOGUES=0   convert with --convert-linalg-to-tile=prologues=false
#                 (elementwise producers of a contraction's left operand
#                 stay their own kernels)
#   ZERO_IN_KERNELS=0  zero_in_kernels = false (the runtime clears every
#                 tensor that starts as zeros before each call)
#   VECTOR_ATOMICS=0  vector_atomics = false (split accumulations add one
#                 element per atomic even on sm_90)
#   PIPELINE_LOADS  pipeline_loads for every artifact (loads issued N
#                 iterations ahead)
#   PREFETCH_BYTES  prefetch_bytes for every artifact, with TUNING too
#                 (bytes of weight tiles a block prefetches into L2 before
#                 waiting on the kernels before it)
#   SPLIT_EPILOGUES  split_epilogues for every artifact, with TUNING too
#                 (least iterations per block of split accumulations whose
#                 elementwise consumers their last blocks run; 0: never)
#   EARLY_LAUNCH_BLOCKS  early_launch_blocks for every artifact, with
#                 TUNING too (most blocks of a kernel that launches a
#                 prefetching successor early; 0: never)
#   SPLIT_K       split_k values; a list ("1 4") makes one variant per
#                 value, suffixed -s<N>
#   THREAD_ELEMENTS  thread_elements (most elements per thread in element
#                 loops); a list makes one variant per value, suffixed -e<N>
#   K_SLICES      k_slices values; a list makes one variant per value,
#                 suffixed -k<N>
#   MIN_BLOCKS    min_blocks values; a list makes one variant per value,
#                 suffixed -m<N>
#   WORKLOADS     which workloads (default: all six)
#   TILE_SIZES    --tile-sizes for every artifact (NAME=N,...; names a
#                 program lacks are ignored), e.g. tile_r0=32; several sets
#                 separated by spaces make one variant each, suffixed
#                 -z<1..N> in the order given (tuning.json records the sizes)
#   FISSION_BLOCKS  fission_blocks for every artifact (fused programs:
#                 their parts get their own grids)
#   MAX_TILE      --max-tile-size (largest default tile size); a list
#                 ("16 32 64") makes one variant per value, suffixed -t<N>
#                 (unset: the strategy's, 64 for programs with matmuls, 32
#                 otherwise)
#   GPU_CONFIG    further #tile.gpu_config fields for every artifact, with
#                 TUNING too, e.g. "reduce_lanes = 1, privatize = false"
#                 (a field the variables above also set is an error)
#   SHARE_EXPECTED=1  keep one copy of identical expected outputs
#                 (bench/gpu/share-expected.py), so that many variants fit
#                 in one transfer
#   BUILD_DIR (default build; the tools are BUILD_DIR/bin), CHIP (default
#   sm_90), SCALED=1 for the scaled-down workloads of test/Workloads instead.
# Every artifact also holds tuning.json (the program's hash, the chip and
# the gpu_config it was lowered with), which bench/gpu/tune.py turns into a
# tuning cache; tile-run prints that configuration as "gpu config: ...".
# The benchmark of bench/results/h100-80gb-hbm3-2026-11-21.md used (before
# the strategy existed: unset variables then meant the knobs' defaults)
#   PROGRAMS="naive hand" ELEMENT_LOOPS="true false" ... llama
#   PROGRAMS="naive" ELEMENT_LOOPS="true false" ... falcon
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BUILD_DIR:-$ROOT/build}/bin
OUT=${1:?usage: make-artifacts.sh OUT_DIR [CONFIG...]}
shift || true
CHIP=${CHIP:-sm_90}
PROGRAMS=${PROGRAMS:-naive opt}
CONFIGS=("$@")
[ ${#CONFIGS[@]} -eq 0 ] && CONFIGS=(llama falcon)
[ "${SCALED:-0}" = 1 ] && CONFIGS=(scaled)
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cfg in "${CONFIGS[@]}"; do
  dir=$ROOT/bench/workloads/$cfg
  examples=$ROOT/examples
  if [ "$cfg" = scaled ]; then
    dir=$ROOT/test/Workloads
    examples=$ROOT/test/Examples
  fi
  for w in ${WORKLOADS:-vanilla prenorm qknorm keyformer roco ffn}; do
    src=$dir/$w.mlir
    for program in $PROGRAMS; do
      # (label, entry) of each program to compile from $tmp/$program.mlir.
      variants=("$program:")
      case $program in
        naive|own) "$BIN/tile-opt" "$src" \
            --convert-linalg-to-tile="own-reduction-variables=$([ "$program" = own ] && echo true || echo false) prologues=$([ "${PROLOGUES:-1}" = 0 ] && echo false || echo true)" \
            -o "$tmp/$program.mlir" ;;
        opt)
          "$BIN/tile-opt" "$src" \
            --tile-optimize="top-k=${TOP_K:-1} rounds=${ROUNDS:-2}" \
            -o "$tmp/$program.mlir" 2>/dev/null
          if [ "${TOP_K:-1}" -gt 1 ]; then
            variants=()
            for c in $(grep -o "tile.program @${w}_c[0-9]*" "$tmp/$program.mlir" | sed 's/.*@//'); do
              variants+=("opt${c##*_c}:$c")
            done
          fi ;;
        ownx)
          # The own-converted program's best extracted candidate, even where
          # the estimate ranks the input first (it does not model
          # fission_blocks): the first program not marked tile.input.
          "$BIN/tile-opt" "$src" --convert-linalg-to-tile="own-reduction-variables=true" \
            -o "$tmp/own-converted.mlir"
          "$BIN/tile-opt" "$tmp/own-converted.mlir" --tile-extract="top-k=2 rounds=${ROUNDS:-2}" \
            -o "$tmp/$program.mlir" 2>/dev/null
          best=$(grep -o "tile.program @${w}_c[0-9]*([^{]*{\|tile.input" "$tmp/$program.mlir" |
                 awk '/tile.program/ {if (name) exit; name=$2} /tile.input/ {name=""} END {print name}' |
                 sed 's/@//; s/(.*//')
          [ -n "$best" ] || { echo "$w: no extracted candidate" >&2; continue; }
          variants=("ownx:$best") ;;
        hand)
          # The hand-written programs are llama-sized (or scaled).
          [ "$cfg" = falcon ] && continue
          cp "$examples/$w.mlir" "$tmp/$program.mlir" ;;
        gate)
          gate=$ROOT/bench/gpu/programs/$cfg-ffn-gate.mlir
          [ "$w" = ffn ] && [ -f "$gate" ] || continue
          cp "$gate" "$tmp/$program.mlir" ;;
        rownorm)
          # falcon only: the gate program with its statistic and
          # normalization in one row loop (tile_i5 = 1, tile_i4 = 4544).
          rownorm=$ROOT/bench/gpu/programs/$cfg-ffn-rownorm.mlir
          [ "$w" = ffn ] && [ -f "$rownorm" ] || continue
          cp "$rownorm" "$tmp/$program.mlir" ;;
        *) echo "unknown program '$program'" >&2; exit 2 ;;
      esac
      for variant in "${variants[@]}"; do
      label=${variant%%:*}
      entry=${variant#*:}
      for cap in ${MAX_TILE:-default}; do
       for split in ${SPLIT_K:-default}; do
        for te in ${THREAD_ELEMENTS:-default}; do
        for mb in ${MIN_BLOCKS:-default}; do
        for ks in ${K_SLICES:-default}; do
        for el in ${ELEMENT_LOOPS:-default}; do
        zi=0
        for ts in ${TILE_SIZES:-default}; do
          zi=$((zi + 1))
          name=$cfg-$w-$label
          # The #tile.gpu_config fields of this artifact, and tile-run's
          # other flags.
          config=""
          add() { config="${config:+$config, }$1"; }
          flags=()
          if [ "$cap" != default ]; then
            [ "$(echo $MAX_TILE | wc -w)" -gt 1 ] && name=$name-t$cap
            flags+=(--max-tile-size "$cap")
          fi
          if [ "$split" != default ]; then
            [ "$(echo $SPLIT_K | wc -w)" -gt 1 ] && name=$name-s$split
            add "split_k = $split"
          fi
          if [ "$te" != default ]; then
            [ "$(echo $THREAD_ELEMENTS | wc -w)" -gt 1 ] && name=$name-e$te
            add "thread_elements = $te"
          fi
          if [ "$ks" != default ]; then
            [ "$(echo $K_SLICES | wc -w)" -gt 1 ] && name=$name-k$ks
            add "k_slices = $ks"
          fi
          if [ "$mb" != default ]; then
            [ "$(echo $MIN_BLOCKS | wc -w)" -gt 1 ] && name=$name-m$mb
            add "min_blocks = $mb"
          fi
          [ -n "${FISSION_BLOCKS:-}" ] && add "fission_blocks = $FISSION_BLOCKS"
          if [ "$ts" != default ]; then
            [ "$(echo $TILE_SIZES | wc -w)" -gt 1 ] && name=$name-z$zi
            flags+=(--tile-sizes="$ts")
          fi
          [ -n "$entry" ] && flags+=(--entry "$entry")
          case ${MMA:-} in 1) add "mma = true" ;; 0) add "mma = false" ;; esac
          case ${TF32:-} in 1) add "tf32 = true" ;; 0) add "tf32 = false" ;; esac
          case ${VECTOR_ATOMICS:-} in 1) add "vector_atomics = true" ;; 0) add "vector_atomics = false" ;; esac
          case ${MERGE_KERNELS:-} in 1) add "merge_kernels = true" ;; 0) add "merge_kernels = false" ;; esac
          case ${ZERO_IN_KERNELS:-} in 1) add "zero_in_kernels = true" ;; 0) add "zero_in_kernels = false" ;; esac
          [ -n "${PIPELINE_LOADS:-}" ] && add "pipeline_loads = $PIPELINE_LOADS"
          if [ "$el" != default ]; then
            name=$name-el$el
            add "element_loops = $el"
          fi
          if [ -n "${TUNING:-}" ]; then
            config=""
            flags=(--tuning "$TUNING")
            [ "$cap" != default ] && flags+=(--max-tile-size "$cap")
            [ -n "$entry" ] && flags+=(--entry "$entry")
          fi
          [ -n "${PREFETCH_BYTES:-}" ] && add "prefetch_bytes = $PREFETCH_BYTES"
          [ -n "${EARLY_LAUNCH_BLOCKS:-}" ] && add "early_launch_blocks = $EARLY_LAUNCH_BLOCKS"
          [ -n "${SPLIT_EPILOGUES:-}" ] && add "split_epilogues = $SPLIT_EPILOGUES"
          [ -n "${GPU_CONFIG:-}" ] && add "$GPU_CONFIG"
          [ -n "$config" ] && flags+=(--gpu-config="$config")
          # The benchmark checks every artifact on the GPU (tile-gpu-run
          # compares with the expected outputs): no host emulation here.
          start=$(date +%s.%N)
          "$BIN/tile-run" "$tmp/$program.mlir" --reference "$src" \
            --device cuda --chip "$CHIP" "${flags[@]}" \
            --compile-only --emulate-check=false --artifact "$OUT/$name" | sed "s|^|$name: |"
          end=$(date +%s.%N)
          printf '%s: %.1f s\n' "$name" "$(echo "$end - $start" | bc)"
        done
        done
        done
        done
        done
       done
      done
      done
    done
  done
done
if [ "${SHARE_EXPECTED:-0}" = 1 ]; then
  python3 "$ROOT/bench/gpu/share-expected.py" "$OUT"
fi
