//===- Kernels.h - Kernel boundaries and parallel loops ---------*- C++ -*-===//
//
// The structural half of the cost model (Trinity section 5.2): which
// top-level statements form a kernel, which loops are parallel, and which
// loops make up a kernel's grid.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_COST_KERNELS_H
#define TILEDIALECT_LIB_COST_KERNELS_H

#include "TileDialect/IR/TileOps.h"

namespace mlir::tileir::cost {

/// One kernel: a top-level loop nest, or a run of straight-line top-level
/// statements.
struct Kernel {
  llvm::SmallVector<Value, 1> stmts;
  /// The outermost parallel loops, outermost first: the grid.
  llvm::SmallVector<LoopOp, 2> grid;
};

/// Splits the root sequence of `program` into kernels: each top-level loop
/// is one, and each maximal run of other top-level statements is one
/// (`tile.nop` alone makes none).
llvm::SmallVector<Kernel> partitionKernels(ProgramOp program);

/// Whether the iterations of `loop` are independent, by a syntactic test:
/// every store in its body indexes some dimension with `tile`/`elem` of the
/// loop's variable, and every load of a tensor stored in the body indexes
/// one of the dimensions that all stores of that tensor index that way,
/// the same way.
bool isParallel(LoopOp loop);

/// Calls `fn` on every store of the statement tree `stmt`, once per store
/// op (shared statements are visited once).
void forEachStore(Value stmt, llvm::function_ref<void(StoreOp)> fn);

/// Calls `fn` on every op of the value expression `value` (loads included,
/// index ops excluded), once per op.
void forEachValueOp(Value value, llvm::function_ref<void(Operation *)> fn);

/// The loop variable an index selects by (`tile.tile`, `tile.elem`), or
/// null.
Value indexVar(Value index);

} // namespace mlir::tileir::cost

#endif // TILEDIALECT_LIB_COST_KERNELS_H
