#!/usr/bin/env bash
# Installs dependencies, builds, and runs tile-opt on the bundled naive
# attention program (examples/vanilla.mlir), printing what it did.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
export BUILD_DIR

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

TILE_OPT="$BUILD_DIR/bin/tile-opt"
EXAMPLE="$ROOT/examples/vanilla.mlir"
echo
echo "== tile-opt $EXAMPLE --tile-program-stats"
"$TILE_OPT" "$EXAMPLE" --tile-program-stats -o /dev/null
echo
echo "== every bundled example verifies and round-trips:"
for f in "$ROOT"/examples/*.mlir; do
  "$TILE_OPT" "$f" | "$TILE_OPT" >/dev/null
  echo "   ok  examples/$(basename "$f")"
done
