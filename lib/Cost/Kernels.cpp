//===- Kernels.cpp - Kernel boundaries and parallel loops -----------------===//

#include "Kernels.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::cost;

Value cost::indexVar(Value index) {
  if (auto tile = index.getDefiningOp<TileIndexOp>())
    return tile.getVar();
  if (auto elem = index.getDefiningOp<ElemIndexOp>())
    return elem.getVar();
  return {};
}

void cost::forEachStore(Value stmt, llvm::function_ref<void(StoreOp)> fn) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{stmt};
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (auto seq = dyn_cast<SeqOp>(op)) {
      work.push_back(seq.getSecond());
      work.push_back(seq.getFirst());
    } else if (auto loop = dyn_cast<LoopOp>(op)) {
      work.push_back(loop.getBody());
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      fn(store);
    }
  }
}

void cost::forEachValueOp(Value value,
                          llvm::function_ref<void(Operation *)> fn) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !isa<TileType>(op->getResult(0).getType()) ||
        !seen.insert(op).second)
      continue;
    fn(op);
    if (!isa<LoadOp>(op))
      llvm::append_range(work, op->getOperands());
  }
}

namespace {

/// How an access indexes by one loop variable: (dimension, is elem).
using VarDim = std::pair<unsigned, bool>;

/// The dimensions `indices` select by `var`, with their kind.
llvm::SmallVector<VarDim> varDims(OperandRange indices, Value var) {
  llvm::SmallVector<VarDim> dims;
  for (auto [d, index] : llvm::enumerate(indices))
    if (indexVar(index) == var)
      dims.push_back(
          {d, static_cast<bool>(index.getDefiningOp<ElemIndexOp>())});
  return dims;
}

} // namespace

bool cost::isParallel(LoopOp loop) {
  Value var = loop.getVar();
  // For each tensor stored in the body, the (dimension, kind) pairs on `var`
  // that every store of it shares.
  llvm::MapVector<Value, llvm::SmallVector<VarDim>> partition;
  bool parallel = true;
  forEachStore(loop.getBody(), [&](StoreOp store) {
    llvm::SmallVector<VarDim> dims = varDims(store.getIndices(), var);
    if (dims.empty())
      parallel = false;
    auto [it, inserted] = partition.try_emplace(store.getTensor(), dims);
    if (!inserted)
      llvm::erase_if(it->second,
                     [&](VarDim d) { return !llvm::is_contained(dims, d); });
  });
  if (!parallel)
    return false;
  for (auto &entry : partition)
    if (entry.second.empty())
      return false;
  // Loads of stored tensors read the partition their iteration writes.
  forEachStore(loop.getBody(), [&](StoreOp store) {
    forEachValueOp(store.getValue(), [&](Operation *op) {
      auto load = dyn_cast<LoadOp>(op);
      if (!load)
        return;
      auto it = partition.find(load.getTensor());
      if (it == partition.end())
        return;
      llvm::SmallVector<VarDim> dims = varDims(load.getIndices(), var);
      if (!llvm::any_of(dims, [&](VarDim d) {
            return llvm::is_contained(it->second, d);
          }))
        parallel = false;
    });
  });
  return parallel;
}

llvm::SmallVector<Kernel> cost::partitionKernels(ProgramOp program) {
  llvm::SmallVector<Kernel> kernels;
  Value root = program.getRoot();
  if (!root)
    return kernels;
  SmallVector<Value> topLevel;
  collectSequenceLeaves(root, topLevel);
  bool inRun = false; // whether kernels.back() is a straight-line run
  for (Value stmt : topLevel) {
    if (stmt.getDefiningOp<NopOp>())
      continue;
    auto loop = stmt.getDefiningOp<LoopOp>();
    if (!loop) {
      if (!inRun)
        kernels.emplace_back();
      kernels.back().stmts.push_back(stmt);
      inRun = true;
      continue;
    }
    inRun = false;
    Kernel &kernel = kernels.emplace_back();
    kernel.stmts.push_back(stmt);
    // The grid: perfectly nested parallel loops from the top.
    for (LoopOp l = loop; l && isParallel(l);
         l = l.getBody().getDefiningOp<LoopOp>())
      kernel.grid.push_back(l);
  }
  return kernels;
}
