//===- ConvertLinalgToTile.cpp - The convert-linalg-to-tile pass ----------===//

#include "Plan.h"
#include "TileDialect/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_CONVERTLINALGTOTILE
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

FailureOr<ProgramOp>
mlir::tileir::convertFuncToTileProgram(func::FuncOp func,
                                       bool ownReductionVariables) {
  FailureOr<linalg_to_tile::Plan> plan =
      linalg_to_tile::planConversion(func, ownReductionVariables);
  if (failed(plan))
    return failure();
  FailureOr<ProgramOp> program = linalg_to_tile::emitProgram(*plan);
  if (failed(program))
    return failure();
  if (failed(verify(*program))) {
    program->erase();
    return func.emitOpError("internal error: the tile program converted from "
                            "this function does not verify");
  }
  return program;
}

/// Replaces every `OpT` of `func` by the ops its decomposeOperation builds.
template <typename OpT>
static LogicalResult decomposeAll(func::FuncOp func) {
  SmallVector<OpT> ops;
  func.walk([&](OpT op) { ops.push_back(op); });
  for (OpT op : ops) {
    OpBuilder builder(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(builder);
    if (failed(results))
      return op->emitOpError("cannot be converted to tile: it could not be "
                             "decomposed");
    op->replaceAllUsesWith(*results);
    op->erase();
  }
  return success();
}

/// Decomposes aggregate ops (linalg.softmax) into the structured ops they
/// stand for, and tensor.concat (torch.cat: rotary embedding's rotate_half)
/// into the insert_slices of its operands into an empty tensor.
static LogicalResult decomposeAggregates(func::FuncOp func) {
  if (failed(decomposeAll<linalg::AggregatedOpInterface>(func)))
    return failure();
  return decomposeAll<tensor::ConcatOp>(func);
}

/// Front ends broadcast a dimension of extent 1 by indexing it with the
/// constant 0 (torch-mlir: `(d0, 0, d2, d3)` reads a [1, 1, M, P] mask for
/// every head). Such an input of a linalg.generic is read through a
/// collapse_shape that drops those dimensions, and its map drops the
/// constants: a projected permutation, as the conversion takes.
static void dropUnitBroadcastIndices(func::FuncOp func) {
  func.walk([](linalg::GenericOp op) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      AffineMap &map = maps[input->getOperandNumber()];
      // Reassociation: each kept dimension with the dropped ones before it
      // (trailing dropped ones join the last group).
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      SmallVector<AffineExpr> kept;
      for (auto [j, expr] : llvm::enumerate(map.getResults())) {
        pending.push_back(j);
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        if (constant && constant.getValue() == 0 && type.getDimSize(j) == 1)
          continue;
        kept.push_back(expr);
        groups.push_back(std::move(pending));
        pending.clear();
      }
      if (kept.size() == map.getNumResults())
        continue;
      if (!groups.empty())
        llvm::append_range(groups.back(), pending);
      OpBuilder b(op);
      Value collapsed = tensor::CollapseShapeOp::create(
          b, op.getLoc(), input->get(), groups);
      input->set(collapsed);
      map = AffineMap::get(map.getNumDims(), map.getNumSymbols(), kept,
                           op.getContext());
      changed = true;
    }
    if (changed)
      op.setIndexingMapsAttr(
          OpBuilder(op).getAffineMapArrayAttr(maps));
  });
}

namespace {

struct ConvertLinalgToTilePass
    : public tileir::impl::ConvertLinalgToTileBase<ConvertLinalgToTilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Work on a copy so that a refusal leaves the module as it was.
    OwningOpRef<ModuleOp> work = module.clone();
    SmallVector<func::FuncOp> funcs;
    for (auto func : work->getOps<func::FuncOp>())
      if (!func.isExternal())
        funcs.push_back(func);
    bool failedAny = false;
    for (func::FuncOp func : funcs) {
      if (failed(decomposeAggregates(func))) {
        failedAny = true;
        continue;
      }
      dropUnitBroadcastIndices(func);
      FailureOr<ProgramOp> program = failure();
      if (fuse) {
        // Fusion can merge ops into a generic the conversion refuses (two
        // results, an init read back, an argument updated and read): then
        // the function is converted as written, with a remark.
        OwningOpRef<func::FuncOp> unfused = func.clone();
        linalg_to_tile::fuseElementwise(func, prologues ? prologueMaxColumns
                                                        : int64_t(-1));
        std::string why;
        {
          ScopedDiagnosticHandler quiet(&getContext(), [&](Diagnostic &d) {
            if (why.empty())
              why = d.str();
            return success();
          });
          program = convertFuncToTileProgram(func, ownReductionVariables);
        }
        if (failed(program)) {
          func::FuncOp original = unfused.release();
          work->getBody()->getOperations().insert(func->getIterator(),
                                                  original);
          func.erase();
          func = original;
          program = convertFuncToTileProgram(func, ownReductionVariables);
          if (succeeded(program))
            emitRemark(func.getLoc())
                << "@" << func.getSymName()
                << " converted without elementwise fusion: fused, it is "
                   "refused (" << why << ")";
        }
      } else {
        program = convertFuncToTileProgram(func, ownReductionVariables);
      }
      if (failed(program)) {
        failedAny = true;
        continue;
      }
      ++numPrograms;
      func.erase();
    }
    if (failedAny)
      return signalPassFailure();
    module.getBodyRegion().takeBody(work->getBodyRegion());
  }
};

} // namespace
