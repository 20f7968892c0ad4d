//===- TileDim.cpp - Extents of tile values ------------------------------===//

#include "TileDialect/IR/TileDim.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace mlir::tileir;

void mlir::tileir::printTileShape(llvm::raw_ostream &os,
                                  llvm::ArrayRef<TileDim> shape) {
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
}

std::string mlir::tileir::toString(const TileDim &dim) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << dim;
  return s;
}

std::string mlir::tileir::toString(llvm::ArrayRef<TileDim> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printTileShape(os, shape);
  return s;
}

/// Splits a shape into the product of its coefficients and its sorted list of
/// symbols; returns false on overflow.
static bool factorize(llvm::ArrayRef<TileDim> shape, int64_t &product,
                      llvm::SmallVectorImpl<StringRef> &symbols) {
  product = 1;
  for (const TileDim &dim : shape) {
    if (__builtin_mul_overflow(product, dim.coeff, &product))
      return false;
    if (!dim.isConcrete())
      symbols.push_back(dim.sym.getValue());
  }
  llvm::sort(symbols);
  return true;
}

bool mlir::tileir::haveSameElementCount(llvm::ArrayRef<TileDim> a,
                                        llvm::ArrayRef<TileDim> b) {
  int64_t productA, productB;
  llvm::SmallVector<StringRef> symbolsA, symbolsB;
  if (!factorize(a, productA, symbolsA) || !factorize(b, productB, symbolsB))
    return false;
  return productA == productB && symbolsA == symbolsB;
}
