//===- CheckLowered.cpp - What ships, checked on the host -----------------===//

#include "TileDialect/Device/CheckLowered.h"
#include "TileDialect/Device/HostEmulation.h"
#include "TileDialect/Runtime/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/TargetSelect.h"

#include <sstream>

using namespace mlir;
using namespace mlir::tileir;

void tileir::initializeLoweredChecks() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

LoweredCheck tileir::checkLoweredKernels(ProgramOp program,
                                         const DeviceCompileOptions &options,
                                         ArrayRef<runtime::TensorInit> inits,
                                         ArrayRef<ExpectedOutput> expected) {
  LoweredCheck result;
  // A private context (same dialects, no threads of its own): the caller's
  // may be running passes on other threads.
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    flags.printGenericOpForm().enableDebugInfo(false);
    program->print(os, flags);
  }
  MLIRContext ctx(program.getContext()->getDialectRegistry(),
                  MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (!diagnostics.empty())
        diagnostics += "; ";
      diagnostics += diag.str();
    }
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>("module {" + text + "}", &ctx);
  auto copy = module ? *module->getOps<ProgramOp>().begin() : ProgramOp();
  if (!copy) {
    result.detail = "cannot copy the program: " + diagnostics;
    return result;
  }

  // Lowered as for the device, but without matrix-unit register ops, which
  // the host cannot run.
  DeviceCompileOptions emulated = options;
  emulated.emulate = true;
  std::string error;
  FailureOr<GPUConfigAttr> given =
      GPUConfigAttr::parseBody(&ctx, options.config, error);
  if (failed(given)) {
    result.detail = error;
    return result;
  }
  emulated.config = given->with("mma", false).getBody();
  OwningOpRef<ModuleOp> lowered;
  FailureOr<runtime::Artifact> artifact = compileArtifact(
      copy, emulated, inits, expected, /*loweredConfig=*/nullptr, &lowered);
  if (failed(artifact)) {
    result.detail = "the lowering failed: " + diagnostics;
    return result;
  }
  std::unique_ptr<runtime::Device> host = createHostEmulation(
      *lowered, copy.getSymName().str() + "_kernels");
  if (!host) {
    result.detail = "the emulation cannot run the kernels: " + diagnostics;
    return result;
  }
  runtime::RunOptions run;
  run.quiet = true;
  run.tolerance = options.tolerance;
  std::ostringstream out, err;
  int status = runtime::runArtifactOn(*artifact, *host, run, out, err);
  if (status == 0) {
    result.status = LoweredCheck::Status::Passed;
    return result;
  }
  // The lines of the outputs that differ (quiet: only those and the
  // summary), or the runtime's error.
  std::string lines = out.str() + err.str();
  while (!lines.empty() && lines.back() == '\n')
    lines.pop_back();
  for (char &c : lines)
    if (c == '\n')
      c = ';';
  result.detail = "the emulated kernels differ: " + lines;
  return result;
}
