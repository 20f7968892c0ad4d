//===- TileSizes.cpp - Default values of symbolic tile sizes --------------===//

#include "TileDialect/Interpreter/TileInterpreter.h"

using namespace mlir;
using namespace mlir::tileir;

llvm::StringMap<int64_t>
mlir::tileir::chooseDefaultTileSizes(ProgramOp program, int64_t cap,
                                     const llvm::StringMap<int64_t> &caps) {
  auto largest = [&](StringRef symbol) {
    auto it = caps.find(symbol);
    int64_t most = it == caps.end() ? cap : it->second, size = 1;
    while (size <= most / 2)
      size *= 2;
    return size;
  };

  llvm::StringMap<int64_t> sizes;
  Block &body = program.getBodyBlock();
  for (auto size : body.getOps<SizeOp>())
    if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
      sizes.try_emplace(symbol.getValue(), largest(symbol.getValue()));
  // Halve each size until it divides the range of every loop stepping by it;
  // 1 divides every range.
  for (auto loop : body.getOps<LoopOp>()) {
    std::optional<TileDim> step = loop.getStepDim();
    if (!step || step->isConcrete())
      continue;
    int64_t range = loop.getEndIndex() - loop.getStartIndex();
    if (range <= 0)
      continue;
    int64_t &size =
        sizes.try_emplace(step->sym.getValue(), largest(step->sym.getValue()))
            .first->second;
    while (range % size != 0)
      size /= 2;
  }
  return sizes;
}

std::optional<std::string>
mlir::tileir::parseTileSizeAssignments(ArrayRef<std::string> entries,
                                       llvm::StringMap<int64_t> &sizes) {
  for (const std::string &entry : entries) {
    size_t eq = entry.find('=');
    int64_t value = 0;
    if (eq == std::string::npos ||
        StringRef(entry).substr(eq + 1).getAsInteger(10, value) || value <= 0)
      return entry;
    sizes[entry.substr(0, eq)] = value;
  }
  return std::nullopt;
}
