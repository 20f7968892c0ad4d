//===- TileDim.h - Extents of tile values ---------------------*- C++ -*-===//

#ifndef TILEDIALECT_IR_TILEDIM_H
#define TILEDIALECT_IR_TILEDIM_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tileir {

/// One extent of a tile value: a concrete integer `coeff` when `sym` is null,
/// otherwise `coeff * sym` for a symbolic tile size `sym` (`tile_k`,
/// `2*tile_k`).
struct TileDim {
  int64_t coeff = 1;
  StringAttr sym;

  static TileDim concrete(int64_t extent) { return {extent, nullptr}; }
  static TileDim symbolic(StringAttr sym, int64_t coeff = 1) {
    return {coeff, sym};
  }

  bool isConcrete() const { return !sym; }
  /// The concrete extent; only valid when isConcrete().
  int64_t getConcrete() const { return coeff; }

  bool operator==(const TileDim &other) const {
    return coeff == other.coeff && sym == other.sym;
  }
  bool operator!=(const TileDim &other) const { return !(*this == other); }

  /// The sum of two extents when it is representable (both concrete or both
  /// multiples of the same symbol).
  std::optional<TileDim> add(const TileDim &other) const {
    if (sym != other.sym)
      return std::nullopt;
    return TileDim{coeff + other.coeff, sym};
  }
};

inline llvm::hash_code hash_value(const TileDim &dim) {
  return llvm::hash_combine(dim.coeff, dim.sym);
}

/// Prints `16`, `tile_k` or `2*tile_k`.
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const TileDim &d) {
  if (d.isConcrete())
    return os << d.coeff;
  if (d.coeff != 1)
    os << d.coeff << "*";
  return os << d.sym.getValue();
}

/// Prints a shape as `[16, tile_k]`.
void printTileShape(llvm::raw_ostream &os, llvm::ArrayRef<TileDim> shape);

/// `16`, `tile_k` or `2*tile_k`, for diagnostics.
std::string toString(const TileDim &dim);
/// `[16, tile_k]`, for diagnostics.
std::string toString(llvm::ArrayRef<TileDim> shape);

/// Whether two shapes hold the same number of elements: the concrete parts
/// multiply to the same number and the symbols appear equally often.
bool haveSameElementCount(llvm::ArrayRef<TileDim> a, llvm::ArrayRef<TileDim> b);

} // namespace mlir::tileir

#endif // TILEDIALECT_IR_TILEDIM_H
