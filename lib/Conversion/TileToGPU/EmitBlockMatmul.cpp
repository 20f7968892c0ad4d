//===- EmitBlockMatmul.cpp - Matmul tiles staged in shared memory ---------===//

#include "EmitNVIDIA.h"
#include "KernelEmitterImpl.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

bool KernelEmitter::emitBlockMatmul(const StmtNode &loop) {
  const BlockMatmul &mm = *kernel.blockMatmul;
  int64_t threads = kernel.threads;
  // Each thread moves whole 16-byte runs of both operands per step.
  int64_t aRuns = mm.m * mm.kStage / 8, bRuns = mm.n * mm.kStage / 8;
  if (!loadsRun(mm.a, 8) || !loadsRun(mm.b, 8) || aRuns % threads != 0 ||
      bRuns % threads != 0)
    return false;
  Value tid = cx.threadId;
  Value lane = rem(tid, 32), warp = div(tid, 32);
  int64_t warpRows = mm.m / mm.warpsM, warpCols = mm.n / mm.warpsN;
  int64_t tilesM = warpRows / 16, tilesN = warpCols / 8;
  Value warpRow = mul(div(warp, mm.warpsN), warpRows);
  Value warpCol = mul(rem(warp, mm.warpsN), warpCols);
  int64_t subs = mm.k / mm.kStage, runsPerRow = mm.kStage / 8;

  // Steps: the block's iterations of the loop, `subs` stages each.
  std::pair<Value, Value> bounds = iterationBounds(kernel.body);
  Value first = bounds.first;
  Value span = arith::SubIOp::create(b, loc, bounds.second, first);
  Value steps = mul(div(span, loop.step), subs);
  Value lastStep = arith::SubIOp::create(b, loc, steps, index(1));

  // Copies the runs of step `s` this thread moves into stage `stage` (rows
  // padded): A's rows along k, B's rows (or with `bTransposed`, its
  // [n, k] rows along k); returns their tokens.
  auto copyStep = [&](Value s, Value stage) {
    cx.vars[loop.var] = add(first, mul(div(s, subs), loop.step));
    Value k0 = mul(rem(s, subs), mm.kStage);
    Value base = mul(stage, mm.stageElements());
    SmallVector<Value> tokens;
    auto copy = [&](unsigned id, Value flat, Value offset) {
      const ExprNode &node = plan.exprs[id];
      tokens.push_back(nvidia::asyncCopy16(
          b, loc, cx.sharedHalf, add(base, offset),
          cx.tensorArgs[node.access.tensor],
          tensorOffset(node.access, node.shape, flat)));
    };
    for (int64_t p = 0; p < aRuns / threads; ++p) {
      Value q = add(tid, index(p * threads));
      Value row = div(q, runsPerRow), column = mul(rem(q, runsPerRow), 8);
      copy(mm.a, add(mul(row, mm.k), add(k0, column)),
           add(mul(row, mm.aRowStride()), column));
    }
    int64_t bRunsPerRow = mm.bTransposed ? runsPerRow : mm.n / 8;
    for (int64_t p = 0; p < bRuns / threads; ++p) {
      Value q = add(tid, index(p * threads));
      Value row = div(q, bRunsPerRow), column = mul(rem(q, bRunsPerRow), 8);
      Value flat = mm.bTransposed ? add(mul(row, mm.k), add(k0, column))
                                  : add(mul(add(k0, row), mm.n), column);
      copy(mm.b, flat,
           add(index(mm.aStageElements()),
               add(mul(row, mm.bRowStride()), column)));
    }
    return tokens;
  };
  // Lane l addresses row l mod 8 of matrix l / 8 of an ldmatrix.x4.
  Value row8 = rem(lane, 8), matrix = div(lane, 8);
  Value matrixLow = rem(matrix, 2), matrixHigh = div(matrix, 2);
  // A's fragments: matrices (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15),
  // (8-15, 8-15) of each 16 x 16 tile are a0 .. a3.
  Value aLaneOffset =
      add(mul(add(warpRow, add(row8, mul(matrixLow, 8))), mm.aRowStride()),
          mul(matrixHigh, 8));
  // B's: for the columns of two 8-wide tiles, matrices (k 0-7, n 0-7),
  // (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) are b0, b1 of the first tile
  // and b0, b1 of the second; [k, n] rows are read transposed.
  Value bLaneOffset =
      mm.bTransposed
          ? add(mul(add(warpCol, add(row8, mul(matrixHigh, 8))),
                    mm.bRowStride()),
                mul(matrixLow, 8))
          : add(mul(add(row8, mul(matrixLow, 8)), mm.bRowStride()),
                add(warpCol, mul(matrixHigh, 8)));
  auto computeStage = [&](Value stage, ValueRange accs) {
    Value base = mul(stage, mm.stageElements());
    Value aBase = add(base, aLaneOffset);
    Value bBase = add(base, add(index(mm.aStageElements()), bLaneOffset));
    SmallVector<Value> next(accs);
    for (int64_t kk = 0; kk < mm.kStage; kk += 16) {
      SmallVector<Value> aFragments, bFragments;
      for (int64_t i = 0; i < tilesM; ++i)
        aFragments.push_back(nvidia::loadMatrices(
            b, loc, cx.sharedHalf,
            add(aBase, index(16 * i * mm.aRowStride() + kk)), false));
      for (int64_t j = 0; j < tilesN; j += 2) {
        int64_t offset = mm.bTransposed ? 8 * j * mm.bRowStride() + kk
                                        : kk * mm.bRowStride() + 8 * j;
        Value pair = nvidia::loadMatrices(b, loc, cx.sharedHalf,
                                          add(bBase, index(offset)),
                                          !mm.bTransposed);
        for (int64_t half = 0; half < 2; ++half)
          bFragments.push_back(vector::ExtractStridedSliceOp::create(
              b, loc, pair, ArrayRef<int64_t>{2 * half, 0},
              ArrayRef<int64_t>{2, 2}, ArrayRef<int64_t>{1, 1}));
      }
      for (int64_t i = 0; i < tilesM; ++i)
        for (int64_t j = 0; j < tilesN; ++j) {
          Value &acc = next[i * tilesN + j];
          acc = nvidia::mmaFragments(b, loc, aFragments[i], bFragments[j], acc);
        }
    }
    return next;
  };

  // The first `stages - 1` steps in flight, one group each; then per
  // step s: wait for its group, a barrier (its stage is complete, and every
  // warp is done with the stage of step s - 1), the copies of step
  // s + stages - 1 into that stage, this step's products. Steps past the
  // last copy the last one again (their stages are not read).
  int64_t stages = mm.stages;
  auto copyAhead = [&](Value s) {
    Value step = arith::MinUIOp::create(b, loc, s, lastStep);
    return nvidia::asyncGroup(b, loc, copyStep(step, rem(s, stages)));
  };
  Value group;
  for (int64_t p = 0; p + 1 < stages; ++p)
    group = copyAhead(index(p));
  SmallVector<Value> inits(tilesM * tilesN, nvidia::zeroAccumulator(b, loc));
  auto stepLoop = scf::ForOp::create(
      b, loc, index(0), steps, index(1), inits,
      [&](OpBuilder &, Location, Value s, ValueRange accs) {
        nvidia::asyncWait(b, loc, group, int32_t(stages - 2));
        gpu::BarrierOp::create(b, loc);
        copyAhead(add(s, index(stages - 1)));
        scf::YieldOp::create(b, loc, computeStage(rem(s, stages), accs));
      });
  // No copy may be in flight when the block exits.
  nvidia::asyncWait(b, loc, group, 0);

  // Accumulator (i, j) element (r, h) is row 16 i + g + 8 r, column
  // 8 j + 2 t + h of the warp's part. Stored where this block is the only
  // writer of a zero accumulator, else added (atomically: a split's
  // blocks share the tile).
  const StmtNode &store = plan.stmts[mm.store];
  const ExprNode &value = plan.exprs[store.first];
  unsigned tensor = store.access.tensor;
  bool plain =
      kernel.splitChunks == 1 && kernel.zeroAccumulators.contains(tensor);
  bool pairs = plain ? accessRuns(store.access, 2)
                     : atomicRunWidth(store, 2) == 2;
  Value g = div(lane, 4), t = rem(lane, 4);
  for (int64_t i = 0; i < tilesM; ++i)
    for (int64_t j = 0; j < tilesN; ++j) {
      Value acc = stepLoop.getResult(i * tilesN + j);
      for (int64_t r = 0; r < 2; ++r) {
        Value row = add(warpRow, add(g, index(16 * i + 8 * r)));
        Value col = add(warpCol, add(mul(t, 2), index(8 * j)));
        Value flat = add(mul(row, mm.n), col);
        Value v[2] = {
            vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r, 0}),
            vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r, 1})};
        if (plain && pairs) {
          storeVector(tensor, tensorOffset(store.access, value.shape, flat),
                      ValueRange(v));
        } else if (plain) {
          storeElement(store, v[0], flat);
          storeElement(store, v[1], add(flat, index(1)));
        } else if (pairs) {
          atomicAddRun(store, flat, ValueRange(v));
        } else {
          atomicAddRun(store, flat, v[0]);
          atomicAddRun(store, add(flat, index(1)), v[1]);
        }
      }
    }
  gpu::BarrierOp::create(b, loc);
  return true;
}
