//===- ProgramFacts.cpp - Input-program facts the guards rely on ----------===//

#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Rules/Natives.h"

using namespace mlir;
using namespace mlir::tileir;

/// Stores reachable from a statement through operands.
static void collectStores(Value stmt, llvm::SmallVectorImpl<StoreOp> &out) {
  llvm::SmallVector<Value> work{stmt};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (auto store = dyn_cast<StoreOp>(op)) {
      out.push_back(store);
      continue; // a store's value has no statements
    }
    for (Value operand : op->getOperands())
      if (isa<StmtType>(operand.getType()))
        work.push_back(operand);
  }
}

/// Whether some op of the expression `store` writes satisfies `pred` (the
/// walk stops below loads).
static bool valueHasOp(StoreOp store,
                       llvm::function_ref<bool(Operation *)> pred) {
  llvm::SmallVector<Value> work{store.getValue()};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (pred(op))
      return true;
    if (isa<LoadOp>(op))
      continue;
    for (Value operand : op->getOperands())
      work.push_back(operand);
  }
  return false;
}

/// Whether `store` is `T[i] = f(T[i], ...)`.
static bool isAccumulation(StoreOp store) {
  return valueHasOp(store, [&](Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    return load && load.getTensor() == store.getTensor() &&
           load.getIndices() == store.getIndices();
  });
}

/// Whether a matmul computes any value `store` writes.
static bool storesMatmul(StoreOp store) {
  return valueHasOp(store, [](Operation *op) { return isa<MatmulOp>(op); });
}

/// The classes of top-level statement `stmt` and of tensor `t`'s leaf (read
/// off one of the statement's stores of t), if no store of the statement
/// computes a matmul: recomputing a statistic (a sum, a sum of squares) per
/// iteration of a later loop is what RecomputeBeforeLegal is for; repeating
/// a contraction multiplies matrix work and grows the e-graph for nothing.
static std::optional<ProgramFacts::Writer> writerClasses(TileEGraph &tg,
                                                         Value stmt, Value t) {
  const auto &nodes = tg.getOriginalNodes();
  auto nodeOf = nodes.find(stmt.getDefiningOp());
  if (nodeOf == nodes.end())
    return std::nullopt;
  std::optional<egraph::Id> cls = tg.graph().lookup(nodeOf->second);
  llvm::SmallVector<StoreOp> stores;
  collectStores(stmt, stores);
  if (llvm::any_of(stores, storesMatmul))
    return std::nullopt;
  for (StoreOp store : stores) {
    auto storeNode = nodes.find(store);
    if (cls && store.getTensor() == t && storeNode != nodes.end())
      return ProgramFacts::Writer{*cls, storeNode->second.children[1]};
  }
  return std::nullopt;
}

ProgramFacts mlir::tileir::computeProgramFacts(TileEGraph &tg,
                                               ProgramOp program) {
  ProgramFacts facts;
  Block &body = program.getBody().front();
  // Per tensor: the top-level statement writing it (-1: several) and whether
  // all its writes accumulate.
  llvm::DenseMap<Value, int> writer;
  llvm::DenseMap<Value, bool> accumulates;
  llvm::SmallVector<Value> stmts;
  collectSequenceLeaves(program.getRoot(), stmts);
  for (auto [i, stmt] : llvm::enumerate(stmts)) {
    llvm::SmallVector<StoreOp> stores;
    collectStores(stmt, stores);
    for (StoreOp store : stores) {
      Value t = store.getTensor();
      auto [it, inserted] = writer.try_emplace(t, (int)i);
      if (!inserted && it->second != (int)i)
        it->second = -1;
      auto [acc, fresh] = accumulates.try_emplace(t, true);
      acc->second = acc->second && isAccumulation(store);
    }
  }
  for (unsigned i = 0, e = body.getNumArguments(); i < e; ++i) {
    Value arg = body.getArgument(i);
    // Intermediates and outputs start as zeros (docs/Guide.md); inputs are
    // never written and inouts start with the caller's data.
    auto type = cast<TensorRefType>(arg.getType());
    if (type.getRole() != TensorRole::Intermediate &&
        type.getRole() != TensorRole::Output)
      continue;
    auto it = writer.find(arg);
    if (it == writer.end() || it->second < 0 || !accumulates.lookup(arg))
      continue;
    uint32_t id = tg.getTensorId(
        StringAttr::get(program.getContext(), program.getTensorName(i)));
    facts.zeroInitAccumulators.insert(id);
    if (std::optional<ProgramFacts::Writer> w =
            writerClasses(tg, stmts[it->second], arg))
      facts.accumulatorWriters[id] = *w;
  }
  return facts;
}
