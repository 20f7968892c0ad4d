//===- PlanTraversal.cpp - Statements, stores and accesses of a plan ------===//

#include "PartitionInternal.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

void gpu_lowering::collectSequence(const Plan &plan, unsigned id,
                                   SmallVectorImpl<unsigned> &out) {
  while (true) {
    const StmtNode &stmt = plan.stmts[id];
    if (stmt.kind == StmtNode::Kind::Nop)
      return;
    if (stmt.kind != StmtNode::Kind::Seq) {
      out.push_back(id);
      return;
    }
    collectSequence(plan, stmt.first, out);
    id = stmt.second;
  }
}

void gpu_lowering::postOrder(const Plan &plan, unsigned root,
                             llvm::function_ref<void(unsigned)> visit) {
  llvm::DenseSet<unsigned> seen;
  // (node, operands pushed)
  SmallVector<std::pair<unsigned, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [id, expanded] = stack.pop_back_val();
    if (expanded) {
      visit(id);
      continue;
    }
    if (!seen.insert(id).second)
      continue;
    stack.push_back({id, true});
    for (unsigned operand : llvm::reverse(plan.exprs[id].operands))
      if (!seen.count(operand))
        stack.push_back({operand, false});
  }
}

/// Calls `fn` on every store in statement `id`, in program order.
static void forEachStore(const Plan &plan, unsigned id,
                         llvm::function_ref<void(const StmtNode &)> fn) {
  const StmtNode &stmt = plan.stmts[id];
  switch (stmt.kind) {
  case StmtNode::Kind::Nop:
    return;
  case StmtNode::Kind::Seq:
    forEachStore(plan, stmt.first, fn);
    forEachStore(plan, stmt.second, fn);
    return;
  case StmtNode::Kind::Loop:
    forEachStore(plan, stmt.first, fn);
    return;
  case StmtNode::Kind::Store:
    fn(stmt);
    return;
  }
}

void gpu_lowering::collectAccesses(const Plan &plan, unsigned id,
                                   SmallVectorImpl<const Access *> &writes,
                                   SmallVectorImpl<const Access *> &reads) {
  forEachStore(plan, id, [&](const StmtNode &store) {
    writes.push_back(&store.access);
    postOrder(plan, store.first, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load)
        reads.push_back(&plan.exprs[e].access);
    });
  });
}

void gpu_lowering::collectLoads(const Plan &plan, unsigned id,
                                SmallVectorImpl<unsigned> &loads) {
  forEachStore(plan, id, [&](const StmtNode &store) {
    postOrder(plan, store.first, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load && !llvm::is_contained(loads, e))
        loads.push_back(e);
    });
  });
}

void gpu_lowering::forEachLaneMatmul(const Plan &plan, unsigned id,
                                     llvm::function_ref<void(unsigned)> fn) {
  const ExprNode &node = plan.exprs[id];
  switch (node.kind) {
  case Kind::Matmul:
    fn(id);
    return;
  case Kind::Unary:
  case Kind::Binary:
  case Kind::Cast:
    for (unsigned operand : node.operands)
      forEachLaneMatmul(plan, operand, fn);
    return;
  default:
    return;
  }
}

bool gpu_lowering::movesWithLoop(const Access &access, unsigned var) {
  return llvm::any_of(access.dims, [&](const DimIndex &dim) {
    return (dim.kind == DimIndex::Kind::Tile ||
            dim.kind == DimIndex::Kind::Elem) &&
           dim.var == var;
  });
}

bool gpu_lowering::sameAccess(const Access &a, const Access &b) {
  if (a.tensor != b.tensor || a.dims.size() != b.dims.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a.dims, b.dims))
    if (x.kind != y.kind || x.var != y.var || x.base != y.base ||
        x.extent != y.extent)
      return false;
  return true;
}

bool gpu_lowering::mayOverlap(ArrayRef<std::pair<unsigned, unsigned>> aliases,
                              unsigned x, unsigned y) {
  return x == y || llvm::is_contained(aliases, std::make_pair(x, y)) ||
         llvm::is_contained(aliases, std::make_pair(y, x));
}

bool gpu_lowering::readsTensor(const Plan &plan, unsigned root,
                               unsigned tensor,
                               ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  bool reads = false;
  postOrder(plan, root, [&](unsigned e) {
    const ExprNode &node = plan.exprs[e];
    reads |= node.kind == Kind::Load &&
             mayOverlap(aliases, node.access.tensor, tensor);
  });
  return reads;
}

bool gpu_lowering::isAliased(ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             unsigned tensor) {
  return llvm::any_of(aliases, [&](std::pair<unsigned, unsigned> pair) {
    return pair.first == tensor || pair.second == tensor;
  });
}

bool gpu_lowering::storesReduction(const Plan &plan, unsigned id) {
  bool reduces = false;
  postOrder(plan, plan.stmts[id].first, [&](unsigned e) {
    reduces |= plan.exprs[e].kind == Kind::Reduce;
  });
  return reduces;
}

unsigned gpu_lowering::skipAliases(const Plan &plan, unsigned id) {
  while (plan.exprs[id].kind == Kind::Alias)
    id = plan.exprs[id].operands[0];
  return id;
}

std::optional<unsigned> gpu_lowering::getTransposedOperand(const Plan &plan,
                                                           unsigned id) {
  const ExprNode &node = plan.exprs[id];
  int64_t rank = node.shape.size();
  if (node.kind != Kind::Gather || rank < 2)
    return std::nullopt;
  if (auto permute = dyn_cast_or_null<PermuteOp>(node.op)) {
    SmallVector<int64_t> swapLast =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(swapLast.end()[-1], swapLast.end()[-2]);
    if (permute.getPermutation() == ArrayRef<int64_t>(swapLast))
      return node.operands[0];
  }
  if (auto transpose = dyn_cast_or_null<TransposeOp>(node.op)) {
    int64_t lo = std::min(transpose.dim0(), transpose.dim1()),
            hi = std::max(transpose.dim0(), transpose.dim1());
    if (lo == rank - 2 && hi == rank - 1)
      return node.operands[0];
  }
  return std::nullopt;
}

int64_t gpu_lowering::getKLaneWidth(const Plan &plan, unsigned id,
                                    ArrayRef<ElementKind> tensorKinds,
                                    bool mma) {
  const ExprNode &node = plan.exprs[id];
  if (node.kind != Kind::Matmul)
    return 0;
  std::optional<unsigned> source = getTransposedOperand(plan, node.operands[1]);
  if (!source)
    return 0;
  const ExprNode *load = &plan.exprs[skipAliases(plan, *source)];
  if (load->kind != Kind::Load || load->access.tensor >= tensorKinds.size())
    return 0;
  // The matrix units' rows: multiples of 16 of f16 or bf16 operands.
  ElementKind left = plan.exprs[node.operands[0]].elementKind;
  if (mma && node.sizes[1] % 16 == 0 && isHalfKind(left) &&
      plan.exprs[node.operands[1]].elementKind == left)
    return 0;
  // 16 bytes of the stored elements.
  int64_t width = 0;
  switch (tensorKinds[load->access.tensor]) {
  case ElementKind::F16:
  case ElementKind::BF16:
    width = 8;
    break;
  case ElementKind::F32:
    width = 4;
    break;
  case ElementKind::F64:
    width = 2;
    break;
  case ElementKind::I1:
    return 0;
  }
  int64_t k = node.sizes[2];
  while (width > 1 && k % width != 0)
    width /= 2;
  return width;
}
