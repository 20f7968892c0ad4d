//===- VersionString.h - "0.2.0 (git 3b63af70c1d2)" ------------*- C++ -*-===//
//
// The one formatting of the version every tool, the plugins and both C APIs
// print. Header-only and standard C++ only, so that the runtime and
// tile-gpu-run, which link neither MLIR nor LLVM, share it with
// TileSupport's printTileVersion.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_VERSIONSTRING_H
#define TILEDIALECT_VERSIONSTRING_H

#include "TileDialect/VCSRevision.h"
#include "TileDialect/Version.h"

#include <string>

namespace mlir::tileir {

/// The full git revision the build came from, or "" outside a git checkout.
inline const char *tileRevision() {
#ifdef TILE_REVISION
  return TILE_REVISION;
#else
  return "";
#endif
}

/// The version and the first 12 characters of the revision, if any.
inline const std::string &tileVersionString() {
  static const std::string text = [] {
    std::string revision = tileRevision(), s = TILE_VERSION;
    if (!revision.empty())
      s += " (git " + revision.substr(0, 12) + ")";
    return s;
  }();
  return text;
}

} // namespace mlir::tileir

#endif // TILEDIALECT_VERSIONSTRING_H
