//===- EmitExpressions.cpp - Tile values element by element ---------------===//

#include "KernelEmitterImpl.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include <functional>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

bool KernelEmitter::dominatesInsertion(Value v) const {
  Block *def = v.getParentBlock();
  Block *block = b.getInsertionBlock();
  // The op of `def` that holds the insertion point, if `def` encloses it.
  Operation *holder = nullptr;
  while (block && block != def) {
    holder = block->getParentOp();
    block = holder ? holder->getBlock() : nullptr;
  }
  if (!block)
    return false;
  Operation *defOp = v.getDefiningOp();
  if (!defOp)
    return true; // an argument of `def`
  if (holder)
    return defOp->isBeforeInBlock(holder);
  Block::iterator point = b.getInsertionPoint();
  if (point == block->end())
    return true;
  // Inserting before the terminator (a loop body's yield): all else is
  // before it, without ordering the block.
  if (&*point == &block->back() && point->hasTrait<OpTrait::IsTerminator>())
    return defOp != &*point;
  return defOp != &*point && defOp->isBeforeInBlock(&*point);
}

const Lanes *KernelEmitter::findEvaluated(unsigned id, ValueRange flats,
                                          int64_t run) {
  auto it = evaluated.entries.find(id);
  if (it == evaluated.entries.end())
    return nullptr;
  for (const ExprMemo::Entry &entry : it->second)
    if (entry.run == run && llvm::equal(entry.flats, flats) &&
        llvm::all_of(entry.values,
                     [&](Value v) { return dominatesInsertion(v); }))
      return &entry.values;
  return nullptr;
}

Lanes KernelEmitter::remember(unsigned id, ValueRange flats, int64_t run,
                              Lanes values) {
  evaluated.entries[id].push_back(
      {SmallVector<Value>(flats.begin(), flats.end()), run, values});
  return values;
}

Lanes KernelEmitter::element(unsigned id, ValueRange flats) {
  Evaluation evaluation(evaluated);
  if (const Lanes *known = findEvaluated(id, flats, 0))
    return *known;
  if (cx.buffers) {
    auto it = cx.buffers->nodes.find(id);
    if (it != cx.buffers->nodes.end()) {
      Lanes values;
      for (Value flat : flats)
        values.push_back(loadBuffer(it->second, flat));
      return remember(id, flats, 0, std::move(values));
    }
  }
  return remember(id, flats, 0, formula(id, flats));
}

static arith::CmpFPredicate getPredicate(CmpFn fn) {
  switch (fn) {
  case CmpFn::Eq:
    return arith::CmpFPredicate::OEQ;
  case CmpFn::Ne:
    return arith::CmpFPredicate::UNE;
  case CmpFn::Lt:
    return arith::CmpFPredicate::OLT;
  case CmpFn::Le:
    return arith::CmpFPredicate::OLE;
  case CmpFn::Gt:
    return arith::CmpFPredicate::OGT;
  case CmpFn::Ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown comparison");
}

Lanes KernelEmitter::formula(unsigned id, ValueRange flats) {
  Evaluation evaluation(evaluated);
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    return mapLanes(flats.size(), fn);
  };
  Lanes v;
  switch (node.kind) {
  case Kind::Load: {
    ElementKind stored = tensorKinds[node.access.tensor];
    auto running = cx.carried.find(node.access.tensor);
    if (running != cx.carried.end()) {
      // An element loop's own element (`getElementLoopSize` checks that the
      // loop reads what it writes nowhere else).
      v = running->second;
    } else if (isPositions(node.access.tensor)) {
      // Element n of a positions tensor holds n (below 2^24: exact).
      v = perLane([&](unsigned i) -> Value {
        Value n = arith::IndexCastUIOp::create(
            b, loc, b.getI32Type(),
            tensorOffset(node.access, node.shape, flats[i]));
        return arith::UIToFPOp::create(b, loc, f32, n);
      });
    } else {
      v = perLane([&](unsigned i) {
        Value address = tensorOffset(node.access, node.shape, flats[i]);
        return toF32(memref::LoadOp::create(
                         b, loc, cx.tensorArgs[node.access.tensor], address),
                     stored);
      });
    }
    if (stored == node.elementKind)
      return v;
    break;
  }
  case Kind::Constant: {
    if (llvm::all_equal(node.buffer)) {
      Value c = constant(node.buffer.empty() ? 0.0 : node.buffer[0]);
      return Lanes(flats.size(), c);
    }
    return perLane([&](unsigned i) { return denseConstant(id, flats[i]); });
  }
  case Kind::Unary: {
    Lanes x = operand(0, flats);
    v = perLane([&](unsigned i) { return unary(node.unaryFn, x[i]); });
    break;
  }
  case Kind::Binary: {
    Lanes x = operand(0, flats), y = operand(1, flats);
    v = perLane([&](unsigned i) { return binary(node.binaryFn, x[i], y[i]); });
    break;
  }
  case Kind::Cmp: {
    Lanes x = operand(0, flats), y = operand(1, flats);
    return perLane([&](unsigned i) {
      Value c =
          arith::CmpFOp::create(b, loc, getPredicate(node.cmpFn), x[i], y[i]);
      return Value(
          arith::SelectOp::create(b, loc, c, constant(1.0), constant(0.0)));
    });
  }
  case Kind::Select: {
    Lanes c = operand(0, flats), x = operand(1, flats), y = operand(2, flats);
    return perLane([&](unsigned i) {
      Value cond = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                         c[i], constant(0.0));
      return Value(arith::SelectOp::create(b, loc, cond, x[i], y[i]));
    });
  }
  case Kind::Reduce:
    v = reductionLanes(id, flats);
    break;
  case Kind::Matmul:
    v = matmulLanes(id, flats);
    break;
  case Kind::Gather: {
    const StridedCopy &copy = node.copies[0];
    Lanes sources =
        perLane([&](unsigned i) { return gatherSource(copy, flats[i]); });
    return operand(0, sources);
  }
  case Kind::Alias:
    return operand(0, flats);
  case Kind::Concat:
    return perLane([&](unsigned i) { return concat(node, flats[i]); });
  case Kind::Cast:
    v = operand(0, flats);
    break;
  }
  if (!node.round)
    return v;
  return perLane([&](unsigned i) { return round(v[i], node.elementKind); });
}

Value KernelEmitter::unary(UnaryFn fn, Value x) {
  switch (fn) {
  case UnaryFn::Neg:
    return arith::NegFOp::create(b, loc, x);
  case UnaryFn::Abs:
    return math::AbsFOp::create(b, loc, x);
  case UnaryFn::Sqr:
    return arith::MulFOp::create(b, loc, x, x);
  case UnaryFn::Exp:
    return math::ExpOp::create(b, loc, x);
  case UnaryFn::Log:
    return math::LogOp::create(b, loc, x);
  case UnaryFn::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case UnaryFn::Rsqrt:
    return math::RsqrtOp::create(b, loc, x);
  case UnaryFn::Sigmoid: {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(
        b, loc, constant(1.0), arith::AddFOp::create(b, loc, constant(1.0), e));
  }
  case UnaryFn::Tanh:
    return math::TanhOp::create(b, loc, x);
  case UnaryFn::Sin:
    return math::SinOp::create(b, loc, x);
  case UnaryFn::Cos:
    return math::CosOp::create(b, loc, x);
  case UnaryFn::Erf:
    return math::ErfOp::create(b, loc, x);
  }
  llvm_unreachable("unknown unary function");
}

Value KernelEmitter::binary(BinaryFn fn, Value x, Value y) {
  switch (fn) {
  case BinaryFn::Add:
    return arith::AddFOp::create(b, loc, x, y);
  case BinaryFn::Sub:
    return arith::SubFOp::create(b, loc, x, y);
  case BinaryFn::Mul:
    return arith::MulFOp::create(b, loc, x, y);
  case BinaryFn::Div:
    return arith::DivFOp::create(b, loc, x, y);
  case BinaryFn::Max:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case BinaryFn::Min:
    return arith::MinNumFOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown binary function");
}

Value KernelEmitter::concat(const ExprNode &node, Value flat) {
  int64_t axis = cast<ConcatOp>(node.op).axis();
  int64_t inner = 1;
  for (int64_t d = axis + 1, e = node.shape.size(); d < e; ++d)
    inner *= node.shape[d];
  Value outer = div(flat, node.shape[axis] * inner);
  Value along = rem(div(flat, inner), node.shape[axis]);
  Value within = rem(flat, inner);
  // Operand i covers [begin_i, begin_i + extent_i) along the axis.
  std::function<Value(unsigned, int64_t)> pick = [&](unsigned i,
                                                     int64_t begin) -> Value {
    int64_t extent = plan.exprs[node.operands[i]].shape[axis];
    auto operandElement = [&]() {
      Value position = arith::SubIOp::create(b, loc, along, index(begin));
      Value f = add(mul(add(mul(outer, extent), position), inner), within);
      return element(node.operands[i], f)[0];
    };
    if (i + 1 == node.operands.size())
      return operandElement();
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         along, index(begin + extent));
    auto ifOp = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, operandElement());
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, pick(i + 1, begin + extent));
        });
    return ifOp.getResult(0);
  };
  return pick(0, 0);
}

Value KernelEmitter::denseConstant(unsigned id, Value flat) {
  const ExprNode &node = plan.exprs[id];
  auto type = MemRefType::get({node.numElements}, f32);
  // Named after the kernel: another kernel of the module numbers its own
  // expressions from 0 too.
  std::string name =
      ("__tile_constant_" + cx.func.getName() + "_" + Twine(id)).str();
  auto module = cx.func->getParentOfType<gpu::GPUModuleOp>();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(cx.func);
    SmallVector<float> values(node.buffer.begin(), node.buffer.end());
    auto init = DenseElementsAttr::get(
        RankedTensorType::get({node.numElements}, f32), ArrayRef(values));
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             init, /*constant=*/true, /*alignment=*/nullptr);
  }
  Value global = memref::GetGlobalOp::create(b, loc, type, name);
  return memref::LoadOp::create(b, loc, global, flat);
}

//===----------------------------------------------------------------------===//
// Runs of consecutive elements
//===----------------------------------------------------------------------===//

bool KernelEmitter::loadsRun(unsigned id, int64_t count) const {
  const ExprNode &node = plan.exprs[id];
  if (node.shape.empty() || node.shape.back() % count != 0 ||
      (cx.buffers && cx.buffers->nodes.count(id)))
    return false;
  switch (node.kind) {
  case Kind::Alias:
  case Kind::Cast:
    return loadsRun(node.operands[0], count);
  case Kind::Load:
    break;
  default:
    return false;
  }
  return !cx.carried.count(node.access.tensor) &&
         accessRuns(node.access, count);
}

Lanes KernelEmitter::elementRun(unsigned id, Value flat0, int64_t count) {
  Evaluation evaluation(evaluated);
  if (const Lanes *known = findEvaluated(id, flat0, count))
    return *known;
  return remember(id, flat0, count, computeRun(id, flat0, count));
}

Lanes KernelEmitter::computeRun(unsigned id, Value flat0, int64_t count) {
  const ExprNode &node = plan.exprs[id];
  if (!loadsRun(id, count)) {
    if (std::optional<Lanes> v = elementwiseRun(id, flat0, count))
      return *v;
    Lanes flats;
    for (int64_t i = 0; i < count; ++i)
      flats.push_back(add(flat0, index(i)));
    return element(id, flats);
  }
  if (node.kind != Kind::Load) {
    Lanes v = elementRun(node.operands[0], flat0, count);
    if (node.kind == Kind::Cast && node.round)
      for (Value &x : v)
        x = round(x, node.elementKind);
    return v;
  }
  ElementKind stored = tensorKinds[node.access.tensor];
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  // 16-byte vectors at most.
  int64_t width = std::min<int64_t>(count, 16 / bytes);
  Value address = tensorOffset(node.access, node.shape, flat0);
  Lanes v;
  for (int64_t c = 0; c < count; c += width) {
    Value vec = loadVector(node.access.tensor, add(address, index(c)), width);
    for (int64_t i = 0; i < width; ++i)
      v.push_back(toF32(vector::ExtractOp::create(b, loc, vec, i), stored));
  }
  if (stored != node.elementKind)
    for (Value &x : v)
      x = round(x, node.elementKind);
  return v;
}

std::optional<Lanes> KernelEmitter::elementwiseRun(unsigned id, Value flat0,
                                                   int64_t count) {
  const ExprNode &node = plan.exprs[id];
  if ((cx.buffers && cx.buffers->nodes.count(id)) || node.shape.empty() ||
      node.shape.back() % count != 0)
    return std::nullopt;
  Lanes v;
  switch (node.kind) {
  case Kind::Unary:
    for (Value x : elementRun(node.operands[0], flat0, count))
      v.push_back(unary(node.unaryFn, x));
    break;
  case Kind::Binary: {
    Lanes x = elementRun(node.operands[0], flat0, count);
    Lanes y = elementRun(node.operands[1], flat0, count);
    for (auto [l, r] : llvm::zip_equal(x, y))
      v.push_back(binary(node.binaryFn, l, r));
    break;
  }
  case Kind::Cast:
    v = elementRun(node.operands[0], flat0, count);
    break;
  case Kind::Alias:
    return elementRun(node.operands[0], flat0, count);
  case Kind::Gather: {
    // A broadcast along the innermost dimension: the run is one source
    // element (the run lies in one row of the copy's innermost dimension).
    if (node.copies.size() != 1)
      return std::nullopt;
    const StridedCopy &copy = node.copies[0];
    auto inner = llvm::find(copy.getDstStrides(), 1);
    if (inner == copy.getDstStrides().end())
      return std::nullopt;
    unsigned d = inner - copy.getDstStrides().begin();
    if (copy.getSrcStrides()[d] != 0 || copy.getShape()[d] % count != 0)
      return std::nullopt;
    return Lanes(count,
                 element(node.operands[0], gatherSource(copy, flat0))[0]);
  }
  default:
    return std::nullopt;
  }
  if (node.round)
    for (Value &x : v)
      x = round(x, node.elementKind);
  return v;
}
