//===- Executor.cpp - Run a resolved tile program -------------------------===//
//
// Executes a `Plan`: statements in order, loops binding their variable slot,
// and each store's value expression evaluated bottom-up into the nodes'
// preallocated buffers. A node shared within one store's expression is
// computed once (all loads of one store happen at the same point of
// execution); every store starts a new evaluation, so nothing is reused
// across stores or iterations, as the tree semantics of the dialect demands.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Interpreter/Plan.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;

namespace {

class Executor {
public:
  Executor(Plan &plan, MutableArrayRef<HostTensor> tensors,
           std::optional<std::chrono::steady_clock::time_point> deadline)
      : plan(plan), tensors(tensors), vars(plan.numVars, 0),
        deadline(deadline) {}

  /// Executes statement `id`; false once the deadline has passed.
  bool run(unsigned id);

private:
  /// The value of expression `id` in the current evaluation.
  const double *eval(unsigned id);

  Plan &plan;
  MutableArrayRef<HostTensor> tensors;
  /// The current value of each loop variable.
  SmallVector<int64_t, 8> vars;
  /// The number of the current store's evaluation; node stamps equal to it
  /// mark values computed during it.
  uint64_t evaluation = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

} // namespace

bool Executor::run(unsigned id) {
  // Sequences are right-nested: iterate along the second statement instead
  // of recursing.
  while (true) {
    const StmtNode &stmt = plan.stmts[id];
    switch (stmt.kind) {
    case StmtNode::Kind::Nop:
      return true;
    case StmtNode::Kind::Seq:
      if (!run(stmt.first))
        return false;
      id = stmt.second;
      continue;
    case StmtNode::Kind::Loop:
      for (int64_t v = stmt.start; v < stmt.end; v += stmt.step) {
        vars[stmt.var] = v;
        if (!run(stmt.first))
          return false;
      }
      return true;
    case StmtNode::Kind::Store: {
      ++evaluation;
      if (deadline && evaluation % 4096 == 0 &&
          std::chrono::steady_clock::now() > *deadline)
        return false;
      const double *value = eval(stmt.first);
      HostTensor &tensor = tensors[stmt.access.tensor];
      // Every tile value already holds values of its element type, which is
      // the tensor's, so the store needs no rounding.
      stmt.access.copy.run(value,
                           tensor.data.data() + stmt.access.offset(vars));
      return true;
    }
    }
  }
}

const double *Executor::eval(unsigned id) {
  ExprNode &node = plan.exprs[id];
  if (node.stamp == evaluation)
    return node.value;
  double *out = node.buffer.data();
  int64_t n = node.numElements;
  switch (node.kind) {
  case ExprNode::Kind::Load: {
    const HostTensor &tensor = tensors[node.access.tensor];
    node.access.copy.run(tensor.data.data() + node.access.offset(vars), out);
    break;
  }
  case ExprNode::Kind::Constant:
    break;
  case ExprNode::Kind::Unary:
    applyUnary(node.unaryFn, eval(node.operands[0]), out, n);
    break;
  case ExprNode::Kind::Binary: {
    const double *lhs = eval(node.operands[0]);
    const double *rhs = eval(node.operands[1]);
    applyBinary(node.binaryFn, lhs, rhs, out, n);
    break;
  }
  case ExprNode::Kind::Cmp: {
    const double *lhs = eval(node.operands[0]);
    const double *rhs = eval(node.operands[1]);
    applyCmp(node.cmpFn, lhs, rhs, out, n);
    break;
  }
  case ExprNode::Kind::Select: {
    const double *cond = eval(node.operands[0]);
    const double *onTrue = eval(node.operands[1]);
    const double *onFalse = eval(node.operands[2]);
    applySelect(cond, onTrue, onFalse, out, n);
    break;
  }
  case ExprNode::Kind::Reduce:
    applyReduce(node.reduceFn, eval(node.operands[0]), out, node.sizes[0],
                node.sizes[1], node.sizes[2]);
    break;
  case ExprNode::Kind::Matmul: {
    const double *lhs = eval(node.operands[0]);
    const double *rhs = eval(node.operands[1]);
    applyMatmul(lhs, rhs, out, node.sizes[0], node.sizes[1], node.sizes[2],
                node.sizes[3]);
    break;
  }
  case ExprNode::Kind::Gather:
    node.copies[0].run(eval(node.operands[0]), out);
    break;
  case ExprNode::Kind::Alias:
    node.value = eval(node.operands[0]);
    node.stamp = evaluation;
    return node.value;
  case ExprNode::Kind::Concat:
    for (auto [operand, copy, offset] :
         llvm::zip_equal(node.operands, node.copies, node.offsets))
      copy.run(eval(operand), out + offset);
    break;
  case ExprNode::Kind::Cast: {
    const double *in = eval(node.operands[0]);
    std::copy(in, in + n, out);
    break;
  }
  }
  if (node.round)
    tileir::roundInPlace(node.elementKind, out, n);
  node.value = out;
  node.stamp = evaluation;
  return out;
}

bool interp::executePlan(
    Plan &plan, MutableArrayRef<HostTensor> tensors,
    std::optional<std::chrono::steady_clock::time_point> deadline) {
  return Executor(plan, tensors, deadline).run(plan.root);
}
