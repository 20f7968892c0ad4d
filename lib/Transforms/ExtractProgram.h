//===- ExtractProgram.h - Extraction of one program, for two passes -*- C++
//-*-===//
//
// The work of --tile-extract on one program (saturate, extract, check,
// annotate, replace), shared with --tile-optimize, which also hands over the
// linalg function the program was converted from so that candidates are
// checked against the linalg reference evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_TRANSFORMS_EXTRACTPROGRAM_H
#define TILEDIALECT_LIB_TRANSFORMS_EXTRACTPROGRAM_H

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::tileir {

struct ExtractCounts {
  uint64_t kept = 0, dropped = 0;
};

/// Replaces `program` by its checked candidates (keeps it with
/// `opts.keepInput`), appending its report to `reports`. With `linalg`, the
/// check compares with that function's reference evaluation.
LogicalResult extractProgram(ProgramOp program, const TileExtractOptions &opts,
                             func::FuncOp linalg, llvm::json::Array &reports,
                             ExtractCounts &counts);

/// extractProgram on every program of `module`, each checked against the
/// function of the same name in `linalgFunctions` when given; writes the
/// reports to `reportPath` (if not empty). Fails if any program fails.
LogicalResult extractAll(ModuleOp module, const TileExtractOptions &opts,
                         ModuleOp linalgFunctions, StringRef reportPath,
                         ExtractCounts &counts);

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_TRANSFORMS_EXTRACTPROGRAM_H
