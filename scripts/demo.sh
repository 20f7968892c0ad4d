#!/usr/bin/env bash
# Installs dependencies, builds, and runs tile-opt on the bundled naive
# attention program (examples/vanilla.mlir), printing what it did.
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_and_build

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
