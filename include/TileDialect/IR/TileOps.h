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

namespace mlir::tileir {
/// A discardable attribute of tile.program: the names of the tensors that
/// hold the results of the function the program was converted from, in order.
constexpr llvm::StringLiteral kResultsAttrName = "tile.results";

/// The tensors `program` produces, as argument indices: those its
/// `tile.results` names, in order, else every output and inout tensor.
/// Fails, after an error at the program, on a name that is not one of its
/// tensors.
FailureOr<llvm::SmallVector<unsigned>> getProgramOutputs(ProgramOp program);

/// The statements `stmt` runs one after another: the leaves of its
/// `tile.seq` tree (however nested), in order.
void collectSequenceLeaves(Value stmt, llvm::SmallVectorImpl<Value> &out);
} // namespace mlir::tileir

#endif // TILEDIALECT_IR_TILEOPS_H
