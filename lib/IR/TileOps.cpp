//===- TileOps.cpp - Tile dialect operations ------------------------------===//

#include "TileDialect/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tileir;

static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                      ArrayRef<StringRef> tensorNames,
                      ArrayRef<TensorRefType> tensorTypes) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getTensorNamesAttrName(state.name),
                     builder.getStrArrayAttr(tensorNames));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (TensorRefType type : tensorTypes)
    block->addArgument(type, state.location);
}

ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  SmallVector<StringRef> names;
  for (OpAsmParser::Argument &arg : args)
    names.push_back(arg.ssaName.name.drop_front());
  result.addAttribute(getTensorNamesAttrName(result.name),
                      parser.getBuilder().getStrArrayAttr(names));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, args);
}

void ProgramOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  llvm::interleaveComma(getBodyBlock().getArguments(), p,
                        [&](BlockArgument arg) {
                          p.printOperand(arg);
                          p << ": " << arg.getType();
                        });
  p << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getSymNameAttrName(), getTensorNamesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void ProgramOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  ArrayAttr names = getTensorNames();
  for (BlockArgument arg : region.front().getArguments())
    if (arg.getArgNumber() < names.size())
      setNameFn(arg, cast<StringAttr>(names[arg.getArgNumber()]).getValue());
}

YieldOp ProgramOp::getYield() {
  if (getBody().empty() || getBodyBlock().empty())
    return {};
  return dyn_cast<YieldOp>(getBodyBlock().back());
}

Value ProgramOp::getRoot() {
  YieldOp yield = getYield();
  return yield ? yield.getRoot() : Value();
}

void mlir::tileir::collectSequenceLeaves(Value stmt,
                                         SmallVectorImpl<Value> &out) {
  SmallVector<Value> work{stmt};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto seq = v.getDefiningOp<SeqOp>()) {
      work.push_back(seq.getSecond());
      work.push_back(seq.getFirst());
      continue;
    }
    out.push_back(v);
  }
}

StringRef ProgramOp::getTensorName(Value tensor) {
  auto arg = dyn_cast<BlockArgument>(tensor);
  if (!arg || arg.getOwner() != &getBodyBlock())
    return "<unknown>";
  return getTensorName(arg.getArgNumber());
}

LogicalResult ProgramOp::verify() {
  Block &block = getBodyBlock();
  if (getTensorNames().size() != block.getNumArguments())
    return emitOpError("has ") << getTensorNames().size()
                               << " tensor names for "
                               << block.getNumArguments() << " tensors";
  llvm::StringMap<unsigned> seen;
  for (BlockArgument arg : block.getArguments()) {
    if (!isa<TensorRefType>(arg.getType()))
      return emitOpError("argument #")
             << arg.getArgNumber() << " must be a !tile.tensor, got "
             << arg.getType();
    StringRef name = getTensorName(arg.getArgNumber());
    auto [it, inserted] = seen.try_emplace(name, arg.getArgNumber());
    if (!inserted)
      return emitOpError("declares tensor '")
             << name << "' twice (arguments #" << it->second << " and #"
             << arg.getArgNumber() << ")";
  }
  // `tile.may_alias = [["A", "B"], ...]`: pairs of tensors the caller may
  // pass the same buffer for; legality checks treat them as one memory.
  if (Attribute attr = (*this)->getAttr("tile.may_alias")) {
    auto pairs = dyn_cast<ArrayAttr>(attr);
    if (!pairs)
      return emitOpError("'tile.may_alias' must be an array of tensor name "
                         "pairs");
    for (Attribute p : pairs) {
      auto pair = dyn_cast<ArrayAttr>(p);
      if (!pair || pair.size() != 2 || !isa<StringAttr>(pair[0]) ||
          !isa<StringAttr>(pair[1]))
        return emitOpError("'tile.may_alias' entries must be pairs of tensor "
                           "names, got ")
               << p;
      for (Attribute n : pair)
        if (!seen.count(cast<StringAttr>(n).getValue()))
          return emitOpError("'tile.may_alias' names unknown tensor ") << n;
      if (pair[0] == pair[1])
        return emitOpError("'tile.may_alias' pairs a tensor with itself: ")
               << p;
    }
  }
  return success();
}

FailureOr<SmallVector<unsigned>>
mlir::tileir::getProgramOutputs(ProgramOp program) {
  SmallVector<unsigned> out;
  Block &block = program.getBodyBlock();
  if (auto results = program->getAttrOfType<ArrayAttr>(kResultsAttrName)) {
    for (Attribute attr : results) {
      StringRef name = cast<StringAttr>(attr).getValue();
      unsigned i = 0, e = block.getNumArguments();
      while (i < e && program.getTensorName(i) != name)
        ++i;
      if (i == e)
        return program.emitError("tile.results names '")
               << name << "', which is not a tensor of the program";
      out.push_back(i);
    }
    return out;
  }
  for (BlockArgument arg : block.getArguments()) {
    TensorRole role = cast<TensorRefType>(arg.getType()).getRole();
    if (role == TensorRole::Output || role == TensorRole::InOut)
      out.push_back(arg.getArgNumber());
  }
  return out;
}

//===----------------------------------------------------------------------===//
// VarOp, SizeOp and index expressions
//===----------------------------------------------------------------------===//

void VarOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getName());
}

LogicalResult VarOp::verify() {
  if (!isIdentifier(getName()))
    return emitOpError("loop variable name '")
           << getName() << "' is not an identifier";
  return success();
}

void SizeOp::build(OpBuilder &builder, OperationState &state, int64_t value) {
  build(builder, state, SizeType::get(builder.getContext()),
        builder.getI64IntegerAttr(value));
}

void SizeOp::build(OpBuilder &builder, OperationState &state,
                   StringRef symbol) {
  build(builder, state, SizeType::get(builder.getContext()),
        builder.getStringAttr(symbol));
}

void SizeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (auto sym = dyn_cast<StringAttr>(getValue()))
    setNameFn(getResult(), sym.getValue());
  else
    setNameFn(getResult(), "c" + std::to_string(getDim().coeff));
}

ParseResult SizeOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  int64_t value;
  OptionalParseResult number = parser.parseOptionalInteger(value);
  Attribute attr;
  if (number.has_value()) {
    if (failed(*number))
      return failure();
    attr = b.getI64IntegerAttr(value);
  } else {
    std::string symbol;
    if (parser.parseString(&symbol))
      return failure();
    attr = b.getStringAttr(symbol);
  }
  result.addAttribute(getValueAttrName(result.name), attr);
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addTypes(SizeType::get(b.getContext()));
  return success();
}

void SizeOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (auto sym = dyn_cast<StringAttr>(getValue()))
    p.printString(sym.getValue());
  else
    p << cast<IntegerAttr>(getValue()).getInt();
  p.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
}

TileDim SizeOp::getDim() {
  if (auto sym = dyn_cast<StringAttr>(getValue()))
    return TileDim::symbolic(sym);
  return TileDim::concrete(cast<IntegerAttr>(getValue()).getInt());
}

LogicalResult SizeOp::verify() {
  if (auto sym = dyn_cast<StringAttr>(getValue())) {
    if (!isIdentifier(sym.getValue()))
      return emitOpError("tile size symbol '")
             << sym.getValue() << "' is not an identifier";
    return success();
  }
  int64_t value = cast<IntegerAttr>(getValue()).getInt();
  if (value <= 0)
    return emitOpError("tile size must be positive, got ") << value;
  return success();
}

LogicalResult ConstTileIndexOp::verify() {
  if (getBaseIndex() < 0)
    return emitOpError("base must be non-negative, got ") << getBaseIndex();
  if (getSizeIndex() <= 0)
    return emitOpError("size must be positive, got ") << getSizeIndex();
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

/// Checks what one access can check on its own: the tensor is the program's,
/// there is one index per dimension, and every dimension not indexed by
/// `tile.tile` (whose extent depends on the binding loop, checked by the
/// program) has the indexed extent and stays in bounds.
static LogicalResult verifyAccess(Operation *op, Value tensor,
                                  ValueRange indices, TileType tile,
                                  StringRef tileRole) {
  auto tensorType = cast<TensorRefType>(tensor.getType());
  auto arg = dyn_cast<BlockArgument>(tensor);
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return op->emitOpError("must be nested in a tile.program");
  if (!arg || arg.getOwner() != &program.getBodyBlock())
    return op->emitOpError("accesses a tensor that is not declared by the "
                           "enclosing tile.program");
  StringRef name = program.getTensorName(tensor);
  if (static_cast<int64_t>(indices.size()) != tensorType.getRank())
    return op->emitOpError("indexes tensor '")
           << name << "' of rank " << tensorType.getRank() << " with "
           << indices.size() << " indices";
  if (tile.getRank() != tensorType.getRank())
    return op->emitOpError() << tileRole << " tile " << toString(tile.getShape())
                             << " must have the rank of tensor '" << name
                             << "' (" << tensorType.getRank() << ")";
  if (tile.getElementType() != tensorType.getElementType())
    return op->emitOpError() << tileRole << " element type "
                             << tile.getElementType()
                             << " differs from the element type "
                             << tensorType.getElementType() << " of tensor '"
                             << name << "'";
  for (auto [dim, index] : llvm::enumerate(indices)) {
    int64_t extent = tensorType.getShape()[dim];
    Operation *def = index.getDefiningOp();
    std::optional<TileDim> expected;
    if (isa_and_nonnull<FullIndexOp>(def)) {
      expected = TileDim::concrete(extent);
    } else if (isa_and_nonnull<ElemIndexOp>(def)) {
      expected = TileDim::concrete(1);
    } else if (auto slice = dyn_cast_or_null<ConstTileIndexOp>(def)) {
      if (slice.getBaseIndex() + slice.getSizeIndex() > extent)
        return op->emitOpError("slice [")
               << slice.getBaseIndex() << ", " << slice.getBaseIndex() + slice.getSizeIndex()
               << ") of dimension " << dim << " is out of bounds for tensor '"
               << name << "' of extent " << extent;
      expected = TileDim::concrete(slice.getSizeIndex());
    } else if (!isa_and_nonnull<TileIndexOp>(def)) {
      return op->emitOpError("index #") << dim << " is not an index expression";
    }
    if (expected && tile.getShape()[dim] != *expected)
      return op->emitOpError() << tileRole << " tile "
                               << toString(tile.getShape())
                               << " does not match the indexed region: "
                                  "dimension "
                               << dim << " has extent " << toString(tile.getShape()[dim])
                               << " but the index selects " << toString(*expected);
  }
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getTensor(), getIndices(), getResult().getType(),
                      "loaded");
}

LogicalResult StoreOp::verify() {
  if (failed(verifyAccess(*this, getTensor(), getIndices(),
                          getValue().getType(), "stored")))
    return failure();
  auto tensorType = cast<TensorRefType>(getTensor().getType());
  if (tensorType.getRole() == TensorRole::Positions)
    return emitOpError("stores into positions tensor '")
           << (*this)->getParentOfType<ProgramOp>().getTensorName(getTensor())
           << "', whose element n is n";
  if (!tensorType.isWritable())
    return emitOpError("stores into input tensor '")
           << (*this)->getParentOfType<ProgramOp>().getTensorName(getTensor())
           << "'; declare it inout to update it in place";
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

std::optional<TileDim> LoopOp::getStepDim() {
  if (auto size = getStep().getDefiningOp<SizeOp>())
    return size.getDim();
  return std::nullopt;
}

VarOp LoopOp::getVarOp() { return getVar().getDefiningOp<VarOp>(); }

LogicalResult LoopOp::verify() {
  if (!getVarOp())
    return emitOpError("loop variable must be defined by tile.var");
  std::optional<TileDim> step = getStepDim();
  if (!step)
    return emitOpError("step must be defined by tile.size");
  if (getStartIndex() < 0 || getStartIndex() >= getEndIndex())
    return emitOpError("range [")
           << getStartIndex() << ", " << getEndIndex()
           << ") must be non-empty and start at a non-negative index";
  if (step->isConcrete() && (getEndIndex() - getStartIndex()) % step->coeff != 0)
    return emitOpError("step ") << step->coeff << " does not divide the range ["
                                << getStartIndex() << ", " << getEndIndex() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::verify() {
  if (getResult().getType().getShape() != getLhs().getType().getShape())
    return emitOpError("result shape ")
           << toString(getResult().getType().getShape())
           << " differs from the operand shape "
           << toString(getLhs().getType().getShape());
  return success();
}

LogicalResult SelectOp::verify() {
  if (getCondition().getType().getShape() != getResult().getType().getShape())
    return emitOpError("condition shape ")
           << toString(getCondition().getType().getShape())
           << " differs from the value shape "
           << toString(getResult().getType().getShape());
  return success();
}

/// Checks that `axis` names a dimension of a rank-`rank` tile.
static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                StringRef what = "axis") {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << what << " " << axis
                             << " is out of range for a tile of rank " << rank;
  return success();
}

/// Checks the result shape of a layout or reduction op against the one it
/// must have.
static LogicalResult verifyResultShape(Operation *op, TileType result,
                                       ArrayRef<TileDim> expected) {
  if (result.getShape() != expected)
    return op->emitOpError("result shape ")
           << toString(result.getShape()) << " should be "
           << toString(expected);
  return success();
}

static LogicalResult verifySameElementType(Operation *op, TileType operand,
                                           TileType result) {
  if (operand.getElementType() != result.getElementType())
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from the operand's "
           << operand.getElementType();
  return success();
}

template <typename ReduceOp>
static LogicalResult verifyReduction(ReduceOp op) {
  TileType in = op.getOperand().getType();
  TileType out = op.getResult().getType();
  if (failed(verifyAxis(op, op.axis(), in.getRank())) ||
      failed(verifySameElementType(op, in, out)))
    return failure();
  SmallVector<TileDim> expected(in.getShape());
  expected.erase(expected.begin() + op.axis());
  return verifyResultShape(op, out, expected);
}

LogicalResult RSumOp::verify() { return verifyReduction(*this); }
LogicalResult RMaxOp::verify() { return verifyReduction(*this); }
LogicalResult RMinOp::verify() { return verifyReduction(*this); }

LogicalResult MatmulOp::verify() {
  TileType lhs = getLhs().getType(), rhs = getRhs().getType();
  TileType out = getResult().getType();
  if (lhs.getRank() < 2 || lhs.getRank() != rhs.getRank())
    return emitOpError("operands must have one rank of at least 2, got ")
           << lhs.getRank() << " and " << rhs.getRank();
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("operand element types differ: ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  int64_t rank = lhs.getRank();
  ArrayRef<TileDim> a = lhs.getShape(), b = rhs.getShape();
  for (int64_t i = 0; i < rank - 2; ++i)
    if (a[i] != b[i])
      return emitOpError("batch dimension ")
             << i << " differs: " << toString(a[i]) << " and " << toString(b[i]);
  if (a[rank - 1] != b[rank - 2])
    return emitOpError("contraction extents differ: lhs ")
           << toString(a) << " has " << toString(a[rank - 1]) << ", rhs "
           << toString(b) << " has " << toString(b[rank - 2]);
  SmallVector<TileDim> expected(a.drop_back());
  expected.push_back(b.back());
  return verifyResultShape(*this, out, expected);
}

//===----------------------------------------------------------------------===//
// Layout ops
//===----------------------------------------------------------------------===//

LogicalResult PermuteOp::verify() {
  TileType in = getOperand().getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return emitOpError("permutation has ")
           << perm.size() << " entries for a tile of rank " << in.getRank();
  SmallVector<bool> used(perm.size(), false);
  SmallVector<TileDim> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || used[p])
      return emitOpError("[")
             << llvm::make_range(perm.begin(), perm.end())
             << "] is not a permutation of the dimensions 0.."
             << in.getRank() - 1;
    used[p] = true;
    expected.push_back(in.getShape()[p]);
  }
  if (failed(verifySameElementType(*this, in, getResult().getType())))
    return failure();
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult TransposeOp::verify() {
  TileType in = getOperand().getType();
  if (failed(verifyAxis(*this, dim0(), in.getRank(), "dimension")) ||
      failed(verifyAxis(*this, dim1(), in.getRank(), "dimension")) ||
      failed(verifySameElementType(*this, in, getResult().getType())))
    return failure();
  if (dim0() == dim1())
    return emitOpError("transposes dimension ") << dim0() << " with itself";
  SmallVector<TileDim> expected(in.getShape());
  std::swap(expected[dim0()], expected[dim1()]);
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult BcastOp::verify() {
  TileType in = getOperand().getType(), out = getResult().getType();
  ArrayRef<int64_t> dims = getDims();
  if (failed(verifySameElementType(*this, in, out)))
    return failure();
  if (dims.empty())
    return emitOpError("must insert at least one dimension");
  if (out.getRank() != in.getRank() + static_cast<int64_t>(dims.size()))
    return emitOpError("inserting ")
           << dims.size() << " dimensions into a tile of rank " << in.getRank()
           << " gives rank " << in.getRank() + dims.size() << ", not "
           << out.getRank();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (failed(verifyAxis(*this, d, out.getRank(), "broadcast dimension")))
      return failure();
    if (i > 0 && d <= dims[i - 1])
      return emitOpError("broadcast dimensions must be strictly increasing");
  }
  SmallVector<TileDim> kept;
  for (int64_t i = 0; i < out.getRank(); ++i)
    if (!llvm::is_contained(dims, i))
      kept.push_back(out.getShape()[i]);
  if (ArrayRef<TileDim>(kept) != in.getShape())
    return emitOpError("result shape ")
           << toString(out.getShape()) << " does not keep the operand shape "
           << toString(in.getShape()) << " outside the broadcast dimensions";
  return success();
}

LogicalResult SqueezeOp::verify() {
  TileType in = getOperand().getType();
  if (failed(verifyAxis(*this, axis(), in.getRank())) ||
      failed(verifySameElementType(*this, in, getResult().getType())))
    return failure();
  if (in.getShape()[axis()] != TileDim::concrete(1))
    return emitOpError("squeezes dimension ")
           << axis() << " of extent " << toString(in.getShape()[axis()])
           << "; only extent 1 can be removed";
  SmallVector<TileDim> expected(in.getShape());
  expected.erase(expected.begin() + axis());
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult UnsqueezeOp::verify() {
  TileType in = getOperand().getType();
  if (failed(verifyAxis(*this, axis(), in.getRank() + 1)) ||
      failed(verifySameElementType(*this, in, getResult().getType())))
    return failure();
  SmallVector<TileDim> expected(in.getShape());
  expected.insert(expected.begin() + axis(), TileDim::concrete(1));
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult ReshapeOp::verify() {
  TileType in = getOperand().getType(), out = getResult().getType();
  if (failed(verifySameElementType(*this, in, out)))
    return failure();
  if (!haveSameElementCount(in.getShape(), out.getShape()))
    return emitOpError("cannot reshape ")
           << toString(in.getShape()) << " into "
           << toString(out.getShape())
           << ": the element counts differ";
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().size() < 2)
    return emitOpError("needs at least two inputs, got ")
           << getInputs().size();
  auto first = cast<TileType>(getInputs().front().getType());
  if (failed(verifyAxis(*this, axis(), first.getRank())))
    return failure();
  SmallVector<TileDim> expected(first.getShape());
  for (Value input : getInputs().drop_front()) {
    auto type = cast<TileType>(input.getType());
    if (type.getElementType() != first.getElementType() ||
        type.getRank() != first.getRank())
      return emitOpError("inputs must share rank and element type");
    for (int64_t d = 0; d < first.getRank(); ++d) {
      if (d == axis())
        continue;
      if (type.getShape()[d] != first.getShape()[d])
        return emitOpError("inputs differ in dimension ")
               << d << " (" << toString(first.getShape()[d]) << " and "
               << toString(type.getShape()[d]) << "), which is not the concat axis";
    }
    std::optional<TileDim> sum = expected[axis()].add(type.getShape()[axis()]);
    if (!sum)
      return emitOpError("cannot represent the extent ")
             << toString(expected[axis()]) << " + " << toString(type.getShape()[axis()])
             << " along the concat axis";
    expected[axis()] = *sum;
  }
  if (failed(verifySameElementType(*this, first, getResult().getType())))
    return failure();
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult CastOp::verify() {
  TileType in = getOperand().getType(), out = getResult().getType();
  if (in.getShape() != out.getShape())
    return emitOpError("cannot change the shape ")
           << toString(in.getShape()) << " to "
           << toString(out.getShape()) << "; use tile.reshape";
  if (!isa<FloatType>(out.getElementType()))
    return emitOpError("result element type must be a float type, got ")
           << out.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

/// Parses a float, also `inf`, `-inf` and `nan`, which printFloatValue uses
/// for the values a decimal cannot spell.
static ParseResult parseFloatValue(OpAsmParser &parser, double &value) {
  bool negative = succeeded(parser.parseOptionalMinus());
  if (succeeded(parser.parseOptionalKeyword("inf")))
    value = std::numeric_limits<double>::infinity();
  else if (succeeded(parser.parseOptionalKeyword("nan")))
    value = std::numeric_limits<double>::quiet_NaN();
  else if (parser.parseFloat(value))
    return failure();
  if (negative)
    value = -value;
  return success();
}

/// Prints a float so that parseFloatValue reads back the same value.
static void printFloatValue(OpAsmPrinter &p, const APFloat &value) {
  if (value.isNaN())
    p << "nan";
  else if (value.isInfinity())
    p << (value.isNegative() ? "-inf" : "inf");
  else
    p.printFloat(value);
}

/// Parses a nested list of numbers such as `[[1.0, 2.0], [3.0, 4.0]]`,
/// recording the extent of each nesting level.
static ParseResult parseNestedList(OpAsmParser &parser, unsigned depth,
                                   SmallVectorImpl<int64_t> &shape,
                                   SmallVectorImpl<double> &values) {
  if (failed(parser.parseOptionalLSquare())) {
    if (depth != shape.size())
      return parser.emitError(parser.getCurrentLocation(),
                              "dense values are nested unevenly");
    return parseFloatValue(parser, values.emplace_back());
  }
  int64_t count = 0;
  if (depth == shape.size())
    shape.push_back(-1);
  auto parseElement = [&]() -> ParseResult {
    ++count;
    return parseNestedList(parser, depth + 1, shape, values);
  };
  if (parser.parseCommaSeparatedList(parseElement) || parser.parseRSquare())
    return failure();
  if (shape[depth] != -1 && shape[depth] != count)
    return parser.emitError(parser.getCurrentLocation(),
                            "dense values are nested unevenly");
  shape[depth] = count;
  return success();
}

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  bool dense = succeeded(parser.parseOptionalKeyword("dense"));
  SmallVector<int64_t> shape;
  SmallVector<double> values;
  SMLoc loc = parser.getCurrentLocation();
  if (dense) {
    if (parser.parseLess() || parseNestedList(parser, 0, shape, values) ||
        parser.parseGreater())
      return failure();
  } else if (parseFloatValue(parser, values.emplace_back())) {
    return failure();
  }
  TileType type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  auto elementType = dyn_cast<FloatType>(type.getElementType());
  if (!elementType)
    return parser.emitError(loc, "constant tiles must hold floats");
  auto toAttr = [&](double v) -> Attribute {
    return FloatAttr::get(elementType, v);
  };
  Attribute value;
  if (dense) {
    SmallVector<Attribute> attrs = llvm::map_to_vector(values, toAttr);
    value = DenseElementsAttr::get(RankedTensorType::get(shape, elementType),
                                   attrs);
  } else {
    value = toAttr(values.front());
  }
  result.addAttribute(getValueAttrName(result.name), value);
  result.addTypes(type);
  return success();
}

/// Prints the nested list of a dense constant.
static void printNestedList(OpAsmPrinter &p, ArrayRef<int64_t> shape,
                            ArrayRef<APFloat> values) {
  if (shape.empty()) {
    printFloatValue(p, values.front());
    return;
  }
  int64_t stride = values.size() / std::max<int64_t>(shape.front(), 1);
  p << '[';
  for (int64_t i = 0; i < shape.front(); ++i) {
    if (i)
      p << ", ";
    printNestedList(p, shape.drop_front(), values.slice(i * stride, stride));
  }
  p << ']';
}

void ConstantOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (auto splat = dyn_cast<FloatAttr>(getValue())) {
    printFloatValue(p, splat.getValue());
  } else {
    auto dense = cast<DenseElementsAttr>(getValue());
    SmallVector<APFloat> values(dense.getValues<APFloat>());
    p << "dense<";
    printNestedList(p, dense.getType().getShape(), values);
    p << '>';
  }
  p.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
  p << " : " << getResult().getType();
}

LogicalResult ConstantOp::verify() {
  TileType type = getResult().getType();
  if (auto splat = dyn_cast<FloatAttr>(getValue())) {
    if (splat.getType() != type.getElementType())
      return emitOpError("value type ")
             << splat.getType() << " differs from the element type "
             << type.getElementType();
    return success();
  }
  auto dense = dyn_cast<DenseFPElementsAttr>(getValue());
  if (!dense)
    return emitOpError("value must be a float or dense float elements");
  if (!type.hasStaticShape())
    return emitOpError("dense values need a concrete tile shape, got ")
           << toString(type.getShape());
  SmallVector<TileDim> shape = llvm::map_to_vector(
      dense.getType().getShape(), [](int64_t n) { return TileDim::concrete(n); });
  if (ArrayRef<TileDim>(shape) != type.getShape() ||
      dense.getElementType() != type.getElementType())
    return emitOpError("dense values of type ")
           << dense.getType() << " do not match the tile type " << type;
  return success();
}

#define GET_OP_CLASSES
#include "TileDialect/IR/TileOps.cpp.inc"
