//===- Version.h - The version tile-opt's tools print -----------*- C++ -*-===//
//
// One text for every tool's --version, the plugins' version and the C API's:
// the project's version, the git revision it was built from, and the LLVM /
// MLIR release it was built against.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SUPPORT_VERSION_H
#define TILEDIALECT_SUPPORT_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace mlir::tileir {

/// "0.2.0 (git 3b63af70c1d2)": the version and the first 12 characters of
/// the revision.
const char *getTileVersionString();

/// Prints `tool`'s version block for --version: the tool and the version
/// string, then the LLVM/MLIR release and the build kind.
void printTileVersion(llvm::raw_ostream &os, llvm::StringRef tool);

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_VERSION_H
