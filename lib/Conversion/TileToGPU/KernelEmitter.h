//===- KernelEmitter.h - One GPU kernel from a partitioned plan -*- C++ -*-===//
//
// Builds the body of a `gpu.func` for one kernel of a partitioned plan with
// `scf`, `memref`, `arith` and `math` ops. Every block runs the kernel's body
// statement with its grid variables taken from the block index; each tile
// value is evaluated per element by the block's threads (element e by thread
// e mod blockDim), recomputing cheap elementwise chains where they are used
// and reading buffered values (matmuls, reductions, their costly operands)
// from workgroup memory or the block's global scratch. Every buffered value
// and every store ends with a barrier. Arithmetic is f32; values of f16 and
// bf16 tiles are rounded to their type after each op, as the interpreter's
// f32 mode does.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H

#include "Partition.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::tileir::gpu_lowering {

/// The memref element type of a tensor of `kind` (i1 is stored as i8), or
/// null if GPU kernels cannot hold it.
Type getStorageType(MLIRContext *ctx, ElementKind kind);

/// Emits the body of `func`, whose arguments are the memrefs of
/// `kernel.tensors` in order, then the global scratch if
/// `kernel.scratchElements` is nonzero, and whose first workgroup attribution
/// (if `kernel.sharedElements` is nonzero) is the shared buffer; the block
/// has `kernel.threads` threads.
/// `tensorKinds` gives each program tensor's element kind, `tensorRoles`
/// its role.
LogicalResult emitKernelBody(const interp::Plan &plan, const Kernel &kernel,
                             ArrayRef<ElementKind> tensorKinds,
                             ArrayRef<TensorRole> tensorRoles,
                             gpu::GPUFuncOp func);

} // namespace mlir::tileir::gpu_lowering

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H
