#!/usr/bin/env bash
# Runs every artifact under DIR (made by make-artifacts.sh) on the GPU with
# tile-gpu-run: checks each against its expected outputs, then times it
# (median of 100 runs after 10 warm-up runs, device events around the
# launches). Needs only tile-gpu-run and a CUDA driver.
#
# Usage: bench/gpu/run-artifacts.sh DIR [TILE_GPU_RUN]
set -uo pipefail
DIR=${1:?usage: run-artifacts.sh DIR [TILE_GPU_RUN]}
RUNNER=${2:-$(dirname "$0")/../../build/bin/tile-gpu-run}
"$RUNNER" --probe || exit $?
status=0
for a in "$DIR"/*/; do
  name=$(basename "$a")
  echo "== $name"
  "$RUNNER" "$a" --time --quiet || status=1
done
exit $status
