//===- Tile.cpp - C API of tile-opt ---------------------------------------===//

#include "tile-c/Tile.h"

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/InitAll.h"
#include "TileDialect/Support/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, tileir::TileDialect)

void tileRegisterAllDialects(MlirDialectRegistry registry) {
  tileir::registerAllDialects(*unwrap(registry));
}

// The pass registry is global and registering twice is an error: once per
// process.
void tileRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { tileir::registerAllPasses(); });
}

void tileRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { tileir::registerTilePassesAndPipelines(); });
}

namespace {
/// Hands each diagnostic to the caller as one line, "severity: message",
/// with the location in front when it has one.
void emitLine(MlirStringCallback callback, void *userData,
              const Twine &line) {
  if (!callback)
    return;
  std::string text = line.str();
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "diagnostic";
}
} // namespace

MlirLogicalResult tileRunPassPipeline(MlirModule module, MlirStringRef pipeline,
                                      MlirStringCallback callback,
                                      void *userData) {
  ModuleOp op = unwrap(module);
  MLIRContext *ctx = op.getContext();
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!isa<UnknownLoc>(diag.getLocation()))
      os << diag.getLocation() << ": ";
    os << severityName(diag.getSeverity()) << ": " << diag;
    for (const Diagnostic &note : diag.getNotes())
      os << "\n" << note.getLocation() << ": note: " << note;
    emitLine(callback, userData, text);
    return success();
  });

  StringRef text = unwrap(pipeline);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  PassManager pm(ctx, ModuleOp::getOperationName());
  // "builtin.module(...)" names the anchor the pass manager has already.
  StringRef nested = text.trim();
  if (nested.consume_front("builtin.module(") && nested.ends_with(")"))
    nested = nested.drop_back();
  else
    nested = text;
  if (failed(parsePassPipeline(nested, pm, errorStream))) {
    emitLine(callback, userData,
             "error: cannot parse the pass pipeline '" + text +
                 "': " + StringRef(errors).trim());
    return mlirLogicalResultFailure();
  }
  return wrap(pm.run(op));
}

MlirStringRef tileGetVersion(void) {
  return mlirStringRefCreateFromCString(tileir::getTileVersionString());
}
