#!/usr/bin/env bash
# Installs dependencies, builds, and runs tile-opt on the bundled naive
# attention program (examples/vanilla.mlir), printing what it did.
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_and_build

TILE_OPT="$BUILD_DIR/bin/tile-opt"
TILE_RUN="$BUILD_DIR/bin/tile-run"
EXAMPLE="$ROOT/examples/vanilla.mlir"
LINALG="$ROOT/bench/workloads/llama/vanilla.mlir"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo
echo "== tile-opt $LINALG --convert-linalg-to-tile (naive attention, llama size)"
"$TILE_OPT" "$LINALG" --convert-linalg-to-tile -o "$TMP/vanilla.tile.mlir"
"$TILE_OPT" "$TMP/vanilla.tile.mlir" --tile-program-stats="output=$TMP/stats.txt" -o /dev/null
head -3 "$TMP/stats.txt"
echo
echo "== tile-run: the converted program against the linalg reference (f32 arithmetic, fp16 storage)"
"$TILE_RUN" "$TMP/vanilla.tile.mlir" --reference "$LINALG" --precision f32 --tolerance 1e-2
echo
echo "== tile-opt $EXAMPLE --tile-program-stats"
"$TILE_OPT" "$EXAMPLE" --tile-program-stats -o /dev/null
echo
echo "== every bundled example verifies and round-trips:"
for f in "$ROOT"/examples/*.mlir; do
  "$TILE_OPT" "$f" | "$TILE_OPT" >/dev/null
  echo "   ok  examples/$(basename "$f")"
done
echo
echo "== tile-opt $EXAMPLE --tile-saturate: equality saturation (8 iterations)"
"$TILE_OPT" "$EXAMPLE" --tile-saturate="progress=true report=$TMP/sat.json" -o /dev/null
python3 - "$TMP/sat.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("   %d e-classes, %d e-nodes, 10^%.1f programs represented, %.2f s, %s" % (
    d["eclasses"], d["enodes"], d["log10_programs"], d["seconds"], d["stop_reason"]))
PY
echo
echo "== start => goal: the saturated e-graph represents FlashAttention (Trinity Fig. 4(d)) and the fully fused program (Fig. 4(f))"
for g in fig4d fig4f; do
  "$TILE_OPT" "$EXAMPLE" --tile-saturate="goal=$ROOT/examples/goals/vanilla-$g.mlir" -o /dev/null 2>&1 | grep -o "goal @.*"
done
echo
echo "== tile-prove: the value-level rules are sound over the reals"
"$BUILD_DIR/bin/tile-prove" | tail -1
echo
echo "== tile-opt $EXAMPLE --tile-extract: two-pass extraction, every candidate checked on the CPU and its kernels in the host emulation"
"$TILE_OPT" "$EXAMPLE" --tile-extract="top-k=2 report=$TMP/ext.json" -o "$TMP/best.mlir" 2>&1 | grep -o "extracted.*"
python3 - "$TMP/ext.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))[0]
for c in d["candidates"]:
    print("   %s: %d kernel(s), check %s (max rel err %.1e), kernels emulated: %s, roofline %.1f us on sm_90" % (
        c["name"], c["kernels"], c["check"], c["max_rel_error"], c.get("emulation", "-"), c.get("estimated_us", 0)))
PY
"$TILE_OPT" "$TMP/best.mlir" --tile-estimate-cost="target=sm_90" -o /dev/null 2>&1 | grep -o "estimated.*" | head -1
echo
echo "== tile-run --device cuda: the best candidate lowered through NVVM into a runtime artifact (docs/GPULowering.md)"
"$BUILD_DIR/bin/tile-run" "$TMP/best.mlir" --entry vanilla_c0 --device cuda \
  --compile-only --artifact "$TMP/artifact" 2>&1 | sed 's/^/   /' || \
  echo "   (no cubin: no CUDA toolkit with ptxas and libdevice here)"
if [ -f "$TMP/artifact/manifest.txt" ]; then
  grep '^kernel' "$TMP/artifact/manifest.txt" | awk '{printf "   launch %s: %d blocks x %d threads\n", $2, $3, $6}'
  echo "   run it on a GPU machine: tile-gpu-run DIR --graph (docs/Runtime.md)"
fi
