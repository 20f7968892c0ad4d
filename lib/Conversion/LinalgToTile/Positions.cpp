//===- Positions.cpp - linalg.index and integer arithmetic on it ----------===//

#include "Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::linalg_to_tile;

/// Integers of magnitude up to 2^24 are exact in f32.
static constexpr int64_t kExactLimit = int64_t(1) << 24;

PositionArithmetic::PositionArithmetic(linalg::LinalgOp op) : op(op) {}

/// The range of a + b and of a * b (operands within 2^24: the products fit
/// in 64 bits).
static IntRange addRanges(IntRange a, IntRange b) {
  return {a.lo + b.lo, a.hi + b.hi};
}
static IntRange mulRanges(IntRange a, IntRange b) {
  int64_t p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

/// The value of an integer constant (not an i1), if `value` is one.
static std::optional<int64_t> integerConstant(Value value) {
  auto cst = value.getDefiningOp<arith::ConstantOp>();
  auto attr = cst ? dyn_cast<IntegerAttr>(cst.getValue()) : IntegerAttr();
  if (!attr || attr.getType().isInteger(1))
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

FailureOr<IntRange> PositionArithmetic::bounded(IntRange r, Operation *def) {
  if (r.lo < -kExactLimit || r.hi > kExactLimit) {
    why = "'" + def->getName().getStringRef().str() + "' may reach " +
          std::to_string(r.lo < -kExactLimit ? r.lo : r.hi) +
          ", beyond the integers f32 holds exactly (2^24)";
    return failure();
  }
  return r;
}

FailureOr<IntRange> PositionArithmetic::nonNegative(Value value) {
  FailureOr<IntRange> r = rangeOf(value);
  if (succeeded(r) && r->lo < 0) {
    why = "an unsigned operation reads a value that may be negative";
    return failure();
  }
  return r;
}

FailureOr<IntRange>
PositionArithmetic::rangeOfAffine(AffineExpr expr,
                                  affine::AffineApplyOp apply) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return rangeOf(apply.getMapOperands()[dim.getPosition()]);
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return rangeOf(apply.getMapOperands()[apply.getAffineMap().getNumDims() +
                                          sym.getPosition()]);
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return bounded({c.getValue(), c.getValue()}, apply);
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin || (expr.getKind() != AffineExprKind::Add &&
               expr.getKind() != AffineExprKind::Mul)) {
    why = "'affine.apply' of a map other than sums and products";
    return failure();
  }
  FailureOr<IntRange> a = rangeOfAffine(bin.getLHS(), apply);
  if (failed(a))
    return failure();
  FailureOr<IntRange> b = rangeOfAffine(bin.getRHS(), apply);
  if (failed(b))
    return failure();
  return bounded(expr.getKind() == AffineExprKind::Add ? addRanges(*a, *b)
                                                       : mulRanges(*a, *b),
                 apply);
}

/// `expr` of an affine.apply on the converted `operands` (dimensions, then
/// symbols); rangeOfAffine checked its form.
static Value convertAffine(OpBuilder &b, Location loc, AffineExpr expr,
                           unsigned numDims, ArrayRef<Value> operands,
                           TileType type) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return operands[dim.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return operands[numDims + sym.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return ConstantOp::create(b, loc, type,
                              b.getF32FloatAttr(float(c.getValue())));
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Value lhs = convertAffine(b, loc, bin.getLHS(), numDims, operands, type);
  Value rhs = convertAffine(b, loc, bin.getRHS(), numDims, operands, type);
  if (expr.getKind() == AffineExprKind::Add)
    return AddOp::create(b, loc, lhs, rhs);
  return MulOp::create(b, loc, lhs, rhs);
}

FailureOr<IntRange> PositionArithmetic::rangeOf(Value value) {
  if (auto it = ranges.find(value); it != ranges.end())
    return it->second;
  FailureOr<IntRange> r = computeRange(value);
  if (succeeded(r))
    ranges[value] = *r;
  return r;
}

FailureOr<IntRange> PositionArithmetic::computeRange(Value value) {
  Operation *def = value.getDefiningOp();
  // (A constant may be defined outside the body: canonicalization hoists.)
  if (!def || (def->getParentOp() != op.getOperation() &&
               !isa<arith::ConstantOp>(def))) {
    why = "an integer value comes from outside the body";
    return failure();
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return bounded({0, op.getStaticLoopRanges()[index.getDim()] - 1}, def);
  if (isa<arith::ConstantOp>(def)) {
    std::optional<int64_t> c = integerConstant(value);
    if (!c) {
      why = "an integer constant that is not a number";
      return failure();
    }
    return bounded({*c, *c}, def);
  }
  auto both = [&](auto combine) -> FailureOr<IntRange> {
    FailureOr<IntRange> a = rangeOf(def->getOperand(0));
    if (failed(a))
      return failure();
    FailureOr<IntRange> b = rangeOf(def->getOperand(1));
    if (failed(b))
      return failure();
    return bounded(combine(*a, *b), def);
  };
  return llvm::TypeSwitch<Operation *, FailureOr<IntRange>>(def)
      .Case<arith::AddIOp>([&](auto) { return both(addRanges); })
      .Case<arith::SubIOp>([&](auto) {
        return both([](IntRange a, IntRange b) {
          return IntRange{a.lo - b.hi, a.hi - b.lo};
        });
      })
      .Case<arith::MulIOp>([&](auto) { return both(mulRanges); })
      .Case<arith::MaxSIOp>([&](auto) {
        return both([](IntRange a, IntRange b) {
          return IntRange{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
        });
      })
      .Case<arith::MinSIOp>([&](auto) {
        return both([](IntRange a, IntRange b) {
          return IntRange{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
        });
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [&](auto) { return rangeOf(def->getOperand(0)); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](auto) { return nonNegative(def->getOperand(0)); })
      .Case<arith::TruncIOp>([&](arith::TruncIOp trunc) -> FailureOr<IntRange> {
        FailureOr<IntRange> r = rangeOf(trunc.getIn());
        unsigned width = trunc.getType().getIntOrFloatBitWidth();
        if (succeeded(r) && width < 26 &&
            (r->lo < -(int64_t(1) << (width - 1)) ||
             r->hi >= (int64_t(1) << (width - 1)))) {
          why = "'arith.trunci' may wrap around";
          return failure();
        }
        return r;
      })
      .Case<arith::SelectOp>([&](arith::SelectOp select) -> FailureOr<IntRange> {
        if (failed(checkCondition(select.getCondition())))
          return failure();
        FailureOr<IntRange> a = rangeOf(select.getTrueValue());
        if (failed(a))
          return failure();
        FailureOr<IntRange> b = rangeOf(select.getFalseValue());
        if (failed(b))
          return failure();
        return IntRange{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
      })
      .Case<affine::AffineApplyOp>([&](affine::AffineApplyOp apply) {
        return rangeOfAffine(apply.getAffineMap().getResult(0), apply);
      })
      .Default([&](Operation *) -> FailureOr<IntRange> {
        why = "'" + def->getName().getStringRef().str() +
              "' on integers has no tile counterpart";
        return failure();
      });
}

LogicalResult PositionArithmetic::checkCondition(Value value) {
  if (conditions.contains(value))
    return success();
  if (failed(computeCondition(value)))
    return failure();
  conditions.insert(value);
  return success();
}

LogicalResult PositionArithmetic::computeCondition(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getParentOp() != op.getOperation()) {
    why = "a condition comes from outside the body";
    return failure();
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    bool isUnsigned = cmp.getPredicate() == arith::CmpIPredicate::ult ||
                      cmp.getPredicate() == arith::CmpIPredicate::ule ||
                      cmp.getPredicate() == arith::CmpIPredicate::ugt ||
                      cmp.getPredicate() == arith::CmpIPredicate::uge;
    for (Value operand : cmp.getOperands())
      if (failed(isUnsigned ? nonNegative(operand) : rangeOf(operand)))
        return failure();
    return success();
  }
  // Float comparisons are the float path's (convertBodyValue).
  if (isa<arith::CmpFOp>(def))
    return success();
  if (isa<arith::AndIOp, arith::OrIOp>(def))
    return success(succeeded(checkCondition(def->getOperand(0))) &&
                   succeeded(checkCondition(def->getOperand(1))));
  if (auto x = dyn_cast<arith::XOrIOp>(def)) {
    // Only `not c` of an integer comparison: the inverse comparison.
    for (unsigned i : {0u, 1u}) {
      auto cst = x->getOperand(i).getDefiningOp<arith::ConstantOp>();
      auto attr = cst ? dyn_cast<IntegerAttr>(cst.getValue()) : IntegerAttr();
      if (attr && attr.getValue().isAllOnes() &&
          x->getOperand(1 - i).getDefiningOp<arith::CmpIOp>())
        return checkCondition(x->getOperand(1 - i));
    }
    why = "'arith.xori' on conditions other than `not` of an integer "
          "comparison";
    return failure();
  }
  why = "the condition '" + def->getName().getStringRef().str() +
        "' has no tile counterpart";
  return failure();
}

bool linalg_to_tile::isIntegerBodyValue(Value value) {
  return isa<IndexType, IntegerType>(value.getType());
}

LogicalResult PositionArithmetic::checkExactInF32(Value value) {
  LogicalResult ok = value.getType().isInteger(1)
                         ? checkCondition(value)
                         : LogicalResult(rangeOf(value));
  if (failed(ok))
    return op->emitOpError("cannot be converted to tile: ") << why;
  return success();
}

FloatAttr linalg_to_tile::integerConstantAsF32(Value value) {
  std::optional<int64_t> c = integerConstant(value);
  if (!c || *c < -kExactLimit || *c > kExactLimit)
    return {};
  return FloatAttr::get(Float32Type::get(value.getContext()), double(*c));
}

/// The comparison of integers `pred` stands for (signed and unsigned alike:
/// `PositionArithmetic` proved the unsigned ones' operands non-negative).
static CmpPredicate toTilePredicate(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::eq:
    return CmpPredicate::eq;
  case P::ne:
    return CmpPredicate::ne;
  case P::slt:
  case P::ult:
    return CmpPredicate::lt;
  case P::sle:
  case P::ule:
    return CmpPredicate::le;
  case P::sgt:
  case P::ugt:
    return CmpPredicate::gt;
  case P::sge:
  case P::uge:
    return CmpPredicate::ge;
  }
  llvm_unreachable("unknown predicate");
}

static CmpPredicate inverse(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::eq:
    return CmpPredicate::ne;
  case CmpPredicate::ne:
    return CmpPredicate::eq;
  case CmpPredicate::lt:
    return CmpPredicate::ge;
  case CmpPredicate::le:
    return CmpPredicate::gt;
  case CmpPredicate::gt:
    return CmpPredicate::le;
  case CmpPredicate::ge:
    return CmpPredicate::lt;
  }
  llvm_unreachable("unknown predicate");
}

Value linalg_to_tile::convertIntegerOp(OpBuilder &b, Location loc,
                                       Operation *op, ArrayRef<Value> operands,
                                       TileType type) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<arith::AddIOp>(
          [&](auto) { return AddOp::create(b, loc, operands[0], operands[1]); })
      .Case<arith::SubIOp>(
          [&](auto) { return SubOp::create(b, loc, operands[0], operands[1]); })
      .Case<arith::MulIOp>(
          [&](auto) { return MulOp::create(b, loc, operands[0], operands[1]); })
      .Case<arith::MaxSIOp>(
          [&](auto) { return MaxOp::create(b, loc, operands[0], operands[1]); })
      .Case<arith::MinSIOp>(
          [&](auto) { return MinOp::create(b, loc, operands[0], operands[1]); })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>([&](auto) { return operands[0]; })
      .Case<affine::AffineApplyOp>([&](affine::AffineApplyOp apply) {
        AffineMap map = apply.getAffineMap();
        return convertAffine(b, loc, map.getResult(0), map.getNumDims(),
                             operands, type);
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](auto) -> Value {
        if (operands[0].getType() == type)
          return operands[0];
        return CastOp::create(b, loc, type, operands[0]);
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) -> Value {
        return CmpOp::create(b, loc, type, toTilePredicate(cmp.getPredicate()),
                             operands[0], operands[1]);
      })
      // a and b = a ? b : a; a or b = a ? a : b.
      .Case<arith::AndIOp>([&](auto) {
        return SelectOp::create(b, loc, type, operands[0], operands[1],
                                operands[0]);
      })
      .Case<arith::OrIOp>([&](auto) {
        return SelectOp::create(b, loc, type, operands[0], operands[0],
                                operands[1]);
      })
      // not c (c an integer comparison): the inverse comparison.
      .Case<arith::XOrIOp>([&](auto) -> Value {
        for (Value operand : operands)
          if (auto cmp = operand ? operand.getDefiningOp<CmpOp>() : CmpOp())
            return CmpOp::create(b, loc, type, inverse(cmp.getPredicate()),
                                 cmp.getLhs(), cmp.getRhs());
        return {};
      })
      .Default([](Operation *) { return Value(); });
}
