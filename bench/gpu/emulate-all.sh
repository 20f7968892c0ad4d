#!/usr/bin/env bash
# Runs the GPU lowering's kernels of the full-size workloads on the CPU
# (tile-run --device emulate, docs/GPULowering.md) against the fp64 linalg
# reference: naive (converted) and optimized (--tile-optimize, best
# candidate) programs, with the default lowering and with split_k = 16. A
# correctness record for lowering changes made without a GPU; it says
# nothing about speed.
#
# Usage: bench/gpu/emulate-all.sh [CONFIG...]   (default: llama falcon)
# Environment: BUILD_DIR (default build), VARIANTS (tile-run flag sets,
# separated by ';', each split into words as the shell does, quotes
# included; default '; --gpu-config="split_k = 16"').
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BUILD_DIR:-$ROOT/build}/bin
CONFIGS=("$@")
[ ${#CONFIGS[@]} -eq 0 ] && CONFIGS=(llama falcon)
IFS=';' read -r -a VARIANTS <<< "${VARIANTS:-; --gpu-config=\"split_k = 16\"}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
echo "| config | workload | program | flags | result | worst max_rel_err | seconds |"
echo "|---|---|---|---|---|---|---|"
for cfg in "${CONFIGS[@]}"; do
  for w in vanilla prenorm qknorm keyformer roco ffn; do
    src=$ROOT/bench/workloads/$cfg/$w.mlir
    "$BIN/tile-opt" "$src" --convert-linalg-to-tile -o "$tmp/naive.mlir"
    "$BIN/tile-opt" "$src" --tile-optimize=top-k=1 -o "$tmp/opt.mlir" 2>/dev/null
    for program in naive opt; do
      for flags in "${VARIANTS[@]}"; do
        eval "args=($flags)"
        start=$(date +%s.%N)
        "$BIN/tile-run" "$tmp/$program.mlir" --reference "$src" \
          --device emulate "${args[@]}" > "$tmp/out.txt" 2>&1
        rc=$?
        end=$(date +%s.%N)
        [ $rc -ne 0 ] && status=1
        result=$(grep -E "^(PASS|FAIL)" "$tmp/out.txt" | cut -d: -f1)
        worst=$(grep -o "max_rel_err=[0-9.e+-]*" "$tmp/out.txt" |
                cut -d= -f2 | sort -g | tail -1)
        printf '| %s | %s | %s | %s | %s | %s | %.1f |\n' "$cfg" "$w" \
          "$program" "${flags:-default}" "${result:-error}" "${worst:--}" \
          "$(echo "$end - $start" | bc)"
      done
    done
  done
done
exit $status
