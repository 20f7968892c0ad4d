//===- ElementKindOf.h - Element kinds of MLIR types ----------*- C++ -*-===//

#ifndef TILEDIALECT_SUPPORT_ELEMENTKINDOF_H
#define TILEDIALECT_SUPPORT_ELEMENTKINDOF_H

#include "TileDialect/Support/HostTensor.h"

#include "mlir/IR/Types.h"

namespace mlir::tileir {

/// The ElementKind of an MLIR element type, if host tensors can hold it.
inline std::optional<ElementKind> elementKindOf(Type type) {
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isSignlessInteger(1))
    return ElementKind::I1;
  return std::nullopt;
}

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_ELEMENTKINDOF_H
