//===- InitAll.h - Register everything tile-opt needs ---------*- C++ -*-===//

#ifndef TILEDIALECT_INITALL_H
#define TILEDIALECT_INITALL_H

namespace mlir {
class DialectRegistry;

namespace tileir {

/// Adds the tile dialect, the upstream dialects the pipeline from linalg to
/// NVVM / ROCDL device binaries uses, and their interface extensions
/// (bufferization models, conversion-to-LLVM, GPU targets, LLVM IR
/// translation) to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers the tile passes and pipelines and the upstream passes the
/// pipeline uses, for command-line tools built on MlirOptMain.
void registerAllPasses();

} // namespace tileir
} // namespace mlir

#endif // TILEDIALECT_INITALL_H
