//===- WriteReport.h - Report files of the tile passes ----------*- C++ -*-===//
//
// The passes' `report=`, `dot=` and `output=` files: a path, or `-` for
// standard output; an error at `anchor` when the file cannot be written.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_TRANSFORMS_WRITEREPORT_H
#define TILEDIALECT_LIB_TRANSFORMS_WRITEREPORT_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"

namespace mlir::tileir {

LogicalResult writeText(Operation *anchor, StringRef path,
                        llvm::function_ref<void(raw_ostream &)> write);

/// Writes `value` pretty-printed (two-space indent) and a newline.
LogicalResult writeJSON(Operation *anchor, StringRef path,
                        llvm::json::Value value);

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_TRANSFORMS_WRITEREPORT_H
