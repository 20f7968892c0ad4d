//===- TileDialect.h - Tile dialect ---------------------------*- C++ -*-===//

#ifndef TILEDIALECT_IR_TILEDIALECT_H
#define TILEDIALECT_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "TileDialect/IR/TileDialect.h.inc"

#endif // TILEDIALECT_IR_TILEDIALECT_H
