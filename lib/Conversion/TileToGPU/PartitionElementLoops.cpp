//===- PartitionElementLoops.cpp - Loops run element by element -----------===//

#include "PartitionInternal.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

bool gpu_lowering::readsWrittenElsewhere(
    const Plan &plan, unsigned root, ArrayRef<int64_t> shape,
    ArrayRef<const Access *> writes, const llvm::DenseSet<unsigned> &buffered,
    ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  // `elementwise` tracks whether the path keeps the element index unchanged.
  SmallVector<std::pair<unsigned, bool>> stack{{root, true}};
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  while (!stack.empty()) {
    auto [id, elementwise] = stack.pop_back_val();
    if (!seen.insert({id, unsigned(elementwise)}).second)
      continue;
    if (id != root && buffered.count(id))
      continue;
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Load) {
      for (const Access *w : writes)
        if (mayOverlap(aliases, node.access.tensor, w->tensor) &&
            !(elementwise && sameAccess(node.access, *w) &&
              ArrayRef<int64_t>(node.shape) == shape))
          return true;
      continue;
    }
    bool keeps = node.kind == Kind::Unary || node.kind == Kind::Binary ||
                 node.kind == Kind::Cmp || node.kind == Kind::Select ||
                 node.kind == Kind::Cast || node.kind == Kind::Alias;
    for (unsigned operand : node.operands)
      stack.push_back({operand, elementwise && keeps});
  }
  return false;
}

std::optional<int64_t> gpu_lowering::getElementLoopSize(
    const Plan &plan, unsigned id,
    ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  SmallVector<unsigned> leaves;
  collectSequence(plan, plan.stmts[id].first, leaves);
  if (leaves.empty())
    return std::nullopt;
  SmallVector<const Access *> writes;
  ArrayRef<int64_t> shape = plan.exprs[plan.stmts[leaves[0]].first].shape;
  for (unsigned leaf : leaves) {
    const StmtNode &store = plan.stmts[leaf];
    if (store.kind != StmtNode::Kind::Store ||
        ArrayRef<int64_t>(plan.exprs[store.first].shape) != shape)
      return std::nullopt;
    for (const Access *w : writes)
      if (mayOverlap(aliases, w->tensor, store.access.tensor) &&
          !sameAccess(*w, store.access))
        return std::nullopt;
    writes.push_back(&store.access);
  }
  if (llvm::any_of(leaves, [&](unsigned leaf) {
        return readsWrittenElsewhere(plan, plan.stmts[leaf].first, shape,
                                     writes, {}, aliases);
      }))
    return std::nullopt;
  return plan.exprs[plan.stmts[leaves[0]].first].numElements;
}

std::optional<int64_t>
gpu_lowering::getMatmulLoopElements(const Plan &plan, const StmtNode &body,
                                    const Kernel &kernel) {
  if (body.kind != StmtNode::Kind::Loop ||
      !kernel.perElementLoops.contains(unsigned(&body - plan.stmts.data())))
    return std::nullopt;
  SmallVector<unsigned> leaves;
  collectSequence(plan, body.first, leaves);
  bool matmul = false;
  for (unsigned leaf : leaves) {
    if (plan.stmts[leaf].kind != StmtNode::Kind::Store)
      return std::nullopt;
    forEachLaneMatmul(plan, plan.stmts[leaf].first,
                      [&](unsigned) { matmul = true; });
  }
  if (!matmul || leaves.empty())
    return std::nullopt;
  return plan.exprs[plan.stmts[leaves.front()].first].numElements;
}

bool gpu_lowering::hasMatmulRows(const Plan &plan, const StmtNode &stmt) {
  const StmtNode &body =
      stmt.kind == StmtNode::Kind::Loop ? plan.stmts[stmt.first] : stmt;
  SmallVector<unsigned> leaves;
  collectSequence(plan, unsigned(&body - plan.stmts.data()), leaves);
  bool any = false, rows = true;
  for (unsigned leaf : leaves)
    if (plan.stmts[leaf].kind == StmtNode::Kind::Store)
      forEachLaneMatmul(plan, plan.stmts[leaf].first, [&](unsigned id) {
        any = true;
        rows &= plan.exprs[id].sizes[1] > 1;
      });
  return any && rows;
}
