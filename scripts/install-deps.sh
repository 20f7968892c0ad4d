#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need. Idempotent: does
# nothing when they are present, and runs `apt-get update` only when something
# is missing. Run as root (or with sudo available) on Debian 12.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache python3
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libz3-dev libgtest-dev googletest
  graphviz python3-matplotlib python3-numpy
)
# Wanted but not required: the AMDGPU device libraries (hsaco tests are
# skipped without them).
OPTIONAL=(rocm-device-libs)

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
$SUDO apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ${#optional[@]} -gt 0 ]; then
  echo "install-deps: installing optional ${optional[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${optional[@]}" ||
    echo "install-deps: optional ${optional[*]} not installed; the tests that need it are skipped"
fi
