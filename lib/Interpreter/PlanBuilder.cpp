//===- PlanBuilder.cpp - Resolve a tile program for interpretation --------===//
//
// Turns a verified `tile.program` into a `Plan`: binds symbolic tile sizes,
// gives every tile value a concrete shape and buffer, resolves index
// expressions and checks, once and before anything runs, every way the run
// could fail. Because all loops binding one variable share its range and
// step, and every loop runs at least once, an access stays in bounds in every
// iteration exactly when it does for the last value of each of its
// variables, so bounds are checked here rather than per access.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Interpreter/Plan.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;

/// Whether every value of `from` is exactly a value of `to`, so that a cast
/// changes nothing.
static bool isExactConversion(ElementKind from, ElementKind to) {
  if (from == to || from == ElementKind::I1 || to == ElementKind::F64)
    return true;
  return to == ElementKind::F32 &&
         (from == ElementKind::F16 || from == ElementKind::BF16);
}

static double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return copy.convertToDouble();
}

std::string interp::shapeToString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

namespace {

/// The iteration space shared by all loops that bind one variable.
struct VarInfo {
  bool bound = false;
  int64_t start = 0, end = 0, step = 1;
  StringRef name;
};

class PlanBuilder {
public:
  PlanBuilder(ProgramOp program, const TileInterpreterOptions &options)
      : program(program), options(options),
        f32(options.precision == Precision::F32),
        castsRound(roundsConversions(options.precision)) {}

  FailureOr<Plan> build();

private:
  FailureOr<int64_t> resolveSize(StringAttr symbol, Operation *user);
  FailureOr<SmallVector<int64_t, 4>> resolveShape(TileType type,
                                                  Operation *user);
  FailureOr<ElementKind> resolveElementKind(Type type, Operation *user);
  unsigned getVarSlot(Value var);

  /// Builds a statement; sequences along their second statement iteratively.
  FailureOr<unsigned> buildStmt(Value value);
  /// Builds a loop, store or nop, or returns a statement already built.
  FailureOr<unsigned> buildSingleStmt(Value value);
  FailureOr<unsigned> buildLoop(LoopOp loop);
  FailureOr<unsigned> buildExpr(Value value);
  LogicalResult buildExprNode(Operation *op, ExprNode &node);
  LogicalResult buildAccess(Operation *op, Value tensor, ValueRange indices,
                            ArrayRef<int64_t> tileShape, bool isLoad,
                            Access &access);
  LogicalResult buildGather(ExprNode &node, const ExprNode &operand,
                            ArrayRef<int64_t> sourceStrides);

  ProgramOp program;
  const TileInterpreterOptions &options;
  bool f32;
  /// Whether a tile.cast that can change its value rounds (all but F64).
  bool castsRound;
  Plan plan;
  llvm::DenseMap<Operation *, unsigned> stmtIds;
  llvm::DenseMap<Value, unsigned> exprIds;
  llvm::DenseMap<Value, unsigned> varSlots;
  SmallVector<VarInfo> vars;
};

} // namespace

//===----------------------------------------------------------------------===//
// Tile sizes, shapes and element types
//===----------------------------------------------------------------------===//

FailureOr<int64_t> PlanBuilder::resolveSize(StringAttr symbol,
                                            Operation *user) {
  auto it = options.tileSizes.find(symbol.getValue());
  if (it != options.tileSizes.end() && it->second > 0)
    return it->second;
  // Report on the declaration of the size, with a note at its use.
  Operation *decl = user;
  for (auto size : program.getBodyBlock().getOps<SizeOp>())
    if (size.getValue() == symbol) {
      decl = size;
      break;
    }
  InFlightDiagnostic diag = decl->emitOpError("tile size '")
                            << symbol.getValue() << "' ";
  if (it == options.tileSizes.end())
    diag << "has no value; bind it in TileInterpreterOptions::tileSizes "
            "(chooseDefaultTileSizes picks defaults)";
  else
    diag << "must be positive, got " << it->second;
  if (decl != user)
    diag.attachNote(user->getLoc()) << "needed here";
  return failure();
}

FailureOr<SmallVector<int64_t, 4>> PlanBuilder::resolveShape(TileType type,
                                                             Operation *user) {
  SmallVector<int64_t, 4> shape;
  for (const TileDim &dim : type.getShape()) {
    if (dim.isConcrete()) {
      shape.push_back(dim.getConcrete());
      continue;
    }
    FailureOr<int64_t> size = resolveSize(dim.sym, user);
    if (failed(size))
      return failure();
    shape.push_back(dim.coeff * *size);
  }
  return shape;
}

FailureOr<ElementKind> PlanBuilder::resolveElementKind(Type type,
                                                       Operation *user) {
  if (std::optional<ElementKind> kind = elementKindOf(type))
    return *kind;
  return user->emitOpError("element type ")
         << type << " is not supported by the interpreter";
}

unsigned PlanBuilder::getVarSlot(Value var) {
  auto [it, inserted] = varSlots.try_emplace(var, vars.size());
  if (inserted) {
    vars.emplace_back();
    if (auto def = var.getDefiningOp<VarOp>())
      vars.back().name = def.getName();
  }
  return it->second;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

FailureOr<unsigned> PlanBuilder::buildLoop(LoopOp loop) {
  auto sizeOp = loop.getStep().getDefiningOp<SizeOp>();
  if (!sizeOp)
    return loop.emitOpError("step must be defined by tile.size");
  TileDim stepDim = sizeOp.getDim();
  int64_t step = stepDim.coeff;
  if (!stepDim.isConcrete()) {
    FailureOr<int64_t> size = resolveSize(stepDim.sym, loop);
    if (failed(size))
      return failure();
    step = *size;
  }
  int64_t start = loop.getStartIndex(), end = loop.getEndIndex();
  if (start < 0 || start >= end)
    return loop.emitOpError("range [")
           << start << ", " << end
           << ") must be non-empty and start at a non-negative index";
  if ((end - start) % step != 0) {
    InFlightDiagnostic diag = loop.emitOpError("step ")
                              << step << " does not divide the range [" << start
                              << ", " << end << ")";
    if (!stepDim.isConcrete())
      diag << " (tile size '" << stepDim.sym.getValue() << "')";
    return failure();
  }

  unsigned slot = getVarSlot(loop.getVar());
  VarInfo &info = vars[slot];
  if (info.bound &&
      (info.start != start || info.end != end || info.step != step))
    return loop.emitOpError("binds loop variable '")
           << info.name << "' to [" << start << ", " << end << ") step " << step
           << ", but another loop binds it to [" << info.start << ", "
           << info.end << ") step " << info.step;
  info.bound = true;
  info.start = start;
  info.end = end;
  info.step = step;

  FailureOr<unsigned> body = buildStmt(loop.getBody());
  if (failed(body))
    return failure();
  StmtNode node;
  node.kind = StmtNode::Kind::Loop;
  node.op = loop;
  node.first = *body;
  node.var = slot;
  node.start = start;
  node.end = end;
  node.step = step;
  plan.stmts.push_back(std::move(node));
  return plan.stmts.size() - 1;
}

FailureOr<unsigned> PlanBuilder::buildStmt(Value value) {
  // Programs are long right-nested chains of tile.seq: build a chain's first
  // statements in program order without recursing along its second ones.
  SmallVector<SeqOp> chain;
  SmallVector<unsigned> firsts;
  while (auto seq = value.getDefiningOp<SeqOp>()) {
    if (stmtIds.count(seq))
      break;
    FailureOr<unsigned> first = buildStmt(seq.getFirst());
    if (failed(first))
      return failure();
    chain.push_back(seq);
    firsts.push_back(*first);
    value = seq.getSecond();
  }
  FailureOr<unsigned> tail = buildSingleStmt(value);
  if (failed(tail))
    return failure();
  for (size_t i = chain.size(); i-- > 0;) {
    SeqOp seq = chain[i];
    StmtNode node;
    node.kind = StmtNode::Kind::Seq;
    node.op = seq;
    node.first = firsts[i];
    node.second = *tail;
    plan.stmts.push_back(std::move(node));
    tail = plan.stmts.size() - 1;
    stmtIds[seq] = *tail;
  }
  return tail;
}

FailureOr<unsigned> PlanBuilder::buildSingleStmt(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return program.emitOpError("statement is not defined by an op");
  auto cached = stmtIds.find(op);
  if (cached != stmtIds.end())
    return cached->second;

  FailureOr<unsigned> id = failure();
  if (auto loop = dyn_cast<LoopOp>(op)) {
    id = buildLoop(loop);
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    FailureOr<unsigned> valueId = buildExpr(store.getValue());
    if (failed(valueId))
      return failure();
    StmtNode node;
    node.kind = StmtNode::Kind::Store;
    node.op = store;
    node.first = *valueId;
    if (failed(buildAccess(store, store.getTensor(), store.getIndices(),
                           plan.exprs[*valueId].shape, /*isLoad=*/false,
                           node.access)))
      return failure();
    plan.stmts.push_back(std::move(node));
    id = plan.stmts.size() - 1;
  } else if (isa<NopOp>(op)) {
    StmtNode node;
    node.kind = StmtNode::Kind::Nop;
    node.op = op;
    plan.stmts.push_back(std::move(node));
    id = plan.stmts.size() - 1;
  } else {
    return op->emitOpError("is not a statement");
  }
  if (succeeded(id))
    stmtIds[op] = *id;
  return id;
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

LogicalResult PlanBuilder::buildAccess(Operation *op, Value tensor,
                                       ValueRange indices,
                                       ArrayRef<int64_t> tileShape, bool isLoad,
                                       Access &access) {
  auto arg = dyn_cast<BlockArgument>(tensor);
  if (!arg || arg.getOwner() != &program.getBodyBlock())
    return op->emitOpError("accesses a tensor that is not declared by the "
                           "enclosing tile.program");
  auto type = cast<TensorRefType>(tensor.getType());
  ArrayRef<int64_t> extents = type.getShape();
  StringRef name = program.getTensorName(arg.getArgNumber());
  if (indices.size() != extents.size() || tileShape.size() != extents.size())
    return op->emitOpError("indexes tensor '")
           << name << "' of rank " << extents.size() << " with "
           << indices.size() << " indices and a tile of rank "
           << tileShape.size();

  access.tensor = arg.getArgNumber();
  access.tensorStrides = rowMajorStrides(extents);
  for (auto [d, index] : llvm::enumerate(indices)) {
    Operation *def = index.getDefiningOp();
    DimIndex dim;
    // The index range over all iterations: [first, last + extent).
    int64_t first = 0, last = 0;
    const VarInfo *var = nullptr;
    if (isa_and_nonnull<FullIndexOp>(def)) {
      dim.kind = DimIndex::Kind::Full;
      dim.extent = extents[d];
    } else if (auto slice = dyn_cast_or_null<ConstTileIndexOp>(def)) {
      dim.kind = DimIndex::Kind::Const;
      dim.base = slice.getBaseIndex();
      dim.extent = slice.getSizeIndex();
      first = last = dim.base;
    } else if (isa_and_nonnull<TileIndexOp, ElemIndexOp>(def)) {
      Value varValue = def->getOperand(0);
      dim.var = getVarSlot(varValue);
      var = &vars[dim.var];
      if (!var->bound)
        return def->emitOpError("uses loop variable '")
               << var->name << "' outside of any loop that binds it";
      dim.step = var->step;
      int64_t lastValue = var->end - var->step;
      if (isa<TileIndexOp>(def)) {
        dim.kind = DimIndex::Kind::Tile;
        dim.extent = var->step;
        first = var->start;
        last = lastValue;
      } else {
        dim.kind = DimIndex::Kind::Elem;
        dim.extent = 1;
        first = var->start / var->step;
        last = lastValue / var->step;
      }
    } else {
      return op->emitOpError("index #") << d << " is not an index expression";
    }

    if (dim.extent != tileShape[d])
      return op->emitOpError("tile ")
             << shapeToString(tileShape)
             << " does not match the indexed region: dimension " << d
             << " has extent " << tileShape[d] << " but the index selects "
             << dim.extent;
    if (first < 0 || last + dim.extent > extents[d]) {
      int64_t bad = first < 0 ? first : last;
      InFlightDiagnostic diag = op->emitOpError("access [")
                                << bad << ", " << bad + dim.extent
                                << ") of dimension " << d
                                << " is out of bounds for tensor '" << name
                                << "' of extent " << extents[d];
      if (var)
        diag << " (loop variable '" << var->name
             << "' = " << (first < 0 ? var->start : var->end - var->step)
             << ", step " << var->step << ")";
      return diag;
    }
    access.dims.push_back(dim);
  }

  SmallVector<int64_t, 4> tileStrides = rowMajorStrides(tileShape);
  access.copy = isLoad
                    ? StridedCopy(tileShape, access.tensorStrides, tileStrides)
                    : StridedCopy(tileShape, tileStrides, access.tensorStrides);
  return success();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<unsigned> PlanBuilder::buildExpr(Value value) {
  auto cached = exprIds.find(value);
  if (cached != exprIds.end())
    return cached->second;
  Operation *op = value.getDefiningOp();
  auto type = dyn_cast<TileType>(value.getType());
  if (!op || !type)
    return program.emitOpError("expected a tile value defined by an op");

  // Operands first: building them appends to plan.exprs.
  ExprNode node;
  node.op = op;
  for (Value operand : op->getOperands()) {
    if (!isa<TileType>(operand.getType()))
      continue;
    FailureOr<unsigned> id = buildExpr(operand);
    if (failed(id))
      return failure();
    node.operands.push_back(*id);
  }
  FailureOr<SmallVector<int64_t, 4>> shape = resolveShape(type, op);
  if (failed(shape))
    return failure();
  FailureOr<ElementKind> kind = resolveElementKind(type.getElementType(), op);
  if (failed(kind))
    return failure();
  node.shape = std::move(*shape);
  node.elementKind = *kind;
  node.numElements = HostTensor::numElements(
      std::vector<int64_t>(node.shape.begin(), node.shape.end()));
  if (failed(buildExprNode(op, node)))
    return failure();
  if (node.kind != ExprNode::Kind::Alias &&
      node.kind != ExprNode::Kind::Constant && options.allocateBuffers)
    node.buffer.assign(node.numElements, 0.0);
  if (!f32 && !(node.kind == ExprNode::Kind::Cast && castsRound))
    node.round = false;
  plan.exprs.push_back(std::move(node));
  unsigned id = plan.exprs.size() - 1;
  exprIds[value] = id;
  return id;
}

/// The function of an elementwise op of one operand.
static std::optional<UnaryFn> getUnaryFn(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<UnaryFn>>(op)
      .Case([](NegOp) { return UnaryFn::Neg; })
      .Case([](AbsOp) { return UnaryFn::Abs; })
      .Case([](SqrOp) { return UnaryFn::Sqr; })
      .Case([](ExpOp) { return UnaryFn::Exp; })
      .Case([](LogOp) { return UnaryFn::Log; })
      .Case([](SqrtOp) { return UnaryFn::Sqrt; })
      .Case([](RsqrtOp) { return UnaryFn::Rsqrt; })
      .Case([](SigmoidOp) { return UnaryFn::Sigmoid; })
      .Case([](TanhOp) { return UnaryFn::Tanh; })
      .Case([](SinOp) { return UnaryFn::Sin; })
      .Case([](CosOp) { return UnaryFn::Cos; })
      .Case([](ErfOp) { return UnaryFn::Erf; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The function of an elementwise op of two operands.
static std::optional<BinaryFn> getBinaryFn(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<BinaryFn>>(op)
      .Case([](AddOp) { return BinaryFn::Add; })
      .Case([](SubOp) { return BinaryFn::Sub; })
      .Case([](MulOp) { return BinaryFn::Mul; })
      .Case([](DivOp) { return BinaryFn::Div; })
      .Case([](MaxOp) { return BinaryFn::Max; })
      .Case([](MinOp) { return BinaryFn::Min; })
      .Default([](Operation *) { return std::nullopt; });
}

static CmpFn getCmpFn(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::eq:
    return CmpFn::Eq;
  case CmpPredicate::ne:
    return CmpFn::Ne;
  case CmpPredicate::lt:
    return CmpFn::Lt;
  case CmpPredicate::le:
    return CmpFn::Le;
  case CmpPredicate::gt:
    return CmpFn::Gt;
  case CmpPredicate::ge:
    return CmpFn::Ge;
  }
  llvm_unreachable("unknown tile.cmp predicate");
}

LogicalResult PlanBuilder::buildGather(ExprNode &node, const ExprNode &operand,
                                       ArrayRef<int64_t> sourceStrides) {
  if (operand.numElements > node.numElements ||
      sourceStrides.size() != node.shape.size())
    return node.op->emitOpError("operand shape ")
           << shapeToString(operand.shape) << " does not fit the result shape "
           << shapeToString(node.shape);
  StridedCopy copy(node.shape, sourceStrides, rowMajorStrides(node.shape));
  // A permutation that only moves dimensions of extent 1 keeps every
  // element where it was: the operand's buffer itself.
  if (operand.numElements == node.numElements &&
      copy.getSrcStrides() == copy.getDstStrides()) {
    node.kind = ExprNode::Kind::Alias;
    return success();
  }
  node.kind = ExprNode::Kind::Gather;
  node.copies.push_back(std::move(copy));
  return success();
}

LogicalResult PlanBuilder::buildExprNode(Operation *op, ExprNode &node) {
  auto operand = [&](unsigned i) -> const ExprNode & {
    return plan.exprs[node.operands[i]];
  };
  auto sameSize = [&](unsigned i) -> LogicalResult {
    if (operand(i).numElements == node.numElements)
      return success();
    return op->emitOpError("operand #")
           << i << " of shape " << shapeToString(operand(i).shape)
           << " does not match the result shape " << shapeToString(node.shape);
  };

  if (auto load = dyn_cast<LoadOp>(op)) {
    node.kind = ExprNode::Kind::Load;
    node.round = true;
    return buildAccess(load, load.getTensor(), load.getIndices(), node.shape,
                       /*isLoad=*/true, node.access);
  }
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    node.kind = ExprNode::Kind::Constant;
    if (auto splat = dyn_cast<FloatAttr>(constant.getValue())) {
      node.buffer.assign(options.allocateBuffers ? node.numElements : 1,
                         toDouble(splat.getValue()));
    } else {
      auto dense = cast<DenseFPElementsAttr>(constant.getValue());
      if (dense.getNumElements() != node.numElements)
        return op->emitOpError("has ")
               << dense.getNumElements() << " values for a tile of shape "
               << shapeToString(node.shape);
      node.buffer.clear();
      for (const APFloat &value : dense.getValues<APFloat>())
        node.buffer.push_back(toDouble(value));
    }
    if (f32)
      tileir::roundInPlace(node.elementKind, node.buffer.data(),
                           node.buffer.size());
    node.value = node.buffer.data();
    return success();
  }
  if (std::optional<UnaryFn> fn = getUnaryFn(op)) {
    node.kind = ExprNode::Kind::Unary;
    node.unaryFn = *fn;
    node.round = true;
    return sameSize(0);
  }
  if (std::optional<BinaryFn> fn = getBinaryFn(op)) {
    node.kind = ExprNode::Kind::Binary;
    node.binaryFn = *fn;
    node.round = true;
    return success(succeeded(sameSize(0)) && succeeded(sameSize(1)));
  }
  if (auto cmp = dyn_cast<CmpOp>(op)) {
    node.kind = ExprNode::Kind::Cmp;
    node.cmpFn = getCmpFn(cmp.getPredicate());
    return success(succeeded(sameSize(0)) && succeeded(sameSize(1)));
  }
  if (isa<SelectOp>(op)) {
    // Picks values already of the result's element type: no rounding.
    node.kind = ExprNode::Kind::Select;
    return success(succeeded(sameSize(0)) && succeeded(sameSize(1)) &&
                   succeeded(sameSize(2)));
  }
  if (isa<RSumOp, RMaxOp, RMinOp>(op)) {
    node.kind = ExprNode::Kind::Reduce;
    int64_t axis =
        llvm::TypeSwitch<Operation *, int64_t>(op).Case<RSumOp, RMaxOp, RMinOp>(
            [](auto reduce) { return reduce.axis(); });
    ArrayRef<int64_t> in = operand(0).shape;
    if (axis < 0 || axis >= static_cast<int64_t>(in.size()))
      return op->emitOpError("axis ") << axis << " is out of range";
    node.sizes[0] = 1;
    for (int64_t d = 0; d < axis; ++d)
      node.sizes[0] *= in[d];
    node.sizes[1] = in[axis];
    node.sizes[2] = 1;
    for (int64_t d = axis + 1, e = in.size(); d < e; ++d)
      node.sizes[2] *= in[d];
    if (node.sizes[0] * node.sizes[2] != node.numElements)
      return op->emitOpError("result shape ")
             << shapeToString(node.shape) << " does not match the reduction of "
             << shapeToString(in) << " along axis " << axis;
    if (isa<RSumOp>(op)) {
      // Sums accumulate in double and round once.
      node.reduceFn = ReduceFn::Sum;
      node.round = true;
    } else {
      node.reduceFn = isa<RMaxOp>(op) ? ReduceFn::Max : ReduceFn::Min;
    }
    return success();
  }
  if (isa<MatmulOp>(op)) {
    // Accumulates in double and rounds once to the result type.
    node.kind = ExprNode::Kind::Matmul;
    node.round = true;
    ArrayRef<int64_t> a = operand(0).shape, b = operand(1).shape;
    size_t rank = a.size();
    if (rank < 2 || b.size() != rank || node.shape.size() != rank ||
        a[rank - 1] != b[rank - 2] || a[rank - 2] != node.shape[rank - 2] ||
        b[rank - 1] != node.shape[rank - 1] ||
        a.drop_back(2) != b.drop_back(2) ||
        a.drop_back(2) != ArrayRef<int64_t>(node.shape).drop_back(2))
      return op->emitOpError("cannot multiply ")
             << shapeToString(a) << " by " << shapeToString(b) << " into "
             << shapeToString(node.shape);
    int64_t batch = 1;
    for (int64_t d : a.drop_back(2))
      batch *= d;
    node.sizes[0] = batch;
    node.sizes[1] = a[rank - 2];
    node.sizes[2] = a[rank - 1];
    node.sizes[3] = b[rank - 1];
    return success();
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    SmallVector<int64_t, 4> in = rowMajorStrides(operand(0).shape), src;
    for (int64_t p : permute.getPermutation()) {
      if (p < 0 || p >= static_cast<int64_t>(in.size()))
        return op->emitOpError("permutation entry ") << p << " is out of range";
      src.push_back(in[p]);
    }
    return buildGather(node, operand(0), src);
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    SmallVector<int64_t, 4> src = rowMajorStrides(operand(0).shape);
    int64_t rank = src.size();
    if (transpose.dim0() < 0 || transpose.dim0() >= rank ||
        transpose.dim1() < 0 || transpose.dim1() >= rank)
      return op->emitOpError("transposed dimension is out of range");
    std::swap(src[transpose.dim0()], src[transpose.dim1()]);
    return buildGather(node, operand(0), src);
  }
  if (auto bcast = dyn_cast<BcastOp>(op)) {
    SmallVector<int64_t, 4> in = rowMajorStrides(operand(0).shape), src;
    ArrayRef<int64_t> dims = bcast.getDims();
    size_t next = 0;
    for (int64_t d = 0, e = node.shape.size(); d < e; ++d) {
      if (llvm::is_contained(dims, d))
        src.push_back(0);
      else if (next < in.size())
        src.push_back(in[next++]);
      else
        return op->emitOpError("broadcast does not fit the result shape");
    }
    return buildGather(node, operand(0), src);
  }
  if (isa<ReshapeOp, SqueezeOp, UnsqueezeOp>(op)) {
    node.kind = ExprNode::Kind::Alias;
    return sameSize(0);
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    node.kind = ExprNode::Kind::Concat;
    int64_t axis = concat.axis();
    int64_t rank = node.shape.size();
    if (axis < 0 || axis >= rank)
      return op->emitOpError("axis ") << axis << " is out of range";
    SmallVector<int64_t, 4> outStrides = rowMajorStrides(node.shape);
    int64_t position = 0;
    for (unsigned i = 0; i < node.operands.size(); ++i) {
      ArrayRef<int64_t> in = operand(i).shape;
      if (static_cast<int64_t>(in.size()) != rank)
        return op->emitOpError("input #") << i << " has the wrong rank";
      node.copies.push_back(StridedCopy(in, rowMajorStrides(in), outStrides));
      node.offsets.push_back(position * outStrides[axis]);
      position += in[axis];
    }
    if (position != node.shape[axis])
      return op->emitOpError("inputs do not fill the result along axis ")
             << axis;
    return success();
  }
  if (isa<CastOp>(op)) {
    if (failed(sameSize(0)))
      return failure();
    if (!castsRound ||
        isExactConversion(operand(0).elementKind, node.elementKind)) {
      node.kind = ExprNode::Kind::Alias;
      return success();
    }
    node.kind = ExprNode::Kind::Cast;
    node.round = true;
    return success();
  }
  return op->emitOpError("is not supported by the tile interpreter");
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

FailureOr<Plan> PlanBuilder::build() {
  Value root = program.getRoot();
  if (!root)
    return program.emitOpError("must end with tile.yield of its root "
                               "statement");
  FailureOr<unsigned> rootId = buildStmt(root);
  if (failed(rootId))
    return failure();
  plan.root = *rootId;
  plan.numVars = vars.size();
  return std::move(plan);
}

FailureOr<Plan> interp::buildPlan(ProgramOp program,
                                  const TileInterpreterOptions &options) {
  return PlanBuilder(program, options).build();
}
