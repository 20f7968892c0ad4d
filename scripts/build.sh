#!/usr/bin/env bash
# Configures and builds tile-opt into ${BUILD_DIR:-build} (relative to the
# repository root) with clang-22, lld-22, Ninja and ccache when available.
# Environment: BUILD_DIR, BUILD_TYPE (default Release), JOBS (default nproc),
# CMAKE_ARGS (extra arguments for the configure step).
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BUILD_TYPE=${BUILD_TYPE:-Release}
JOBS=${JOBS:-$(nproc)}
LLVM_PREFIX=/usr/lib/llvm-22

for tool in clang-22 clang++-22 ld.lld-22; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build.sh: $tool not found; run scripts/install-deps.sh first" >&2
    exit 1
  fi
done
# A configure that failed before the compilers existed caches empty
# per-configuration flags (no -O3, no -DNDEBUG) that later configures keep:
# start such a build directory's cache afresh.
cache="$BUILD_DIR/CMakeCache.txt"
if [ -f "$cache" ] && grep -qx 'CMAKE_CXX_FLAGS_RELEASE:STRING=' "$cache"; then
  echo "build.sh: $cache has empty release flags (an earlier configure failed); configuring afresh" >&2
  rm -rf "$cache" "$BUILD_DIR/CMakeFiles"
fi

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# shellcheck disable=SC2086
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  "${launcher[@]}" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
