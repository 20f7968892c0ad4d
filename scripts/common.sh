# Sourced by the other scripts: sets ROOT (the repository root) and exports an
# absolute BUILD_DIR (default: build, relative to the root).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
export BUILD_DIR

# Installs the dependencies and builds.
install_and_build() {
  "$ROOT/scripts/install-deps.sh"
  "$ROOT/scripts/build.sh"
}
