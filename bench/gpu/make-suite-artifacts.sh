#!/usr/bin/env bash
# Compiles a GPU artifact (docs/Runtime.md) for every program of the
# benchmark suite (bench/workloads/suite/, made by bench/workloads/suite.py)
# on a machine with the tools built (no GPU needed): the default path only,
#   tile-opt --convert-linalg-to-tile
#   tile-run --device cuda --compile-only --artifact OUT_DIR/suite-<name>-default
# with no lowering options and no tuning cache. Inputs are described by their
# seed; the expected outputs are the linalg reference evaluated on the CPU
# (fp64), so the full-size programs take a while (the prefill MLP minutes).
# The host emulation of the kernels is skipped at full size (too slow on the
# CPU; the scaled-down programs' lit tests run it, and tile-gpu-run checks
# every artifact against its expected outputs on the GPU).
# bench/gpu/bench.py --suite --artifacts OUT_DIR times them on the GPU.
#
# Usage: bench/gpu/make-suite-artifacts.sh OUT_DIR
# Environment:
#   SET        suite (default), or llama / falcon: the Trinity workloads of
#              bench/workloads/<SET>/ through the same default path
#              (artifacts <SET>-<workload>-default)
#   PROGRAMS   program names (default: all, bench/workloads/suite.py --list)
#   DTYPE=bf16 the suite's programs with bf16 tensors instead of f16
#              (suite.py --emit NAME --dtype bf16; full size only)
#   SCALED=1   the scaled-down programs of test/Workloads/suite instead, with
#              the host emulation check on
#   BIN        directory of tile-opt and tile-run (default build/bin)
#   CHIP       target chip (default: tile-run's, sm_90)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
OUT=${1:?usage: make-suite-artifacts.sh OUT_DIR}
PY=${PYTHON:-python3}
set_=${SET:-suite}
dir=$ROOT/bench/workloads/$set_
check=(--emulate-check=false)
if [ "$set_" != suite ]; then
  PROGRAMS=${PROGRAMS:-vanilla prenorm qknorm keyformer roco ffn}
fi
if [ "${SCALED:-0}" = 1 ]; then
  dir=$ROOT/test/Workloads/suite
  check=()
fi
chip=()
[ -n "${CHIP:-}" ] && chip=(--chip "$CHIP")
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for name in ${PROGRAMS:-$("$PY" "$ROOT/bench/workloads/suite.py" --list)}; do
  src=$dir/$name.mlir
  if [ "${DTYPE:-f16}" != f16 ]; then
    if [ "$set_" != suite ] || [ "${SCALED:-0}" = 1 ]; then
      echo "make-suite-artifacts.sh: DTYPE is for the full-size suite" >&2
      exit 2
    fi
    src=$tmp/$name.$DTYPE.mlir
    "$PY" "$ROOT/bench/workloads/suite.py" --emit "$name" --dtype "$DTYPE" \
      > "$src"
  fi
  art=$OUT/$set_-$name-default
  start=$(date +%s.%N)
  if ! "$BIN/tile-opt" "$src" --convert-linalg-to-tile -o "$tmp/$name.mlir"; then
    echo "$set_-$name-default: conversion failed" >&2
    status=1
    continue
  fi
  rm -rf "$art"
  if ! "$BIN/tile-run" "$tmp/$name.mlir" --reference "$src" --device cuda \
      "${chip[@]}" --compile-only "${check[@]}" --artifact "$art" |
      sed "s|^|$set_-$name-default: |"; then
    echo "$set_-$name-default: tile-run failed" >&2
    status=1
  fi
  end=$(date +%s.%N)
  printf '%s-%s-default: %.1f s\n' "$set_" "$name" "$(echo "$end - $start" | bc)"
done
du -sh "$OUT"
exit $status
