//===- Passes.h - Conversions into and out of tile ------------*- C++ -*-===//

#ifndef TILEDIALECT_CONVERSION_PASSES_H
#define TILEDIALECT_CONVERSION_PASSES_H

#include "TileDialect/Conversion/LinalgToTile/LinalgToTile.h"
#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"
#include "TileDialect/IR/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileir {

#define GEN_PASS_DECL
#include "TileDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileDialect/Conversion/Passes.h.inc"

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_PASSES_H
