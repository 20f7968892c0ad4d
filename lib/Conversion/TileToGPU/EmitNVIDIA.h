//===- EmitNVIDIA.h - NVIDIA-only ops of the kernel emitter -----*- C++ -*-===//
//
// The ops the kernel emitter builds only for NVIDIA GPUs: `mma.sync`
// fragments and steps (nvgpu), inline PTX (vector reductions into global
// memory, L2 prefetches) and grid dependency control. Each takes the builder
// and location and nothing of the emitter's state, so that a target
// interface can own them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITNVIDIA_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITNVIDIA_H

#include "mlir/IR/Builders.h"

namespace mlir::tileir::gpu_lowering::nvidia {

/// A zero m16n8k16 accumulator (vector<2x2xf32>).
Value zeroAccumulator(OpBuilder &b, Location loc);
/// The m16n8k16 A fragment of lane (g, t) from its four f16 (or four bf16)
/// values of rows g and g + 8: mma's k indices 2t, 2t + 1 are `rowG[0..1]` and
/// `rowG8[0..1]`, 2t + 8, 2t + 9 are `rowG[2..3]` and `rowG8[2..3]`.
Value aFragment(OpBuilder &b, Location loc, ArrayRef<Value> rowG,
                ArrayRef<Value> rowG8);
/// `acc + A B` on the matrix units, B the four f16 or bf16 values (A's kind)
/// of lane (g, t)'s column g at mma's k indices 2t, 2t + 1, 2t + 8, 2t + 9.
Value mmaStep(OpBuilder &b, Location loc, Value a, ArrayRef<Value> bValues,
              Value acc);
/// `acc + A B` on the matrix units from whole fragments: A vector<4x2xf16>,
/// B vector<2x2xf16> (`nvgpu.mma.sync`), or both bf16 (`mma.sync` m16n8k16
/// bf16 as inline PTX: nvgpu's conversion does not take bf16).
Value mmaFragments(OpBuilder &b, Location loc, Value a, Value bFragment,
                   Value acc);
/// Four 8 x 8 matrices of 16-bit elements of the workgroup buffer `shared`
/// (1-D, f16 or bf16) with one `ldmatrix.x4` (`transpose`: `.trans`): lane
/// l gives the address `offset` of row l mod 8 of matrix l / 8, and
/// receives row g, elements 2t and 2t + 1 of each (`.trans`: column g, rows
/// 2t and 2t + 1), as a vector<4x2x(element)>.
Value loadMatrices(OpBuilder &b, Location loc, Value shared, Value offset,
                   bool transpose);
/// Copies the 8 f16 elements (16 bytes, both ends aligned) at `srcOffset`
/// of global `src` to `dstOffset` of workgroup `dst` with `cp.async`
/// (bypassing L1), returning its token.
Value asyncCopy16(OpBuilder &b, Location loc, Value dst, Value dstOffset,
                  Value src, Value srcOffset);
/// Commits the `cp.async` copies of `tokens` as one group, returning it.
Value asyncGroup(OpBuilder &b, Location loc, ValueRange tokens);
/// Waits until at most `pending` of the thread's committed groups are in
/// flight (`cp.async.wait_group`); `group` is the last one committed.
void asyncWait(OpBuilder &b, Location loc, Value group, int32_t pending);
/// tf32 (m16n8k8) forms: the left operand's fragment from f32 values
/// (a0 .. a3: rows g, g + 8 at k = t, then at k = t + 4), rounded to
/// tf32; one step with the right operand's two f16 or bf16 values (k = t,
/// t + 4), which tf32 holds exactly.
Value tf32AFragment(OpBuilder &b, Location loc, ArrayRef<Value> values);
Value tf32MmaStep(OpBuilder &b, Location loc, Value a, ArrayRef<Value> halves,
                  Value acc);

/// Inline PTX `ptx` with side effects on `args` (`constraints`).
void inlinePTX(OpBuilder &b, Location loc, StringRef ptx, StringRef constraints,
               ValueRange args);
/// Adds the f32 `values` (2 or 4) to the run at the generic address
/// `address` (i64, aligned to the run's size) with one
/// `red.global.add.v2.f32` / `.v4` (PTX 8.1, sm_90).
void vectorAtomicAdd(OpBuilder &b, Location loc, Value address,
                     ValueRange values);
/// Prefetches the line at the generic address `address` (i64) into L2.
void prefetchL2(OpBuilder &b, Location loc, Value address);
/// Waits for the grids this one depends on (`griddepcontrol.wait`), marked
/// `tile.prefetched`: the kernel prefetched before it.
void waitAfterPrefetches(OpBuilder &b, Location loc);

} // namespace mlir::tileir::gpu_lowering::nvidia

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_EMITNVIDIA_H
