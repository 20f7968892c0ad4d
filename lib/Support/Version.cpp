//===- Version.cpp - The version tile-opt's tools print -------------------===//

#include "TileDialect/Support/Version.h"
#include "TileDialect/VCSRevision.h"
#include "TileDialect/Version.h"

#include "llvm/Config/llvm-config.h"

#include <string>

using namespace mlir;

const char *tileir::getTileVersion() { return TILE_VERSION; }

const char *tileir::getTileRevision() {
#ifdef TILE_REVISION
  return TILE_REVISION;
#else
  return "";
#endif
}

const char *tileir::getTileVersionString() {
  static const std::string text = [] {
    std::string revision = getTileRevision();
    std::string s = TILE_VERSION;
    if (!revision.empty())
      s += " (git " + revision.substr(0, 12) + ")";
    return s;
  }();
  return text.c_str();
}

void tileir::printTileVersion(llvm::raw_ostream &os, llvm::StringRef tool) {
  os << tool << " " << getTileVersionString() << "\n"
     << "  built with LLVM/MLIR " << LLVM_VERSION_STRING
#ifdef NDEBUG
     << ", optimized build"
#else
     << ", debug build"
#endif
     << "\n";
}
