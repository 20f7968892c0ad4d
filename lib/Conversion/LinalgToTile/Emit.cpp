//===- Emit.cpp - Emit the tile program of a conversion plan --------------===//

#include "Plan.h"
#include "Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::linalg_to_tile;

namespace {

class Emitter {
public:
  explicit Emitter(Plan &plan)
      : plan(plan), ctx(plan.func.getContext()), b(plan.func),
        loc(plan.func.getLoc()) {}

  FailureOr<ProgramOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Loops and indices
  //===--------------------------------------------------------------------===//

  TileDim loopDim(const Nest &nest, unsigned l) {
    int cls = nest.loopClass[l];
    if (cls < 0)
      return TileDim::concrete(nest.extents[l]);
    if (plan.classes[cls].unit)
      return TileDim::concrete(1);
    return TileDim::symbolic(
        StringAttr::get(ctx, "tile_" + plan.classes[cls].name));
  }

  Value loopIndex(const Nest &nest, unsigned l) {
    int cls = nest.loopClass[l];
    if (cls < 0)
      return fullIndex;
    Value &index = tileIndexOfClass[cls];
    if (!index && plan.classes[cls].unit)
      index =
          ElemIndexOp::create(b, loc, IndexExprType::get(ctx), classVars[cls]);
    if (!index)
      index = TileIndexOp::create(b, loc, IndexExprType::get(ctx),
                                  classVars[cls]);
    return index;
  }

  Value indexFor(const Nest &nest, const DimIndex &index) {
    switch (index.kind) {
    case DimIndex::Loop:
      return loopIndex(nest, index.loop);
    case DimIndex::Full:
      return fullIndex;
    case DimIndex::Slice:
      return ConstTileIndexOp::create(b, loc, IndexExprType::get(ctx),
                                      b.getI64IntegerAttr(index.base),
                                      b.getI64IntegerAttr(index.size));
    }
    llvm_unreachable("unknown index kind");
  }

  TileDim extentFor(const Nest &nest, const DimIndex &index, int64_t extent) {
    switch (index.kind) {
    case DimIndex::Loop:
      return loopDim(nest, index.loop);
    case DimIndex::Full:
      return TileDim::concrete(extent);
    case DimIndex::Slice:
      return TileDim::concrete(index.size);
    }
    llvm_unreachable("unknown index kind");
  }

  TileType tileType(ArrayRef<TileDim> shape, Type elementType) {
    return TileType::get(ctx, shape, elementType);
  }

  /// Loads what `access` indexes; the tile is in tensor dimension order.
  Value load(const Nest &nest, const Access &access) {
    const Slot &slot = plan.slots[access.slot];
    SmallVector<Value> indices;
    SmallVector<TileDim> shape;
    for (auto [d, index] : llvm::enumerate(access.dims)) {
      indices.push_back(indexFor(nest, index));
      shape.push_back(extentFor(nest, index, slot.type.getDimSize(d)));
    }
    return LoadOp::create(b, loc, tileType(shape, slot.type.getElementType()),
                          slotArgs[access.slot], indices);
  }

  /// Stores `value` (in tensor dimension order) where `access` indexes.
  Value store(const Nest &nest, const Access &access, Value value) {
    SmallVector<Value> indices;
    for (const DimIndex &index : access.dims)
      indices.push_back(indexFor(nest, index));
    return StoreOp::create(b, loc, StmtType::get(ctx), value,
                           slotArgs[access.slot], indices);
  }

  /// Wraps `body` in the loops of `nest`, the first loop outermost, except
  /// that parallel loops over the dimensions of a reshape's split group
  /// (LoopClass::outer) go outside the others, as the reshape's own loop
  /// is: the optimizer can then fuse nests around it.
  Value wrapInLoops(const Nest &nest, Value body) {
    auto hoisted = [&](unsigned l) {
      bool reduction = l < nest.isReduction.size() && nest.isReduction[l];
      return plan.classes[nest.loopClass[l]].outer && !reduction;
    };
    // Innermost first.
    SmallVector<unsigned> order;
    for (bool outer : {false, true})
      for (int l = nest.extents.size() - 1; l >= 0; --l)
        if (nest.loopClass[l] >= 0 && hoisted(l) == outer)
          order.push_back(l);
    for (unsigned l : order) {
      int cls = nest.loopClass[l];
      body = LoopOp::create(b, loc, StmtType::get(ctx), classVars[cls],
                            b.getI64IntegerAttr(0),
                            b.getI64IntegerAttr(plan.classes[cls].extent),
                            classSizes[cls], body);
    }
    return body;
  }

  Value seq(ArrayRef<Value> stmts) {
    if (stmts.empty())
      return NopOp::create(b, loc, StmtType::get(ctx));
    Value result = stmts.back();
    for (Value stmt : llvm::reverse(stmts.drop_back()))
      result = SeqOp::create(b, loc, StmtType::get(ctx), stmt, result);
    return result;
  }

  //===--------------------------------------------------------------------===//
  // Layout helpers
  //===--------------------------------------------------------------------===//

  /// Permutes `value` so that result dimension i is operand dimension
  /// perm[i]; no-op for the identity.
  Value permute(Value value, ArrayRef<int64_t> perm) {
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return value;
    auto type = cast<TileType>(value.getType());
    SmallVector<TileDim> shape;
    for (int64_t p : perm)
      shape.push_back(type.getShape()[p]);
    return PermuteOp::create(b, loc, tileType(shape, type.getElementType()),
                             value, b.getDenseI64ArrayAttr(perm));
  }

  /// Brings a tile whose dimensions walk the loops `tileLoops` (in that
  /// order) into the loop space `space` (loops, in the space's order):
  /// transposes into that order, then broadcasts along the loops it does not
  /// walk.
  Value toLoopSpace(const Nest &nest, Value value, ArrayRef<unsigned> tileLoops,
                    ArrayRef<unsigned> space) {
    SmallVector<int64_t> perm(tileLoops.size());
    std::iota(perm.begin(), perm.end(), 0);
    auto position = [&](int64_t d) {
      return llvm::find(space, tileLoops[d]) - space.begin();
    };
    llvm::sort(perm,
               [&](int64_t a, int64_t b) { return position(a) < position(b); });
    value = permute(value, perm);
    auto type = cast<TileType>(value.getType());
    SmallVector<int64_t> inserted;
    SmallVector<TileDim> shape;
    for (auto [i, l] : llvm::enumerate(space)) {
      shape.push_back(loopDim(nest, l));
      if (!llvm::is_contained(tileLoops, l))
        inserted.push_back(i);
    }
    if (inserted.empty())
      return value;
    return BcastOp::create(b, loc, tileType(shape, type.getElementType()),
                           value, b.getDenseI64ArrayAttr(inserted));
  }

  /// The reverse: a tile in loop space `space` into the order of the tensor
  /// dimensions, which walk `tensorLoops`.
  Value toTensorOrder(Value value, ArrayRef<unsigned> space,
                      ArrayRef<unsigned> tensorLoops) {
    SmallVector<int64_t> perm;
    for (unsigned l : tensorLoops)
      perm.push_back(llvm::find(space, l) - space.begin());
    return permute(value, perm);
  }

  //===--------------------------------------------------------------------===//
  // Nests
  //===--------------------------------------------------------------------===//

  FailureOr<Value> emitNest(Nest &nest);
  FailureOr<Value> emitLinalg(Nest &nest);
  FailureOr<Value> emitContraction(Nest &nest, linalg::LinalgOp op,
                                   const linalg::ContractionDimensions &dims);
  /// A contraction whose operands are computed (matchContraction): each
  /// side's body slice becomes the tile expression of its operand.
  FailureOr<Value> emitComputedContraction(Nest &nest, linalg::LinalgOp op,
                                           const ContractionSides &sides);
  /// Stores out + lhs @ rhs (loops `outLoops` = batch..., m, n); operands of
  /// different element types are both cast to the result's.
  FailureOr<Value> accumulateMatmul(Nest &nest, linalg::LinalgOp op, Value lhs,
                                    Value rhs, ArrayRef<unsigned> outLoops,
                                    const Access &outAccess);
  FailureOr<Value> emitReshape(Nest &nest);
  /// `stores` (of one op's outputs, same iteration) in an order where no
  /// store overwrites a tensor a later one loads; fails on a cycle.
  FailureOr<SmallVector<Value>> orderStores(ArrayRef<Value> stores);
  FailureOr<Value> emitConstant(Nest &nest);

  /// Converts a scalar value of a linalg body into a tile of loop-space
  /// `shape`, memoized in `mapping`.
  FailureOr<Value> convertBodyValue(Value value, ArrayRef<TileDim> shape,
                                    IRMapping &mapping);
  /// A splat tile of `shape` holding the float constant `value` defines.
  FailureOr<Value> splat(Value value, ArrayRef<TileDim> shape,
                         Operation *user);

  Plan &plan;
  MLIRContext *ctx;
  OpBuilder b;
  Location loc;
  SmallVector<Value> slotArgs;
  SmallVector<Value> classVars, classSizes;
  DenseMap<int, Value> tileIndexOfClass;
  Value fullIndex;
  unsigned numReshapeVars = 0;
  /// The linalg op whose body is being converted.
  Operation *currentLinalgOp = nullptr;
  /// What is proved of its position arithmetic.
  std::optional<PositionArithmetic> positions;
};

} // namespace

FailureOr<Value> Emitter::splat(Value value, ArrayRef<TileDim> shape,
                                Operation *user) {
  auto cst = value.getDefiningOp<arith::ConstantOp>();
  auto attr = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  // An integer of position arithmetic (PositionArithmetic bounded it).
  if (!attr)
    attr = integerConstantAsF32(value);
  if (!attr)
    return user->emitOpError("cannot be converted to tile: it uses a scalar "
                             "of type ")
           << value.getType() << " that is not a float constant";
  return ConstantOp::create(b, loc, tileType(shape, attr.getType()), attr)
      .getResult();
}

static std::optional<CmpPredicate> toTilePredicate(arith::CmpFPredicate p) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::OEQ:
  case P::UEQ:
    return CmpPredicate::eq;
  case P::ONE:
  case P::UNE:
    return CmpPredicate::ne;
  case P::OLT:
  case P::ULT:
    return CmpPredicate::lt;
  case P::OLE:
  case P::ULE:
    return CmpPredicate::le;
  case P::OGT:
  case P::UGT:
    return CmpPredicate::gt;
  case P::OGE:
  case P::UGE:
    return CmpPredicate::ge;
  default:
    return std::nullopt;
  }
}

FailureOr<Value> Emitter::convertBodyValue(Value value, ArrayRef<TileDim> shape,
                                           IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *op = value.getDefiningOp();
  Operation *linalgOp = currentLinalgOp;
  if (!op || op->getParentOp() != linalgOp) {
    // A block argument not bound yet (the output of a reduction read outside
    // its accumulation) or a value captured from outside the body.
    if (!op)
      return linalgOp->emitOpError(
          "cannot be converted to tile: its body reads the output value "
          "outside of an accumulation out = combine(out, f(inputs))");
    FailureOr<Value> cst = splat(value, shape, linalgOp);
    if (succeeded(cst))
      mapping.map(value, *cst);
    return cst;
  }
  if (isa<arith::ConstantOp>(op)) {
    FailureOr<Value> cst = splat(value, shape, linalgOp);
    if (succeeded(cst))
      mapping.map(value, *cst);
    return cst;
  }
  // Position arithmetic (linalg.index) in f32, once proved exact there.
  bool integer = isIntegerBodyValue(value) ||
                 isa<arith::SIToFPOp, arith::UIToFPOp>(op);
  if (integer && failed(positions->checkExactInF32(
                     isIntegerBodyValue(value) ? value : op->getOperand(0))))
    return failure();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    // `not c` converts c alone (its `true` has no tile of its own).
    if (isa<arith::XOrIOp>(op) && operand.getDefiningOp<arith::ConstantOp>()) {
      operands.push_back(Value());
      continue;
    }
    FailureOr<Value> converted = convertBodyValue(operand, shape, mapping);
    if (failed(converted))
      return failure();
    operands.push_back(*converted);
  }
  Type resultElement = value.getType();
  if (isa<IndexType>(resultElement) ||
      (isa<IntegerType>(resultElement) && !resultElement.isInteger(1)))
    resultElement = b.getF32Type();
  TileType resultType = tileType(shape, resultElement);
  if (integer)
    if (Value result = convertIntegerOp(b, loc, op, operands, resultType)) {
      mapping.map(value, result);
      return result;
    }
  Value result =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case<arith::AddFOp>([&](auto) {
            return AddOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::SubFOp>([&](auto) {
            return SubOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::MulFOp>([&](auto) {
            return MulOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::DivFOp>([&](auto) {
            return DivOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](auto) {
            return MaxOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::MinimumFOp, arith::MinNumFOp>([&](auto) {
            return MinOp::create(b, loc, operands[0], operands[1]);
          })
          .Case<arith::NegFOp>(
              [&](auto) { return NegOp::create(b, loc, operands[0]); })
          .Case<math::AbsFOp>(
              [&](auto) { return AbsOp::create(b, loc, operands[0]); })
          .Case<math::ExpOp>(
              [&](auto) { return ExpOp::create(b, loc, operands[0]); })
          .Case<math::LogOp>(
              [&](auto) { return LogOp::create(b, loc, operands[0]); })
          .Case<math::SqrtOp>(
              [&](auto) { return SqrtOp::create(b, loc, operands[0]); })
          .Case<math::RsqrtOp>(
              [&](auto) { return RsqrtOp::create(b, loc, operands[0]); })
          .Case<math::TanhOp>(
              [&](auto) { return TanhOp::create(b, loc, operands[0]); })
          .Case<math::SinOp>(
              [&](auto) { return SinOp::create(b, loc, operands[0]); })
          .Case<math::CosOp>(
              [&](auto) { return CosOp::create(b, loc, operands[0]); })
          .Case<math::ErfOp>(
              [&](auto) { return ErfOp::create(b, loc, operands[0]); })
          .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) -> Value {
            if (operands[0].getType() == resultType)
              return operands[0];
            return CastOp::create(b, loc, resultType, operands[0]);
          })
          .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) -> Value {
            std::optional<CmpPredicate> pred =
                toTilePredicate(cmp.getPredicate());
            if (!pred)
              return {};
            return CmpOp::create(b, loc, resultType, *pred, operands[0],
                                 operands[1]);
          })
          .Case<arith::SelectOp>([&](auto) {
            return SelectOp::create(b, loc, operands[1].getType(),
                                    operands[0], operands[1], operands[2]);
          })
          .Default([](Operation *) { return Value(); });
  if (!result)
    return linalgOp->emitOpError("cannot be converted to tile: its body uses '")
           << op->getName() << "', which has no tile counterpart";
  mapping.map(value, result);
  return result;
}

FailureOr<Value> Emitter::emitContraction(
    Nest &nest, linalg::LinalgOp op,
    const linalg::ContractionDimensions &dims) {
  OpOperand *lhsOperand = op.getDpsInputOperand(0);
  OpOperand *rhsOperand = op.getDpsInputOperand(1);
  const Access &lhsAccess = nest.accesses[0], &rhsAccess = nest.accesses[1];
  const Access &outAccess = nest.accesses[2];

  // Canonical orders: [batch..., m, k] x [batch..., k, n] -> [batch..., m, n].
  SmallVector<unsigned> lhsLoops(dims.batch.begin(), dims.batch.end());
  SmallVector<unsigned> rhsLoops = lhsLoops, outLoops = lhsLoops;
  lhsLoops.append({dims.m[0], dims.k[0]});
  rhsLoops.append({dims.k[0], dims.n[0]});
  outLoops.append({dims.m[0], dims.n[0]});
  auto toCanonical = [&](Value tile, OpOperand *operand,
                         ArrayRef<unsigned> order) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    SmallVector<int64_t> perm;
    for (unsigned l : order)
      for (unsigned j = 0; j < map.getNumResults(); ++j)
        if (map.getDimPosition(j) == l)
          perm.push_back(j);
    return permute(tile, perm);
  };
  Value lhs = toCanonical(load(nest, lhsAccess), lhsOperand, lhsLoops);
  Value rhs = toCanonical(load(nest, rhsAccess), rhsOperand, rhsLoops);
  return accumulateMatmul(nest, op, lhs, rhs, outLoops, outAccess);
}

FailureOr<Value> Emitter::accumulateMatmul(Nest &nest, linalg::LinalgOp op,
                                           Value lhs, Value rhs,
                                           ArrayRef<unsigned> outLoops,
                                           const Access &outAccess) {
  OpOperand &outOperand = op.getDpsInitsMutable()[0];
  Type outElement =
      cast<RankedTensorType>(outOperand.get().getType()).getElementType();
  // Operands of different element types both become the result's.
  auto elementOf = [](Value v) {
    return cast<TileType>(v.getType()).getElementType();
  };
  if (elementOf(lhs) != elementOf(rhs)) {
    auto castTo = [&](Value tile) -> Value {
      auto type = cast<TileType>(tile.getType());
      if (type.getElementType() == outElement)
        return tile;
      return CastOp::create(b, loc, type.withElementType(outElement), tile);
    };
    lhs = castTo(lhs);
    rhs = castTo(rhs);
  }
  SmallVector<TileDim> mmShape;
  for (unsigned l : outLoops)
    mmShape.push_back(loopDim(nest, l));
  Value mm = MatmulOp::create(b, loc, tileType(mmShape, outElement), lhs, rhs);

  // Accumulate into the output, in its dimension order.
  mm = toTensorOrder(mm, outLoops,
                     getIndexedLoops(op.getMatchingIndexingMap(&outOperand)));
  Value acc = AddOp::create(b, loc, load(nest, outAccess), mm);
  return wrapInLoops(nest, store(nest, outAccess, acc));
}

/// `value` without the widening cast (extf) a contraction's operand may
/// start with: the tile matmul widens its operands itself.
static Value withoutWidening(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return value;
}

FailureOr<Value>
Emitter::emitComputedContraction(Nest &nest, linalg::LinalgOp op,
                                 const ContractionSides &sides) {
  // The access of each tensor operand: accesses follow the tensor operands.
  auto accessOf = [&](OpOperand *operand) -> const Access & {
    unsigned i = 0;
    for (OpOperand &o : op->getOpOperands()) {
      if (&o == operand)
        break;
      if (isa<RankedTensorType>(o.get().getType()))
        ++i;
    }
    return nest.accesses[i];
  };
  // One operand: its inputs loaded into the side's loop space (its loops
  // in the matmul's order), its body slice converted there. The matmul's
  // own widening of f16 operands (extf) stays out: the tile matmul widens.
  auto side = [&](Value value, ArrayRef<OpOperand *> operands,
                  ArrayRef<unsigned> space) -> FailureOr<Value> {
    SmallVector<TileDim> shape;
    for (unsigned l : space)
      shape.push_back(loopDim(nest, l));
    IRMapping mapping;
    for (OpOperand *operand : operands)
      mapping.map(
          op.getMatchingBlockArgument(operand),
          toLoopSpace(nest, load(nest, accessOf(operand)),
                      getIndexedLoops(op.getMatchingIndexingMap(operand)),
                      space));
    return convertBodyValue(withoutWidening(value), shape, mapping);
  };
  SmallVector<unsigned> lhsLoops(sides.batch), rhsLoops(sides.batch),
      outLoops(sides.batch);
  lhsLoops.append({sides.m[0], sides.k});
  rhsLoops.append({sides.k, sides.n[0]});
  outLoops.append({sides.m[0], sides.n[0]});
  FailureOr<Value> lhs = side(sides.x, sides.lhsOperands, lhsLoops);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = side(sides.y, sides.rhsOperands, rhsLoops);
  if (failed(rhs))
    return failure();
  return accumulateMatmul(nest, op, *lhs, *rhs, outLoops,
                          accessOf(&op.getDpsInitsMutable()[0]));
}

FailureOr<Value> Emitter::emitLinalg(Nest &nest) {
  auto op = cast<linalg::LinalgOp>(nest.op);
  currentLinalgOp = op;
  positions.emplace(op);
  // A generic contraction whose operands are computed beyond a widening
  // cast (a prologue was fused into it).
  if (isa<linalg::GenericOp>(op.getOperation()) && !op.hasIndexSemantics())
    if (std::optional<ContractionSides> sides = matchContraction(op)) {
      auto loaded = [](Value v) {
        return isa<BlockArgument>(withoutWidening(v));
      };
      if (!loaded(sides->x) || !loaded(sides->y))
        return emitComputedContraction(nest, op, *sides);
    }
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (succeeded(dims) && dims->m.size() == 1 && dims->n.size() == 1 &&
        dims->k.size() == 1 && op.getNumDpsInputs() == 2)
      return emitContraction(nest, op, *dims);
  }

  unsigned numLoops = nest.extents.size();
  SmallVector<unsigned> allLoops, parallelLoops, reductionLoops;
  for (unsigned l = 0; l < numLoops; ++l) {
    allLoops.push_back(l);
    (nest.isReduction[l] ? reductionLoops : parallelLoops).push_back(l);
  }
  SmallVector<TileDim> space;
  for (unsigned l : allLoops)
    space.push_back(loopDim(nest, l));

  auto tensorLoops = [&](OpOperand *operand) {
    return getIndexedLoops(op.getMatchingIndexingMap(operand));
  };

  // Bind the body's input arguments to loaded tiles in loop space.
  IRMapping mapping;
  unsigned accessIndex = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (!isa<RankedTensorType>(input->get().getType())) {
      FailureOr<Value> cst = splat(input->get(), space, op);
      if (failed(cst))
        return failure();
      mapping.map(arg, *cst);
      continue;
    }
    Value tile = load(nest, nest.accesses[accessIndex++]);
    mapping.map(arg, toLoopSpace(nest, tile, tensorLoops(input), allLoops));
  }
  // linalg.index d: the positions of loop d (Plan.cpp), after the outputs.
  op.getBlock()->walk([&](linalg::IndexOp index) {
    unsigned k = llvm::find(nest.positionLoops, index.getDim()) -
                 nest.positionLoops.begin();
    const Access &access =
        nest.accesses[accessIndex + op.getNumDpsInits() + k];
    mapping.map(index.getResult(),
                toLoopSpace(nest, load(nest, access),
                            {unsigned(index.getDim())},
                            allLoops));
  });

  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Value> stores;
  for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    const Access &outAccess = nest.accesses[accessIndex + k];
    BlockArgument outArg = op.getMatchingBlockArgument(&init);
    SmallVector<unsigned> outLoops = tensorLoops(&init);
    if (llvm::any_of(parallelLoops, [&](unsigned l) {
          return !llvm::is_contained(outLoops, l);
        }))
      return op->emitOpError("cannot be converted to tile: output #")
             << k << " does not index every parallel dimension";
    Value yielded = yield.getOperand(k);
    Value result;
    if (reductionLoops.empty()) {
      if (op.payloadUsesValueFromOperand(&init))
        mapping.map(outArg, toLoopSpace(nest, load(nest, outAccess), outLoops,
                                        allLoops));
      FailureOr<Value> value = convertBodyValue(yielded, space, mapping);
      if (failed(value))
        return failure();
      result = *value;
      result = toTensorOrder(result, allLoops, outLoops);
    } else {
      // out = combine(out, x): reduce x over the reduction loops, then
      // combine with the output loaded in its own order.
      Operation *combiner = yielded.getDefiningOp();
      if (!combiner || combiner->getNumOperands() != 2 ||
          !isa<arith::AddFOp, arith::MaximumFOp, arith::MaxNumFOp,
               arith::MinimumFOp, arith::MinNumFOp>(combiner) ||
          (combiner->getOperand(0) != outArg &&
           combiner->getOperand(1) != outArg))
        return op->emitOpError("cannot be converted to tile: the reduction "
                               "body is not an accumulation out = combine(out, "
                               "f(inputs)) with combine one of addf, maximumf, "
                               "maxnumf, minimumf, minnumf");
      Value x = combiner->getOperand(0) == outArg ? combiner->getOperand(1)
                                                  : combiner->getOperand(0);
      FailureOr<Value> reduced = convertBodyValue(x, space, mapping);
      if (failed(reduced))
        return failure();
      Value r = *reduced;
      for (unsigned l : llvm::reverse(reductionLoops)) {
        auto type = cast<TileType>(r.getType());
        SmallVector<TileDim> shape(type.getShape());
        shape.erase(shape.begin() + l);
        TileType reducedType = tileType(shape, type.getElementType());
        IntegerAttr axis = b.getI64IntegerAttr(l);
        if (isa<arith::AddFOp>(combiner))
          r = RSumOp::create(b, loc, reducedType, r, axis);
        else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
          r = RMaxOp::create(b, loc, reducedType, r, axis);
        else
          r = RMinOp::create(b, loc, reducedType, r, axis);
      }
      Value out = load(nest, outAccess);
      r = toTensorOrder(r, parallelLoops, outLoops);
      if (isa<arith::AddFOp>(combiner))
        result = AddOp::create(b, loc, out, r);
      else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
        result = MaxOp::create(b, loc, out, r);
      else
        result = MinOp::create(b, loc, out, r);
    }
    stores.push_back(store(nest, outAccess, result));
  }
  // Every store evaluates its value when it runs, loads included: a store
  // whose value loads another output's tensor (its init, read by the body)
  // must run before the store that overwrites that tensor.
  FailureOr<SmallVector<Value>> ordered = orderStores(stores);
  if (failed(ordered))
    return op->emitOpError("cannot be converted to tile: its outputs read "
                           "each other's initial values");
  return wrapInLoops(nest, seq(*ordered));
}

FailureOr<SmallVector<Value>> Emitter::orderStores(ArrayRef<Value> stores) {
  // The tensors each store's value loads.
  auto loadsOf = [](Value stmt) {
    llvm::SmallPtrSet<Value, 4> tensors;
    SmallVector<Value> work{cast<StoreOp>(stmt.getDefiningOp()).getValue()};
    llvm::SmallPtrSet<Operation *, 16> seen;
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !seen.insert(def).second)
        continue;
      if (auto load = dyn_cast<LoadOp>(def))
        tensors.insert(load.getTensor());
      llvm::append_range(work, def->getOperands());
    }
    return tensors;
  };
  SmallVector<llvm::SmallPtrSet<Value, 4>> loads =
      llvm::map_to_vector(stores, loadsOf);
  // Repeatedly take the first store whose tensor no remaining other store
  // still has to load.
  SmallVector<Value> ordered;
  SmallVector<bool> done(stores.size(), false);
  while (ordered.size() < stores.size()) {
    bool progress = false;
    for (size_t i = 0; i < stores.size(); ++i) {
      if (done[i])
        continue;
      Value written = cast<StoreOp>(stores[i].getDefiningOp()).getTensor();
      bool readLater = false;
      for (size_t j = 0; j < stores.size(); ++j)
        readLater |= j != i && !done[j] && loads[j].contains(written);
      if (readLater)
        continue;
      ordered.push_back(stores[i]);
      done[i] = progress = true;
      break;
    }
    if (!progress)
      return failure();
  }
  return ordered;
}

FailureOr<Value> Emitter::emitReshape(Nest &nest) {
  Operation *op = nest.op;
  auto source = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  bool expand = isa<tensor::ExpandShapeOp>(op);
  SmallVector<ReassociationIndices> groups = getReshapeGroups(op);
  // `wide` is the side with one dimension per group, `split` the other.
  RankedTensorType wide = expand ? source : result;
  RankedTensorType split = expand ? result : source;
  SmallVector<Value> wideIdx, splitIdx(split.getRank());
  SmallVector<TileDim> wideShape, splitShape(split.getRank());
  SmallVector<std::pair<Value, int64_t>> loops; // (var, extent) per loop
  SmallVector<Value> steps;
  for (auto [g, group] : llvm::enumerate(groups)) {
    int64_t extent = wide.getDimSize(g);
    int64_t inner = 1;
    for (int64_t d : ArrayRef<int64_t>(group).drop_front())
      inner *= split.getDimSize(d);
    for (int64_t d : group) {
      splitIdx[d] = fullIndex;
      splitShape[d] = TileDim::concrete(split.getDimSize(d));
    }
    if (!isSplitGroup(split, group)) {
      wideIdx.push_back(fullIndex);
      wideShape.push_back(TileDim::concrete(extent));
      continue;
    }
    // One iteration per element of the group's outer dimension.
    std::string name = "s" + std::to_string(numReshapeVars++);
    Value var = VarOp::create(b, loc, VarType::get(ctx), b.getStringAttr(name));
    Value step = SizeOp::create(b, loc, inner);
    loops.push_back({var, extent});
    steps.push_back(step);
    wideIdx.push_back(TileIndexOp::create(b, loc, IndexExprType::get(ctx), var));
    wideShape.push_back(TileDim::concrete(inner));
    splitIdx[group.front()] =
        ElemIndexOp::create(b, loc, IndexExprType::get(ctx), var);
    splitShape[group.front()] = TileDim::concrete(1);
  }
  unsigned sourceSlot = plan.slotOf.lookup(op->getOperand(0));
  unsigned resultSlot = nest.resultSlots[0];
  Type element = source.getElementType();
  ArrayRef<Value> sourceIdx = expand ? wideIdx : splitIdx;
  ArrayRef<Value> resultIdx = expand ? splitIdx : wideIdx;
  ArrayRef<TileDim> sourceShape = expand ? wideShape : splitShape;
  ArrayRef<TileDim> resultShape = expand ? splitShape : wideShape;
  Value tile = LoadOp::create(b, loc, tileType(sourceShape, element),
                              slotArgs[sourceSlot], sourceIdx);
  Value reshaped =
      ReshapeOp::create(b, loc, tileType(resultShape, element), tile);
  Value stmt = StoreOp::create(b, loc, StmtType::get(ctx), reshaped,
                               slotArgs[resultSlot], resultIdx);
  for (int i = loops.size() - 1; i >= 0; --i)
    stmt = LoopOp::create(b, loc, StmtType::get(ctx), loops[i].first,
                          b.getI64IntegerAttr(0),
                          b.getI64IntegerAttr(loops[i].second), steps[i],
                          stmt);
  return stmt;
}

FailureOr<Value> Emitter::emitConstant(Nest &nest) {
  auto cst = cast<arith::ConstantOp>(nest.op);
  auto type = cast<RankedTensorType>(cst.getType());
  SmallVector<TileDim> shape = llvm::map_to_vector(
      type.getShape(), [](int64_t d) { return TileDim::concrete(d); });
  auto elements = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!elements || !isa<FloatType>(type.getElementType()))
    return cst.emitOpError("cannot be converted to tile: only dense float "
                           "constants are supported");
  Attribute value = elements.isSplat()
                        ? Attribute(elements.getSplatValue<FloatAttr>())
                        : Attribute(elements);
  Value tile = ConstantOp::create(b, loc, tileType(shape, type.getElementType()),
                                  value);
  SmallVector<Value> indices(type.getRank(), fullIndex);
  return StoreOp::create(b, loc, StmtType::get(ctx), tile,
                         slotArgs[nest.resultSlots[0]], indices)
      .getResult();
}

FailureOr<Value> Emitter::emitNest(Nest &nest) {
  switch (nest.kind) {
  case Nest::Linalg:
    return emitLinalg(nest);
  case Nest::Copy:
  case Nest::Slice:
    return wrapInLoops(
        nest, store(nest, nest.accesses[1], load(nest, nest.accesses[0])));
  case Nest::Reshape:
    return emitReshape(nest);
  case Nest::Constant:
    return emitConstant(nest);
  }
  llvm_unreachable("unknown nest kind");
}

FailureOr<ProgramOp> Emitter::run() {
  SmallVector<StringRef> names;
  SmallVector<TensorRefType> types;
  for (const Slot &slot : plan.slots) {
    names.push_back(slot.name);
    types.push_back(TensorRefType::get(ctx, slot.type.getShape(),
                                       slot.type.getElementType(), slot.role));
  }
  auto program = ProgramOp::create(b, loc, plan.func.getSymName(), names, types);
  // Which tensor holds each result of the function, for tools that compare
  // the program with it.
  SmallVector<StringRef> results;
  for (unsigned slot : plan.resultSlots)
    results.push_back(plan.slots[slot].name);
  program->setAttr(kResultsAttrName, b.getStrArrayAttr(results));
  Block &body = program.getBodyBlock();
  b.setInsertionPointToEnd(&body);
  slotArgs.assign(body.getArguments().begin(), body.getArguments().end());
  for (const LoopClass &cls : plan.classes) {
    classVars.push_back(
        VarOp::create(b, loc, VarType::get(ctx), b.getStringAttr(cls.name)));
    classSizes.push_back(cls.unit ? SizeOp::create(b, loc, 1)
                                  : SizeOp::create(b, loc, "tile_" + cls.name));
  }
  fullIndex = FullIndexOp::create(b, loc, IndexExprType::get(ctx));

  SmallVector<Value> stmts;
  for (Nest &nest : plan.nests) {
    FailureOr<Value> stmt = emitNest(nest);
    if (failed(stmt)) {
      program.erase();
      return failure();
    }
    stmts.push_back(*stmt);
  }
  YieldOp::create(b, loc, seq(stmts));
  return program;
}

FailureOr<ProgramOp> mlir::tileir::linalg_to_tile::emitProgram(Plan &plan) {
  return Emitter(plan).run();
}
