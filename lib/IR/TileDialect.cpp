//===- TileDialect.cpp - Tile dialect registration and types ------------===//

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/IR/TileAttrs.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileir;

#include "TileDialect/IR/TileDialect.cpp.inc"
#include "TileDialect/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TileDialect/IR/TileTypes.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TileDialect/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "TileDialect/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TileDialect/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TileDialect/IR/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TensorRefType
//===----------------------------------------------------------------------===//

static bool isStorageElementType(Type type) {
  return isa<FloatType>(type) || type.isInteger(1);
}

Type TensorRefType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef roleName;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc roleLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&roleName))
    return {};
  std::optional<TensorRole> role = symbolizeTensorRole(roleName);
  if (!role) {
    parser.emitError(roleLoc, "unknown tensor role '")
        << roleName << "'; expected input, output, inout or intermediate";
    return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TensorRefType>(loc,
                                       parser.getContext(), shape, elementType,
                                       *role);
}

void TensorRefType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << stringifyTensorRole(getRole()) << ">";
}

LogicalResult TensorRefType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 TensorRole role) {
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tensor extents must be positive, got " << dim;
  if (!isStorageElementType(elementType))
    return emitError()
           << "tensor element type must be a float type or i1, got "
           << elementType;
  // f32 holds every position exactly up to 2^24.
  if (role == TensorRole::Positions &&
      (shape.size() != 1 || !elementType.isF32() || shape[0] > (1 << 24)))
    return emitError() << "a positions tensor has one dimension of at most "
                          "2^24 elements and element type f32";
  return success();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

static ParseResult parseTileDim(AsmParser &parser, TileDim &dim) {
  int64_t value;
  OptionalParseResult number = parser.parseOptionalInteger(value);
  if (number.has_value()) {
    if (failed(*number))
      return failure();
    if (failed(parser.parseOptionalStar())) {
      dim = TileDim::concrete(value);
      return success();
    }
    StringRef sym;
    if (parser.parseKeyword(&sym))
      return failure();
    dim = TileDim::symbolic(StringAttr::get(parser.getContext(), sym), value);
    return success();
  }
  StringRef sym;
  if (parser.parseKeyword(&sym))
    return failure();
  dim = TileDim::symbolic(StringAttr::get(parser.getContext(), sym));
  return success();
}

Type TileType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<TileDim> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() { return parseTileDim(parser, shape.emplace_back()); },
          " in a tile shape") ||
      parser.parseComma() || parser.parseType(elementType) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(loc,
                                     parser.getContext(), shape, elementType);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  printTileShape(printer.getStream(), getShape());
  printer << ", " << getElementType() << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<TileDim> shape, Type elementType) {
  for (const TileDim &dim : shape)
    if (dim.coeff <= 0)
      return emitError() << "tile extents must be positive, got " << dim.coeff;
  if (!isa<FloatType>(elementType) && !elementType.isInteger(1))
    return emitError() << "tile element type must be a float type or i1, got "
                       << elementType;
  return success();
}

bool TileType::hasStaticShape() const {
  return llvm::all_of(getShape(), [](const TileDim &d) { return d.isConcrete(); });
}
