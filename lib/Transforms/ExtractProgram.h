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

#include <chrono>
#include <functional>
#include <optional>

namespace mlir::tileir {

struct ExtractCounts {
  uint64_t kept = 0, dropped = 0;
};

/// Runs one phase of the extraction of a program ("saturate", "extract",
/// "check"), anchored on that program, and returns what it returns; a pass
/// makes it a dynamic pipeline so that --mlir-timing shows the phase under
/// the pass (PhasePass.h).
using PhaseRunner = std::function<LogicalResult(
    StringRef, Operation *, llvm::function_ref<LogicalResult()>)>;

/// What a pass hands the extraction besides its options.
struct ExtractContext {
  /// The end of the wall-clock budget of the whole pass (`budget=`), if any.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Runs each phase; the phase's function is called directly when unset.
  PhaseRunner runPhase;
};

/// Replaces `program` by its checked candidates (keeps it with
/// `opts.keepInput`), appending its report to `reports`. With `linalg`, the
/// check compares with that function's reference evaluation.
/// The phases' limits are capped by what is left of `context.deadline`.
LogicalResult extractProgram(ProgramOp program, const TileExtractOptions &opts,
                             func::FuncOp linalg, llvm::json::Array &reports,
                             ExtractCounts &counts,
                             const ExtractContext &context = {});

/// extractProgram on every program of `module`, each checked against the
/// function of the same name in `linalgFunctions` when given; writes the
/// reports to `reportPath` (if not empty). Fails if any program fails. With
/// a deadline, each program gets an equal share of the time left when its
/// turn comes.
LogicalResult extractAll(ModuleOp module, const TileExtractOptions &opts,
                         ModuleOp linalgFunctions, StringRef reportPath,
                         ExtractCounts &counts,
                         const ExtractContext &context = {});

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_TRANSFORMS_EXTRACTPROGRAM_H
