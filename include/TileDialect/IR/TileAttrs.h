//===- TileAttrs.h - Tile dialect attributes --------------------*- C++ -*-===//
//
// `#tile.gpu_config`, the GPU lowering's configuration (TileAttrs.td), and
// the table of its knobs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_IR_TILEATTRS_H
#define TILEDIALECT_IR_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

#define GET_ATTRDEF_CLASSES
#include "TileDialect/IR/TileAttrs.h.inc"

namespace mlir::tileir {

/// One knob of `#tile.gpu_config` (GPUConfigKnobs.def).
struct GPUConfigKnob {
  llvm::StringLiteral key;
  bool isBool;
  int64_t defaultValue;
  /// The values an integer knob takes (booleans: 0 and 1).
  int64_t min, max;
  llvm::StringLiteral description;
};

/// Every knob, in declaration order (not counting `tile_sizes`).
llvm::ArrayRef<GPUConfigKnob> getGPUConfigKnobs();

/// The attribute name under which a program, a host function or a
/// gpu.module carries its configuration.
constexpr llvm::StringLiteral kGPUConfigAttrName = "tile.gpu_config";
/// On a lowered kernel (gpu.func) of a statement configured apart: its own
/// `pipeline_loads`, where it differs from its module's configuration.
constexpr llvm::StringLiteral kPipelineLoadsAttrName = "tile.pipeline_loads";
/// On a kernel as `--tile-lower-to-gpu` emits it (before
/// `--tile-merge-kernels`): the index of the program's top-level statement
/// it runs (a leaf of the root `tile.seq`, in order).
constexpr llvm::StringLiteral kStatementAttrName = "tile.statement";
/// On a lowered kernel that runs a warp loop (one warp per iteration, its
/// tiles in matrix-unit registers): the warps of each block and the
/// iterations of all its blocks, `array<i64: warps, iterations>`.
constexpr llvm::StringLiteral kWarpLoopAttrName = "tile.warp_loop";
/// On a kernel `--tile-merge-kernels` made of several: the top-level
/// statements of its members, in order.
constexpr llvm::StringLiteral kStatementsAttrName = "tile.statements";

} // namespace mlir::tileir

#endif // TILEDIALECT_IR_TILEATTRS_H
