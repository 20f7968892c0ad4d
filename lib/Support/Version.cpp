//===- Version.cpp - The version tile-opt's tools print -------------------===//

#include "TileDialect/Support/Version.h"
#include "TileDialect/VersionString.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir;

const char *tileir::getTileVersionString() {
  return tileVersionString().c_str();
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
