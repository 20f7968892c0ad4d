//===- ScalarProgram.cpp - Scalar arith/math code of a linalg body --------===//

#include "ScalarProgram.h"
#include "Environment.h"

#include "TileDialect/Reference/LinalgInterpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

std::optional<double> reference::getScalarAttributeValue(Attribute attr) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    if (intAttr.getType().isSignlessInteger(1))
      return intAttr.getValue().getBoolValue() ? 1.0 : 0.0;
    return static_cast<double>(intAttr.getValue().getSExtValue());
  }
  return std::nullopt;
}

/// The opcode of a supported scalar op (not arith.constant or linalg.index).
static std::optional<ScalarOpcode> getOpcode(Operation *op) {
  using Opcode = ScalarOpcode;
  return llvm::TypeSwitch<Operation *, std::optional<Opcode>>(op)
      .Case<arith::ExtFOp, arith::TruncFOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::ExtSIOp, arith::ExtUIOp>([](auto) { return Opcode::Copy; })
      .Case([](arith::AddFOp) { return Opcode::AddF; })
      .Case([](arith::SubFOp) { return Opcode::SubF; })
      .Case([](arith::MulFOp) { return Opcode::MulF; })
      .Case([](arith::DivFOp) { return Opcode::DivF; })
      .Case([](arith::RemFOp) { return Opcode::RemF; })
      .Case([](arith::NegFOp) { return Opcode::NegF; })
      .Case([](arith::MaximumFOp) { return Opcode::MaximumF; })
      .Case([](arith::MaxNumFOp) { return Opcode::MaxNumF; })
      .Case([](arith::MinimumFOp) { return Opcode::MinimumF; })
      .Case([](arith::MinNumFOp) { return Opcode::MinNumF; })
      .Case([](arith::CmpFOp) { return Opcode::CmpF; })
      .Case([](arith::SelectOp) { return Opcode::Select; })
      .Case([](math::ExpOp) { return Opcode::Exp; })
      .Case([](math::Exp2Op) { return Opcode::Exp2; })
      .Case([](math::ExpM1Op) { return Opcode::ExpM1; })
      .Case([](math::LogOp) { return Opcode::Log; })
      .Case([](math::Log2Op) { return Opcode::Log2; })
      .Case([](math::Log1pOp) { return Opcode::Log1P; })
      .Case([](math::SqrtOp) { return Opcode::Sqrt; })
      .Case([](math::RsqrtOp) { return Opcode::Rsqrt; })
      .Case([](math::TanhOp) { return Opcode::Tanh; })
      .Case([](math::ErfOp) { return Opcode::Erf; })
      .Case([](math::AbsFOp) { return Opcode::AbsF; })
      .Case([](math::PowFOp) { return Opcode::PowF; })
      .Case([](math::FmaOp) { return Opcode::Fma; })
      .Case([](math::SinOp) { return Opcode::Sin; })
      .Case([](math::CosOp) { return Opcode::Cos; })
      .Case([](math::FloorOp) { return Opcode::Floor; })
      .Case([](math::CeilOp) { return Opcode::Ceil; })
      .Case([](math::RoundOp) { return Opcode::Round; })
      .Case([](math::RoundEvenOp) { return Opcode::RoundEven; })
      .Case([](math::TruncOp) { return Opcode::Trunc; })
      .Case([](arith::AddIOp) { return Opcode::AddI; })
      .Case([](arith::SubIOp) { return Opcode::SubI; })
      .Case([](arith::MulIOp) { return Opcode::MulI; })
      .Case([](arith::DivSIOp) { return Opcode::DivSI; })
      .Case([](arith::RemSIOp) { return Opcode::RemSI; })
      .Case([](arith::CmpIOp) { return Opcode::CmpI; })
      .Case([](arith::AndIOp) { return Opcode::AndI; })
      .Case([](arith::OrIOp) { return Opcode::OrI; })
      .Case([](arith::XOrIOp) { return Opcode::XOrI; })
      .Case([](arith::MaxSIOp) { return Opcode::MaxSI; })
      .Case([](arith::MinSIOp) { return Opcode::MinSI; })
      .Case<arith::FPToSIOp, arith::FPToUIOp>(
          [](auto) { return Opcode::FPToInt; })
      .Default([](Operation *) { return std::nullopt; });
}

bool mlir::tileir::isRoundingConversion(Operation *op) {
  return isa<arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(op);
}

bool ScalarProgram::isScalarOp(Operation *op) {
  if (op->getNumRegions() != 0 || !getOpcode(op))
    return false;
  auto isScalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  return llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

class ScalarProgram::Compiler {
public:
  Compiler(ScalarProgram &program, Precision precision, OuterLookup lookup)
      : program(program), precision(precision), lookup(lookup) {}

  uint32_t newRegister(double initial = 0.0) {
    program.initialRegisters.push_back(initial);
    return static_cast<uint32_t>(program.initialRegisters.size() - 1);
  }

  void bindRegister(Value value, uint32_t reg) { registers[value] = reg; }

  /// The register holding `value`, as read by `user`.
  FailureOr<uint32_t> getRegister(Operation *user, Value value) {
    auto it = registers.find(value);
    if (it != registers.end())
      return it->second;
    if (std::optional<double> scalar = lookup(value)) {
      uint32_t reg = newRegister(*scalar);
      registers[value] = reg;
      return reg;
    }
    return user->emitOpError()
           << "uses a value that is not a scalar available to the reference "
              "evaluator";
  }

  /// The rounding applied to a result of type `type`: the element kind in
  /// F32 precision for float types, none for integers and in F64. F64Casts
  /// rounds only the conversions to a float type (HostTensor.h).
  FailureOr<int8_t> getRounding(Operation *op, Type type) {
    if (isa<IntegerType, IndexType>(type))
      return int8_t(-1);
    std::optional<ElementKind> kind = elementKindOf(type);
    if (!kind || !isa<FloatType>(type))
      return op->emitOpError()
             << "has result type " << type
             << ", which the reference evaluator does not support";
    bool rounds = precision == Precision::F32 ||
                  (roundsConversions(precision) && isRoundingConversion(op));
    if (!rounds || *kind == ElementKind::F64)
      return int8_t(-1);
    return static_cast<int8_t>(*kind);
  }

  LogicalResult compile(Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      std::optional<double> value =
          getScalarAttributeValue(constant.getValue());
      if (!value)
        return op->emitOpError()
               << "is not a scalar constant; the reference evaluator only "
                  "supports scalar constants inside linalg bodies";
      bindRegister(constant.getResult(), newRegister(*value));
      return success();
    }
    ScalarInstr instr{ScalarOpcode::Copy, -1, 0, 0, 0, 0, 0};
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      instr.opcode = ScalarOpcode::Index;
      instr.aux = static_cast<int64_t>(index.getDim());
      program.readsIndices = true;
    } else {
      std::optional<ScalarOpcode> opcode = getOpcode(op);
      if (!opcode || op->getNumRegions() != 0)
        return op->emitOpError()
               << "is not supported by the reference evaluator inside a "
                  "linalg body";
      instr.opcode = *opcode;
      if (auto cmpf = dyn_cast<arith::CmpFOp>(op))
        instr.aux = static_cast<int64_t>(cmpf.getPredicate());
      if (auto cmpi = dyn_cast<arith::CmpIOp>(op))
        instr.aux = static_cast<int64_t>(cmpi.getPredicate());
    }
    if (op->getNumResults() != 1 || op->getNumOperands() > 3)
      return op->emitOpError()
             << "has an operand or result count the reference evaluator does "
                "not support";
    for (Type type : op->getOperandTypes())
      if (!type.isIntOrIndexOrFloat())
        return op->emitOpError() << "has a non-scalar operand of type " << type
                                 << "; the reference evaluator supports only "
                                    "scalars inside linalg bodies";
    uint32_t *slots[] = {&instr.lhs, &instr.rhs, &instr.third};
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      FailureOr<uint32_t> reg = getRegister(op, operand);
      if (failed(reg))
        return failure();
      *slots[i] = *reg;
    }
    FailureOr<int8_t> rounding = getRounding(op, op->getResult(0).getType());
    if (failed(rounding))
      return failure();
    instr.roundKind = *rounding;
    instr.result = newRegister();
    bindRegister(op->getResult(0), instr.result);
    program.code.push_back(instr);
    return success();
  }

private:
  ScalarProgram &program;
  Precision precision;
  OuterLookup lookup;
  DenseMap<Value, uint32_t> registers;
};

FailureOr<ScalarProgram> ScalarProgram::compileBlock(Block &block,
                                                     Precision precision,
                                                     OuterLookup lookup) {
  ScalarProgram program;
  Compiler compiler(program, precision, lookup);
  program.numArguments = block.getNumArguments();
  for (BlockArgument arg : block.getArguments()) {
    if (!arg.getType().isIntOrIndexOrFloat())
      return emitError(arg.getLoc())
             << "linalg body argument of type " << arg.getType()
             << " is not a scalar the reference evaluator supports";
    compiler.bindRegister(arg, compiler.newRegister());
  }
  for (Operation &op : block.without_terminator())
    if (failed(compiler.compile(&op)))
      return failure();
  Operation *terminator = block.getTerminator();
  for (Value operand : terminator->getOperands()) {
    FailureOr<uint32_t> reg = compiler.getRegister(terminator, operand);
    if (failed(reg))
      return failure();
    program.results.push_back(*reg);
  }
  return program;
}

FailureOr<ScalarProgram> ScalarProgram::compileOp(Operation *op,
                                                  Precision precision,
                                                  OuterLookup lookup) {
  ScalarProgram program;
  Compiler compiler(program, precision, lookup);
  if (failed(compiler.compile(op)))
    return failure();
  for (Value result : op->getResults()) {
    FailureOr<uint32_t> reg = compiler.getRegister(op, result);
    if (failed(reg))
      return failure();
    program.results.push_back(*reg);
  }
  return program;
}

static bool compareFloats(int64_t predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (static_cast<arith::CmpFPredicate>(predicate)) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

static bool compareIntegers(int64_t predicate, double lhs, double rhs) {
  auto a = static_cast<int64_t>(lhs), b = static_cast<int64_t>(rhs);
  auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (static_cast<arith::CmpIPredicate>(predicate)) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

/// IEEE 754-2019 maximum: NaN-propagating, +0 above -0.
static double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

static double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// IEEE 754-2008 maxNum / minNum: a NaN operand yields the other operand.
static double maxNum(double a, double b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return maximum(a, b);
}

static double minNum(double a, double b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return minimum(a, b);
}

static int64_t toInt(double value) { return static_cast<int64_t>(value); }

void ScalarProgram::run(double *regs, const int64_t *indices) const {
  for (const ScalarInstr &instr : code) {
    double a = regs[instr.lhs], b = regs[instr.rhs];
    double r = 0.0;
    switch (instr.opcode) {
    case ScalarOpcode::Copy:
      r = a;
      break;
    case ScalarOpcode::AddF:
      r = a + b;
      break;
    case ScalarOpcode::SubF:
      r = a - b;
      break;
    case ScalarOpcode::MulF:
      r = a * b;
      break;
    case ScalarOpcode::DivF:
      r = a / b;
      break;
    case ScalarOpcode::RemF:
      r = std::fmod(a, b);
      break;
    case ScalarOpcode::NegF:
      r = -a;
      break;
    case ScalarOpcode::MaximumF:
      r = maximum(a, b);
      break;
    case ScalarOpcode::MaxNumF:
      r = maxNum(a, b);
      break;
    case ScalarOpcode::MinimumF:
      r = minimum(a, b);
      break;
    case ScalarOpcode::MinNumF:
      r = minNum(a, b);
      break;
    case ScalarOpcode::CmpF:
      r = compareFloats(instr.aux, a, b) ? 1.0 : 0.0;
      break;
    case ScalarOpcode::Select:
      r = a != 0.0 ? b : regs[instr.third];
      break;
    case ScalarOpcode::Exp:
      r = std::exp(a);
      break;
    case ScalarOpcode::Exp2:
      r = std::exp2(a);
      break;
    case ScalarOpcode::ExpM1:
      r = std::expm1(a);
      break;
    case ScalarOpcode::Log:
      r = std::log(a);
      break;
    case ScalarOpcode::Log2:
      r = std::log2(a);
      break;
    case ScalarOpcode::Log1P:
      r = std::log1p(a);
      break;
    case ScalarOpcode::Sqrt:
      r = std::sqrt(a);
      break;
    case ScalarOpcode::Rsqrt:
      r = 1.0 / std::sqrt(a);
      break;
    case ScalarOpcode::Tanh:
      r = std::tanh(a);
      break;
    case ScalarOpcode::Erf:
      r = std::erf(a);
      break;
    case ScalarOpcode::AbsF:
      r = std::fabs(a);
      break;
    case ScalarOpcode::PowF:
      r = std::pow(a, b);
      break;
    case ScalarOpcode::Fma:
      r = std::fma(a, b, regs[instr.third]);
      break;
    case ScalarOpcode::Sin:
      r = std::sin(a);
      break;
    case ScalarOpcode::Cos:
      r = std::cos(a);
      break;
    case ScalarOpcode::Floor:
      r = std::floor(a);
      break;
    case ScalarOpcode::Ceil:
      r = std::ceil(a);
      break;
    case ScalarOpcode::Round:
      r = std::round(a); // halfway cases away from zero
      break;
    case ScalarOpcode::RoundEven:
      r = std::nearbyint(a); // the default rounding mode: ties to even
      break;
    case ScalarOpcode::Trunc:
      r = std::trunc(a);
      break;
    case ScalarOpcode::AddI:
      r = static_cast<double>(toInt(a) + toInt(b));
      break;
    case ScalarOpcode::SubI:
      r = static_cast<double>(toInt(a) - toInt(b));
      break;
    case ScalarOpcode::MulI:
      r = static_cast<double>(toInt(a) * toInt(b));
      break;
    case ScalarOpcode::DivSI:
      r = toInt(b) == 0 ? 0.0 : static_cast<double>(toInt(a) / toInt(b));
      break;
    case ScalarOpcode::RemSI:
      r = toInt(b) == 0 ? 0.0 : static_cast<double>(toInt(a) % toInt(b));
      break;
    case ScalarOpcode::CmpI:
      r = compareIntegers(instr.aux, a, b) ? 1.0 : 0.0;
      break;
    case ScalarOpcode::AndI:
      r = static_cast<double>(toInt(a) & toInt(b));
      break;
    case ScalarOpcode::OrI:
      r = static_cast<double>(toInt(a) | toInt(b));
      break;
    case ScalarOpcode::XOrI:
      r = static_cast<double>(toInt(a) ^ toInt(b));
      break;
    case ScalarOpcode::MaxSI:
      r = std::max(a, b);
      break;
    case ScalarOpcode::MinSI:
      r = std::min(a, b);
      break;
    case ScalarOpcode::FPToInt:
      r = std::trunc(a);
      break;
    case ScalarOpcode::Index:
      r = static_cast<double>(indices[instr.aux]);
      break;
    }
    if (instr.roundKind >= 0)
      r = roundToElement(static_cast<ElementKind>(instr.roundKind), r);
    regs[instr.result] = r;
  }
}
