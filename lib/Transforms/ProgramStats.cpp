//===- ProgramStats.cpp - Summarize tile programs -------------------------===//

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEPROGRAMSTATS
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// The number of nodes of the tree a value denotes once the DAG is unfolded,
/// saturating at UINT64_MAX.
uint64_t treeSize(Value value, DenseMap<Operation *, uint64_t> &memo) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return 0;
  if (auto it = memo.find(op); it != memo.end())
    return it->second;
  uint64_t size = 1;
  for (Value operand : op->getOperands()) {
    uint64_t sub = treeSize(operand, memo);
    size = (UINT64_MAX - size < sub) ? UINT64_MAX : size + sub;
  }
  memo[op] = size;
  return size;
}

struct TileProgramStatsPass
    : public tileir::impl::TileProgramStatsBase<TileProgramStatsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file;
    if (outputPath != "-") {
      file = openOutputFile(outputPath, &error);
      if (!file) {
        getOperation().emitError("cannot open '")
            << outputPath << "': " << error;
        return signalPassFailure();
      }
    }
    llvm::raw_ostream &os = file ? file->os() : llvm::errs();
    getOperation().walk([&](ProgramOp program) { summarize(program, os); });
    if (file)
      file->keep();
  }

  void summarize(ProgramOp program, llvm::raw_ostream &os) {
    ++numPrograms;
    os << "tile.program @" << program.getSymName() << "\n";

    // Tensors by role.
    unsigned byRole[5] = {0, 0, 0, 0, 0};
    for (BlockArgument arg : program.getBodyBlock().getArguments())
      ++byRole[static_cast<unsigned>(
          cast<TensorRefType>(arg.getType()).getRole())];
    os << "  tensors: " << program.getBodyBlock().getNumArguments() << " (";
    // Positions tensors (linalg.index) only where the program has them.
    unsigned numRoles = byRole[4] ? 5 : 4;
    llvm::interleaveComma(
        llvm::seq<unsigned>(0, numRoles), os, [&](unsigned role) {
          os << stringifyTensorRole(static_cast<TensorRole>(role)) << " "
             << byRole[role];
        });
    os << ")\n";

    // Top-level statements and loop nests.
    SmallVector<Value> topLevel;
    if (Value root = program.getRoot())
      collectSequenceLeaves(root, topLevel);
    unsigned nests = llvm::count_if(
        topLevel, [](Value stmt) { return stmt.getDefiningOp<LoopOp>(); });
    numKernels += nests;
    os << "  top-level loop nests: " << nests << " of " << topLevel.size()
       << " top-level statements\n";

    // Loop variables with their iteration spaces.
    llvm::MapVector<Value, LoopOp> firstLoop;
    unsigned numLoops = 0;
    for (auto loop : program.getBodyBlock().getOps<LoopOp>()) {
      ++numLoops;
      firstLoop.insert({loop.getVar(), loop});
    }
    os << "  loops: " << numLoops << " over " << firstLoop.size()
       << " loop variables\n";
    for (auto &[var, loop] : firstLoop) {
      os << "    " << loop.getVarOp().getName() << " in ["
         << loop.getStartIndex() << ", " << loop.getEndIndex() << ") step "
         << *loop.getStepDim() << "\n";
    }

    // Symbolic tile sizes.
    SmallVector<StringRef> symbols;
    for (auto size : program.getBodyBlock().getOps<SizeOp>())
      if (auto sym = dyn_cast<StringAttr>(size.getValue()))
        symbols.push_back(sym.getValue());
    llvm::sort(symbols);
    os << "  tile sizes: ";
    if (symbols.empty())
      os << "none";
    llvm::interleaveComma(symbols, os);
    os << "\n";

    // DAG size against tree size, and op kinds.
    llvm::StringMap<unsigned> kinds;
    unsigned dagOps = 0;
    for (Operation &op : program.getBodyBlock().without_terminator()) {
      ++dagOps;
      ++kinds[op.getName().getStringRef()];
    }
    DenseMap<Operation *, uint64_t> memo;
    uint64_t tree = program.getRoot() ? treeSize(program.getRoot(), memo) : 0;
    os << "  ops: " << dagOps << " in the DAG, " << tree
       << " in the program tree\n";
    SmallVector<StringRef> names(kinds.keys());
    llvm::sort(names);
    for (StringRef name : names)
      os << "    " << name << ": " << kinds[name] << "\n";
  }
};

} // namespace
