//===- Passes.h - Tile dialect passes -------------------------*- C++ -*-===//

#ifndef TILEDIALECT_TRANSFORMS_PASSES_H
#define TILEDIALECT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileir {

#define GEN_PASS_DECL
#include "TileDialect/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileDialect/Transforms/Passes.h.inc"

} // namespace mlir::tileir

#endif // TILEDIALECT_TRANSFORMS_PASSES_H
