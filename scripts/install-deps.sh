#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need. Idempotent: does
# nothing when they are present, and runs `apt-get update` only when something
# is missing. Run as root (or with sudo available) on Debian 12.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache python3
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libz3-dev libgtest-dev googletest
)
# Wanted but not required; the tests that need one are skipped without it
# (lit features): the AMDGPU device libraries (hsaco tests), graphviz and
# matplotlib (tools/tile-render), numpy (.npy inputs and outputs), PyTorch
# (the Python package on the host emulation).
OPTIONAL=(rocm-device-libs graphviz python3-matplotlib python3-numpy python3-torch)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
missing=()
for pkg in "${PACKAGES[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
optional=()
for pkg in "${OPTIONAL[@]}"; do
  installed "$pkg" || optional+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ]; then
  echo "install-deps: all $((${#PACKAGES[@]} + ${#OPTIONAL[@]})) packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
# Without network only optional packages may be missing: go on without them.
if ! $SUDO apt-get update -q; then
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: apt-get update failed and ${missing[*]} are required" >&2
    exit 1
  fi
  echo "install-deps: apt-get update failed; optional ${optional[*]} not installed; the tests that need them are skipped"
  exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ${#optional[@]} -gt 0 ]; then
  echo "install-deps: installing optional ${optional[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${optional[@]}" ||
    echo "install-deps: optional ${optional[*]} not installed; the tests that need it are skipped"
fi
