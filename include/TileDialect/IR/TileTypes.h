//===- TileTypes.h - Tile dialect types -----------------------*- C++ -*-===//

#ifndef TILEDIALECT_IR_TILETYPES_H
#define TILEDIALECT_IR_TILETYPES_H

#include "TileDialect/IR/TileDim.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "TileDialect/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "TileDialect/IR/TileTypes.h.inc"

#endif // TILEDIALECT_IR_TILETYPES_H
