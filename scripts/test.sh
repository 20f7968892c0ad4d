#!/usr/bin/env bash
# Installs dependencies, builds, then runs every test (lit suite and GoogleTest
# unit tests, both through lit) and ends with one line
# `N passed, N failed, N skipped`. Exits non-zero if any test fails.
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_and_build

results="$BUILD_DIR/test-results.xml"
rm -f "$results"
set +e
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  "$BUILD_DIR/test" "$BUILD_DIR/unittests"
lit_status=$?
set -e

python3 "$ROOT/scripts/summarize-tests.py" "$results" "$lit_status"
