#!/usr/bin/env bash
# Compiles a batch of tile-fuzz programs into GPU artifacts (the converted
# program and --tile-optimize's best candidate, default lowering), so that
# the kernels the emulation checks in CI are also run on a GPU:
#   tools/tile-fuzz/device-batch.sh SEED COUNT OUT        # here
#   tools/tile-fuzz/device-batch.sh --run OUT             # on the GPU machine
# The second form runs every artifact under OUT with tile-gpu-run (which
# compares with the expected outputs computed here) and prints one line per
# artifact and a summary.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${BIN:-$ROOT/build/bin}

if [ "${1:-}" = "--run" ]; then
  out=$2
  pass=0 fail=0
  for art in "$out"/*/; do
    [ -f "$art/manifest.txt" ] || continue
    name=$(basename "$art")
    if "$BIN/tile-gpu-run" "$art" > "$art/gpu.log" 2>&1; then
      pass=$((pass + 1)); echo "$name: PASS"
    else
      fail=$((fail + 1)); echo "$name: FAIL"; sed 's/^/  /' "$art/gpu.log" | tail -5
    fi
  done
  echo "device batch: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi

seed=$1 count=$2 out=$3
mkdir -p "$out/src"
made=0 skipped=0
for ((s = seed; s < seed + count; ++s)); do
  src=$out/src/fuzz-$s.mlir
  /usr/bin/python3 "$ROOT/tools/tile-fuzz/tile-fuzz.py" --print --seed "$s" --count 1 > "$src"
  tol=$(sed -n 's|^// tolerance ||p' "$src" | head -1)
  "$BIN/tile-opt" "$src" --convert-linalg-to-tile -o "$out/src/fuzz-$s.tile.mlir" 2>/dev/null || { skipped=$((skipped + 1)); continue; }
  "$BIN/tile-opt" "$src" --tile-optimize=top-k=1 -o "$out/src/fuzz-$s.opt.mlir" 2>/dev/null || { skipped=$((skipped + 1)); continue; }
  for kind in tile opt; do
    "$BIN/tile-run" "$out/src/fuzz-$s.$kind.mlir" --reference "$src" --precision f32 \
      --tolerance "${tol:-0.02}" --device cuda --compile-only --emulate-check=false \
      --artifact "$out/fuzz-$s-$kind" > /dev/null 2>&1 && made=$((made + 1)) || skipped=$((skipped + 1))
  done
done
echo "device batch: $made artifacts in $out ($skipped programs or variants not compiled)"
