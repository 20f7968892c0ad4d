//===- EmitterContext.h - The state of emitting one GPU kernel --*- C++ -*-===//
//
// What the kernel emitter's steps (KernelEmitterImpl.h) work over: the kernel
// being emitted, the builder, the values bound at the kernel's entry, and the
// state that loops, lanes and stores set while their bodies are emitted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITTERCONTEXT_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITTERCONTEXT_H

#include "Partition.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tileir::gpu_lowering {

/// One value per lane: the elements a thread computes together.
using Lanes = SmallVector<Value, 4>;

/// `fn(i)` for each lane i of `n`.
inline Lanes mapLanes(size_t n, llvm::function_ref<Value(unsigned)> fn) {
  Lanes values;
  for (unsigned i = 0; i < n; ++i)
    values.push_back(fn(i));
  return values;
}

/// A thread's lanes as a block of a tile whose rows have `rowLength`
/// elements: `rows` rows of `width` consecutive elements, lane r * width + v
/// being element (row0 + r * rowStride) * rowLength + col0 + v, col0 a
/// multiple of `width`.
///
/// A matrix-unit block (`mma`) is the part of a warp's 16 x 4 * width tile
/// that one lane holds in `mma.sync.m16n8k16` accumulators: rows g and g + 8
/// (g = lane / 4), columns 4 * width * w + width * (lane mod 4) + [0, width).
/// The warp's tile is width / 2 matrix-unit tiles of 16 x 8 whose column n
/// of tile j is real column n * width / 2 + j, so that one aligned vector
/// load of B's row gives a lane its column of every tile.
struct LaneBlock {
  int64_t rows = 1, width = 1, rowLength = 1, rowStride = 1;
  bool mma = false;
  /// mma: a matmul of fewer than 16 rows fits, its rows repeated over the
  /// 16 (a warp loop's `WarpLoop::rows`).
  bool repeatRows = false;
};

/// The state of emitting one kernel's body into its `gpu.func`. The inputs
/// and the builder are fixed for the kernel; the values below them are bound
/// once at the kernel's entry; the last group changes as loops, lane groups
/// and stores are emitted, each restored by whoever set it.
struct EmissionContext {
  EmissionContext(const interp::Plan &plan, const Kernel &kernel,
                  ArrayRef<ElementKind> tensorKinds,
                  ArrayRef<TensorRole> tensorRoles, gpu::GPUFuncOp func)
      : plan(plan), kernel(kernel), tensorKinds(tensorKinds),
        tensorRoles(tensorRoles), func(func), b(func.getContext()),
        loc(func.getLoc()) {}

  //===--------------------------------------------------------------------===//
  // The kernel and where its ops go
  //===--------------------------------------------------------------------===//

  /// The resolved program and the kernel of it being emitted.
  const interp::Plan &plan;
  const Kernel &kernel;
  /// Each program tensor's element kind and role.
  ArrayRef<ElementKind> tensorKinds;
  ArrayRef<TensorRole> tensorRoles;
  /// The function whose body is emitted.
  gpu::GPUFuncOp func;
  /// The builder every step emits with, and the location of its ops.
  OpBuilder b;
  Location loc;

  //===--------------------------------------------------------------------===//
  // Bound at the kernel's entry
  //===--------------------------------------------------------------------===//

  /// The thread's index in the block.
  Value threadId;
  /// This block's chunk of a split accumulation, and the index of its grid
  /// point (and part iteration) among the blocks' chunk groups.
  Value chunk, gridPoint;
  /// The f32 and f16 workgroup buffers, the global scratch and this block's
  /// offset in it, and the split epilogues' counters (`Kernel::epilogue`);
  /// null where the kernel has none.
  Value shared, sharedHalf, scratch, scratchBase, counters;
  /// Each tensor's memref argument, by program tensor number.
  llvm::DenseMap<unsigned, Value> tensorArgs;

  //===--------------------------------------------------------------------===//
  // Set while emitting
  //===--------------------------------------------------------------------===//

  /// Each loop variable's value where it is bound (grid loops from the
  /// block index, other loops from their induction variables).
  SmallVector<Value> vars;
  /// While set, the split addend (a sum, `Kernel::reduceLanes`) sums only
  /// the elements of its extent that this thread's lane takes.
  Value reduceLane;
  /// In an element loop, the running value of each tensor the loop writes,
  /// per lane (f32, rounded to the tensor's type): loads of it read these
  /// registers instead of memory.
  llvm::DenseMap<unsigned, Lanes> carried;
  /// The lanes of the current lane-block group and its block.
  Lanes blockLanes;
  LaneBlock currentBlock;
  /// The buffers of the store being emitted.
  const StoreBuffers *buffers = nullptr;
  /// Set by an online warp loop split across blocks: whether this block is
  /// the last of its grid point's, which alone runs the rest of the body.
  Value lastBlock;
};

} // namespace mlir::tileir::gpu_lowering

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITTERCONTEXT_H
