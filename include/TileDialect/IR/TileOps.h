//===- TileOps.h - Tile dialect operations --------------------*- C++ -*-===//

#ifndef TILEDIALECT_IR_TILEOPS_H
#define TILEDIALECT_IR_TILEOPS_H

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/IR/TileTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"


#define GET_OP_CLASSES
#include "TileDialect/IR/TileOps.h.inc"

#endif // TILEDIALECT_IR_TILEOPS_H
