//===- NativeBuilders.h - Nodes the natives add, and their arguments -*- C++ -*-===//
//
// Shared by the natives of lib/Rules (Natives.cpp, OnlineSoftmax.cpp): the
// check of a native's arguments and the e-nodes more than one rewrite adds.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_RULES_NATIVEBUILDERS_H
#define TILEDIALECT_LIB_RULES_NATIVEBUILDERS_H

#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Rules/Natives.h"

namespace mlir::tileir {

/// Whether `args` are `n` e-classes.
inline bool isClass(llvm::ArrayRef<const PdlSlot *> args, size_t n) {
  return args.size() == n && llvm::all_of(args, [](const PdlSlot *a) {
           return a->kind == PdlSlot::Class;
         });
}

/// `tile.constant value : type` (a splat of `type`'s element type).
inline egraph::Id addSplat(TileEGraph &tg, TileType type, double value) {
  MLIRContext *ctx = tg.getContext();
  return tg.add("tile.constant", {},
                {NamedAttribute(StringAttr::get(ctx, "value"),
                                FloatAttr::get(type.getElementType(), value))},
                type);
}

/// `tile.bcast x [dims] : ... -> type`.
inline egraph::Id addBcast(TileEGraph &tg, egraph::Id x, Attribute dims,
                           Type type) {
  return tg.add("tile.bcast", {x},
                {NamedAttribute(StringAttr::get(tg.getContext(), "dims"),
                                dims)},
                type);
}

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_RULES_NATIVEBUILDERS_H
