#!/usr/bin/env bash
# Compiles GPU artifacts for the --tile-optimize candidates of suite programs
# (an experiment beside make-suite-artifacts.sh's default path): for each
# program, the converted input (variant `default`) and the top-K candidates
# of `tile-opt --tile-optimize` (variants c0, c1, ...), each through
# `tile-run --device cuda --compile-only` with the configuration the
# strategy chooses. Prints, per candidate, whether it carries the online
# softmax's running max (a tile.cmp) and the chosen #tile.gpu_config.
# bench/gpu/bench.py --suite --artifacts OUT_DIR times every variant.
#
# Usage: bench/gpu/make-candidate-artifacts.sh OUT_DIR PROGRAM...
# Environment: TOPK (default 4), BIN (default build/bin)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
OUT=${1:?usage: make-candidate-artifacts.sh OUT_DIR PROGRAM...}
shift
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
  src=$ROOT/bench/workloads/suite/$name.mlir
  "$BIN/tile-opt" "$src" --convert-linalg-to-tile -o "$tmp/$name-input.mlir" &&
    "$BIN/tile-run" "$tmp/$name-input.mlir" --reference "$src" --device cuda \
      --compile-only --emulate-check=false \
      --artifact "$OUT/suite-$name-default" > "$tmp/log" 2>&1 ||
    echo "$name default: failed" >&2
  "$BIN/tile-opt" "$src" --tile-optimize="top-k=${TOPK:-4}" \
    -o "$tmp/$name.mlir" 2> "$tmp/$name-opt.log" ||
    { echo "$name: --tile-optimize failed" >&2; continue; }
  for c in $(grep -o "tile.program @[a-z0-9_]*" "$tmp/$name.mlir" |
             sed 's/tile.program @//'); do
    v=${c##*_}
    if ! "$BIN/tile-run" "$tmp/$name.mlir" --entry "$c" --reference "$src" \
        --device cuda --compile-only --emulate-check=false \
        --artifact "$OUT/suite-$name-$v" > "$tmp/log" 2>&1; then
      echo "$c: failed" >&2
      continue
    fi
    cmp=$(awk "/tile.program @$c\(/,/^  }/" "$tmp/$name.mlir" | grep -c tile.cmp)
    echo "$name $v: running max: $cmp; $(grep 'gpu config' "$tmp/log")"
  done
done
