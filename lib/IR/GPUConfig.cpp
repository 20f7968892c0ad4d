//===- GPUConfig.cpp - #tile.gpu_config -----------------------------------===//

#include "TileDialect/IR/TileAttrs.h"
#include "TileDialect/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tileir;

static constexpr llvm::StringLiteral kTileSizesKey = "tile_sizes";

/// The upper bound of integer knobs that have none.
static constexpr int64_t kNoMax = std::numeric_limits<int64_t>::max();

ArrayRef<GPUConfigKnob> tileir::getGPUConfigKnobs() {
  static const GPUConfigKnob knobs[] = {
#define TILE_GPU_INT_KNOB(Name, Key, Default, Min, Max, Doc)                   \
  {Key, false, Default, Min, Max, Doc},
#define TILE_GPU_BOOL_KNOB(Name, Key, Default, Doc)                            \
  {Key, true, Default, 0, 1, Doc},
#include "TileDialect/IR/GPUConfigKnobs.def"
  };
  return knobs;
}

static const GPUConfigKnob *findKnob(StringRef key) {
  for (const GPUConfigKnob &knob : getGPUConfigKnobs())
    if (knob.key == key)
      return &knob;
  return nullptr;
}

/// "max_tile_size, min_blocks, ..., tile_sizes": for unknown-key errors.
static std::string knownKeys() {
  std::string keys;
  for (const GPUConfigKnob &knob : getGPUConfigKnobs())
    keys += knob.key.str() + ", ";
  return keys + kTileSizesKey.str();
}

//===----------------------------------------------------------------------===//
// Construction, parsing, printing
//===----------------------------------------------------------------------===//

GPUConfigAttr GPUConfigAttr::get(MLIRContext *context) {
  return get(context, DictionaryAttr::get(context, {}));
}

LogicalResult
GPUConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      DictionaryAttr fields) {
  for (NamedAttribute field : fields) {
    StringRef key = field.getName().getValue();
    if (key == kTileSizesKey) {
      auto sizes = dyn_cast<DictionaryAttr>(field.getValue());
      if (!sizes)
        return emitError() << "gpu_config field 'tile_sizes' must be a "
                              "dictionary NAME = N";
      for (NamedAttribute size : sizes) {
        auto value = dyn_cast<IntegerAttr>(size.getValue());
        if (!value || value.getValue().getSExtValue() <= 0)
          return emitError() << "gpu_config tile size '"
                             << size.getName().getValue()
                             << "' must be a positive integer";
      }
      continue;
    }
    const GPUConfigKnob *knob = findKnob(key);
    if (!knob)
      return emitError() << "gpu_config has no field '" << key
                         << "'; the fields are " << knownKeys();
    if (knob->isBool) {
      if (!isa<BoolAttr>(field.getValue()))
        return emitError() << "gpu_config field '" << key
                           << "' must be true or false";
      continue;
    }
    auto value = dyn_cast<IntegerAttr>(field.getValue());
    if (!value || isa<BoolAttr>(field.getValue()))
      return emitError() << "gpu_config field '" << key
                         << "' must be an integer";
    int64_t lo = knob->min, hi = knob->max;
    int64_t v = value.getValue().getSExtValue();
    if (v < lo || v > hi) {
      InFlightDiagnostic diag = emitError()
                                << "gpu_config field '" << key
                                << "' must be at least " << lo;
      if (hi != kNoMax)
        diag << " and at most " << hi;
      return diag << ", got " << v;
    }
  }
  return success();
}

Attribute GPUConfigAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  Builder b(ctx);
  SmallVector<NamedAttribute> fields;
  llvm::StringSet<> seen;
  auto parseField = [&]() -> ParseResult {
    std::string key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "gpu_config field '") << key << "' is set twice";
    Attribute value;
    if (parser.parseAttribute(value))
      return failure();
    // Integers are stored as i64 whatever the literal's type.
    if (auto integer = dyn_cast<IntegerAttr>(value);
        integer && !isa<BoolAttr>(value) && key != kTileSizesKey)
      value = b.getI64IntegerAttr(integer.getValue().getSExtValue());
    fields.push_back(b.getNamedAttr(key, value));
    return success();
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseField) || parser.parseGreater())
      return {};
  }
  return parser.getChecked<GPUConfigAttr>(ctx, b.getDictionaryAttr(fields));
}

/// Prints the set fields, knobs in declaration order, then the tile sizes.
static void printBody(llvm::raw_ostream &os, DictionaryAttr fields) {
  llvm::ListSeparator sep;
  for (const GPUConfigKnob &knob : getGPUConfigKnobs()) {
    Attribute value = fields.get(knob.key);
    if (!value)
      continue;
    os << sep << knob.key << " = ";
    if (knob.isBool)
      os << (cast<BoolAttr>(value).getValue() ? "true" : "false");
    else
      os << cast<IntegerAttr>(value).getValue().getSExtValue();
  }
  if (auto sizes = fields.getAs<DictionaryAttr>(kTileSizesKey)) {
    os << sep << kTileSizesKey << " = {";
    llvm::ListSeparator inner;
    for (NamedAttribute size : sizes)
      os << inner << size.getName().getValue() << " = "
         << cast<IntegerAttr>(size.getValue()).getValue().getSExtValue();
    os << "}";
  }
}

void GPUConfigAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printBody(printer.getStream(), getFields());
  printer << ">";
}

std::string GPUConfigAttr::getBody() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  printBody(os, getFields());
  return text;
}

FailureOr<GPUConfigAttr> GPUConfigAttr::parseBody(MLIRContext *context,
                                                  StringRef text,
                                                  std::string &error) {
  // Passes that parse configurations declare the dialect dependent: it is
  // loaded before they run (loading it here would race their threads).
  if (!context->getLoadedDialect<TileDialect>())
    context->getOrLoadDialect<TileDialect>();
  text = text.trim();
  // Pass options keep the braces or quotes around a value with spaces.
  if ((text.starts_with("{") && text.ends_with("}")) ||
      (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
       text.back() == text.front()))
    text = text.drop_front().drop_back().trim();
  std::string message;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  std::string source = ("#tile.gpu_config<" + text + ">").str();
  size_t consumed = 0;
  Attribute attr = mlir::parseAttribute(source, context, Type(), &consumed);
  if (attr && consumed != source.size()) {
    attr = {};
    message = "unexpected text after the fields";
  }
  auto config = dyn_cast_or_null<GPUConfigAttr>(attr);
  if (!config) {
    error = "invalid gpu config '" + text.str() + "': " +
            (message.empty() ? std::string("cannot parse") : message);
    return failure();
  }
  return config;
}

//===----------------------------------------------------------------------===//
// Fields
//===----------------------------------------------------------------------===//

bool GPUConfigAttr::isSet(StringRef key) const {
  return static_cast<bool>(getFields().get(key));
}

/// `fields` with `key` set to `value` (replacing any value it had).
static DictionaryAttr setField(DictionaryAttr fields, StringRef key,
                               Attribute value) {
  NamedAttrList list(fields);
  if (value)
    list.set(key, value);
  else
    list.erase(key);
  return list.getDictionary(fields.getContext());
}

GPUConfigAttr GPUConfigAttr::overriddenBy(GPUConfigAttr other) const {
  if (!other)
    return *this;
  DictionaryAttr fields = getFields();
  for (NamedAttribute field : other.getFields()) {
    Attribute value = field.getValue();
    if (field.getName().getValue() == kTileSizesKey) {
      NamedAttrList sizes(getTileSizes());
      for (NamedAttribute size : cast<DictionaryAttr>(value))
        sizes.set(size.getName(), size.getValue());
      value = sizes.getDictionary(getContext());
    }
    fields = setField(fields, field.getName().getValue(), value);
  }
  return get(getContext(), fields);
}

GPUConfigAttr GPUConfigAttr::with(StringRef key, int64_t value) const {
  const GPUConfigKnob *knob = findKnob(key);
  assert(knob && "not a knob of #tile.gpu_config");
  Builder b(getContext());
  Attribute attr = knob->isBool ? Attribute(b.getBoolAttr(value != 0))
                                : Attribute(b.getI64IntegerAttr(value));
  return get(getContext(), setField(getFields(), key, attr));
}

GPUConfigAttr GPUConfigAttr::withDefault(StringRef key, int64_t value) const {
  return isSet(key) ? *this : with(key, value);
}

GPUConfigAttr GPUConfigAttr::without(StringRef key) const {
  return get(getContext(), setField(getFields(), key, Attribute()));
}

DictionaryAttr GPUConfigAttr::getTileSizes() const {
  if (auto sizes = getFields().getAs<DictionaryAttr>(kTileSizesKey))
    return sizes;
  return DictionaryAttr::get(getContext(), {});
}

GPUConfigAttr GPUConfigAttr::withTileSize(StringRef name, int64_t value) const {
  Builder b(getContext());
  NamedAttrList sizes(getTileSizes());
  sizes.set(name, b.getI64IntegerAttr(value));
  return get(getContext(), setField(getFields(), kTileSizesKey,
                                    sizes.getDictionary(getContext())));
}

#define TILE_GPU_INT_KNOB(Name, Key, Default, Min, Max, Doc)                   \
  int64_t GPUConfigAttr::get##Name() const {                                   \
    if (auto value = getFields().getAs<IntegerAttr>(Key))                      \
      return value.getValue().getSExtValue();                                  \
    return Default;                                                            \
  }
#define TILE_GPU_BOOL_KNOB(Name, Key, Default, Doc)                            \
  bool GPUConfigAttr::get##Name() const {                                      \
    if (auto value = getFields().getAs<BoolAttr>(Key))                         \
      return value.getValue();                                                 \
    return Default;                                                            \
  }
#include "TileDialect/IR/GPUConfigKnobs.def"
