//===- EstimateCost.cpp - Roofline cost estimate of tile programs ---------===//

#include "TileDialect/Cost/CostModel.h"
#include "TileDialect/Device/LoweredCost.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Transforms/Passes.h"
#include "WriteReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEESTIMATECOST
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// `1.2 MB`, `3.4 GFLOP`: a count with a decimal prefix.
std::string scaled(uint64_t value, llvm::StringRef unit) {
  const char *prefixes[] = {"", "k", "M", "G", "T"};
  double v = value;
  unsigned p = 0;
  while (v >= 1000 && p < 4) {
    v /= 1000;
    ++p;
  }
  return llvm::formatv("{0:f1} {1}{2}", v, prefixes[p], unit).str();
}

struct TileEstimateCostPass
    : public tileir::impl::TileEstimateCostBase<TileEstimateCostPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<TargetDesc> desc = resolveTarget(target);
    if (!desc) {
      getOperation().emitError(llvm::toString(desc.takeError()));
      return signalPassFailure();
    }
    TileSizeAssignment given;
    for (const std::string &item : sizes) {
      std::string error;
      if (failed(parseTileSizes(item, given, error))) {
        getOperation().emitError(error);
        return signalPassFailure();
      }
    }

    llvm::json::Array programs;
    bool failedAny = false;
    getOperation().walk([&](ProgramOp program) {
      TileSizeAssignment assignment =
          useDefaults ? defaultTileSizes(program, *desc, given) : given;
      std::string why;
      FailureOr<ProgramCost> cost =
          lowered ? estimateAsLowered(program, *desc, &why)
                  : estimate(program, *desc, assignment);
      if (failed(cost)) {
        if (lowered)
          program.emitError("--tile-estimate-cost: the program does not "
                            "lower for ")
              << desc->name << " (lowered=true): " << why;
        failedAny = true;
        return;
      }
      ++numPrograms;
      numKernels += cost->numKernels();
      remark(program, *desc, *cost);
      programs.push_back(toJSON(*cost));
    });
    if (failedAny)
      return signalPassFailure();
    if (!reportPath.empty() && failed(writeReport(*desc, std::move(programs))))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  void remark(ProgramOp program, const TargetDesc &desc,
              const ProgramCost &cost) {
    std::string sizesText;
    llvm::raw_string_ostream os(sizesText);
    llvm::interleaveComma(cost.sizes, os, [&](const auto &size) {
      os << size.first << "=" << size.second;
    });
    program.emitRemark() << "estimated " << llvm::formatv("{0:f1}", cost.timeUs)
                         << " us on " << desc.name << " (" << desc.device
                         << "): " << cost.numKernels() << " kernels, "
                         << scaled(cost.hbmBytes, "B") << " HBM traffic, "
                         << "limited by " << stringifyLimiter(cost.limiter)
                         << "; tile sizes "
                         << (sizesText.empty() ? "none" : sizesText);
    if (!perKernel)
      return;
    for (auto [i, k] : llvm::enumerate(cost.kernels)) {
      InFlightDiagnostic diag =
          mlir::emitRemark(k.stmt ? k.stmt.getLoc() : program.getLoc());
      diag << "kernel " << i << " (" << k.label << "): grid " << k.gridSize;
      if (!k.gridLoops.empty())
        diag << " (" << llvm::join(k.gridLoops, " x ") << ")";
      diag << ", " << k.waves << " wave(s) at "
           << llvm::formatv("{0:f0}", k.gridEfficiency * 100) << "% fill; HBM "
           << scaled(k.hbmReadBytes, "B") << " read ("
           << scaled(k.l2HitBytes, "B") << " from L2), "
           << scaled(k.hbmWriteBytes, "B") << " written, "
           << scaled(k.onChipBytes, "B") << " on chip; "
           << scaled(k.matrixFlops, "FLOP") << " matrix, "
           << scaled(k.vectorFlops, "FLOP") << " vector; "
           << llvm::formatv("{0:f2}", k.timeUs) << " us, limited by "
           << stringifyLimiter(k.limiter);
    }
  }

  LogicalResult writeReport(const TargetDesc &desc,
                            llvm::json::Array programs) {
    llvm::json::Object report{{"target", desc.name},
                              {"device", desc.device},
                              {"programs", std::move(programs)}};
    return writeJSON(getOperation(), reportPath, std::move(report));
  }
};

} // namespace
