//===- PipelineLoads.cpp - Global loads issued iterations ahead -----------===//
//
// `--tile-pipeline-loads`: decides which kernel loops may have their global
// loads moved ahead and how (the schedule, the predication of loads past a
// dynamic loop's end); upstream's `scf::pipelineForLoop` does the rewrite.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEPIPELINELOADS
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

/// A load of a memref in global memory: no memory space, or gpu's global.
static bool isGlobalLoad(Operation *op) {
  Value memref;
  if (auto load = dyn_cast<vector::LoadOp>(op))
    memref = load.getBase();
  else if (auto load = dyn_cast<memref::LoadOp>(op))
    memref = load.getMemRef();
  else
    return false;
  Attribute space = cast<MemRefType>(memref.getType()).getMemorySpace();
  if (!space)
    return true;
  auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
  return gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global;
}

/// Whether `op` and everything nested in it at most read memory (effects
/// known), so that no load of the loop can observe a write by moving.
static bool onlyReads(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](const auto &instance) {
           return isa<MemoryEffects::Read>(instance.getEffect());
         });
}

/// The ops of `loop`'s body that run ahead: its global loads and, within
/// the body, everything their operands come from. Empty when the loop
/// does not qualify (see the pass description).
static SetVector<Operation *> aheadOps(scf::ForOp loop, unsigned distance) {
  Block *body = loop.getBody();
  SetVector<Operation *> ahead;
  auto fail = [&] {
    ahead.clear();
    return ahead;
  };
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (trips && trips->ule(distance))
    return fail();
  if (!onlyReads(loop))
    return fail();

  SmallVector<Operation *> worklist;
  for (Operation &op : body->without_terminator())
    if (isGlobalLoad(&op))
      worklist.push_back(&op);
  if (worklist.empty())
    return fail();
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!ahead.insert(op))
      continue;
    if (op->getNumRegions() != 0)
      return fail();
    if (!isGlobalLoad(op) && !(isMemoryEffectFree(op) && isSpeculatable(op)))
      return fail();
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() == body && arg != loop.getInductionVar())
          return fail(); // A value the loop carries.
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (def->getBlock() == body)
        worklist.push_back(def);
    }
  }
  return ahead;
}

/// The predicated form of an op running ahead, for the iterations past a
/// dynamic loop's end: loads under `scf.if` (zeros otherwise); the other
/// ops are speculatable and stay as they are.
static Operation *predicate(RewriterBase &rewriter, Operation *op,
                            Value condition) {
  if (!isGlobalLoad(op))
    return op;
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  rewriter.setInsertionPoint(op);
  auto ifOp = scf::IfOp::create(
      rewriter, loc, condition,
      [&](OpBuilder &b, Location) {
        scf::YieldOp::create(b, loc, b.clone(*op)->getResults());
      },
      [&](OpBuilder &b, Location) {
        Value zero = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
        scf::YieldOp::create(b, loc, zero);
      });
  rewriter.replaceOp(op, ifOp.getResults());
  return ifOp;
}

namespace {
class PipelineLoadsPass
    : public tileir::impl::TilePipelineLoadsBase<PipelineLoadsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    FailureOr<GPUConfigAttr> c = resolveGPUConfig(getOperation(), config);
    if (failed(c))
      return signalPassFailure();
    // Each kernel's distance: its own (a statement configured apart) or
    // the module's.
    SmallVector<std::pair<scf::ForOp, unsigned>> loops;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      unsigned distance = c->getPipelineLoads();
      if (auto own = func->getAttrOfType<IntegerAttr>(kPipelineLoadsAttrName))
        distance = own.getInt();
      if (distance)
        func.walk([&](scf::ForOp loop) { loops.push_back({loop, distance}); });
    });
    IRRewriter rewriter(&getContext());
    for (auto [loop, distance] : loops) { // Innermost first (post-order).
      SetVector<Operation *> ahead = aheadOps(loop, distance);
      if (ahead.empty())
        continue;
      scf::PipeliningOption options;
      options.getScheduleFn =
          [&](scf::ForOp forOp,
              std::vector<std::pair<Operation *, unsigned>> &schedule) {
            for (Operation &op : forOp.getBody()->without_terminator())
              if (ahead.contains(&op))
                schedule.push_back({&op, 0});
            for (Operation &op : forOp.getBody()->without_terminator())
              if (!ahead.contains(&op))
                schedule.push_back({&op, unsigned(distance)});
          };
      bool dynamic = !loop.getStaticTripCount();
      options.supportDynamicLoops = dynamic;
      options.peelEpilogue = !dynamic;
      options.predicateFn = predicate;
      rewriter.setInsertionPoint(loop);
      bool modified = false;
      if (succeeded(scf::pipelineForLoop(rewriter, loop, options, &modified)))
        ++numPipelined;
      else if (modified) {
        loop.emitError("load pipelining left the loop half rewritten");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
