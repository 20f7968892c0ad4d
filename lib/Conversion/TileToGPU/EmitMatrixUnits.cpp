//===- EmitMatrixUnits.cpp - Matmuls on the matrix units ------------------===//

#include "EmitNVIDIA.h"
#include "KernelEmitterImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <array>
#include <functional>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

//===----------------------------------------------------------------------===//
// Operands as f16 or bf16 runs
//===----------------------------------------------------------------------===//

bool KernelEmitter::loadsHalf(unsigned id, int64_t count) const {
  const ExprNode &node = plan.exprs[id];
  if (!isHalfKind(node.elementKind))
    return false;
  if (node.kind == Kind::Alias)
    return loadsHalf(node.operands[0], count);
  return node.kind == Kind::Load &&
         tensorKinds[node.access.tensor] == node.elementKind &&
         loadsRun(id, count);
}

Value KernelEmitter::halfRun(unsigned id, Value flat0, int64_t count) {
  const ExprNode &node = plan.exprs[skipAliases(plan, id)];
  return loadVector(node.access.tensor,
                    tensorOffset(node.access, node.shape, flat0), count);
}

bool KernelEmitter::computesHalf(unsigned id) const {
  if (!isHalfKind(plan.exprs[id].elementKind))
    return false;
  if (loadsHalf(id, 4))
    return true;
  std::function<bool(unsigned)> elementwise = [&](unsigned e) {
    const ExprNode &node = plan.exprs[e];
    switch (node.kind) {
    case Kind::Load:
      return !cx.carried.count(node.access.tensor);
    case Kind::Constant:
      return true;
    case Kind::Unary:
    case Kind::Binary:
    case Kind::Cmp:
    case Kind::Select:
    case Kind::Gather:
    case Kind::Alias:
    case Kind::Cast:
      return llvm::all_of(node.operands, elementwise);
    default:
      return false;
    }
  };
  return elementwise(id);
}

Value KernelEmitter::halfOperandRun(unsigned id, Value flat0, int64_t count) {
  if (loadsHalf(id, count))
    return halfRun(id, flat0, count);
  Type half = getStorageType(b.getContext(), plan.exprs[id].elementKind);
  SmallVector<Value> halves;
  for (Value x : elementRun(id, flat0, count))
    halves.push_back(arith::TruncFOp::create(b, loc, half, x));
  return vector::FromElementsOp::create(b, loc, VectorType::get({count}, half),
                                        halves);
}

std::optional<unsigned> KernelEmitter::transposedHalf(unsigned id) const {
  std::optional<unsigned> source = getTransposedOperand(plan, id);
  if (!source || !loadsHalf(*source, 4))
    return std::nullopt;
  return source;
}

//===----------------------------------------------------------------------===//
// mma.sync lanes
//===----------------------------------------------------------------------===//

bool KernelEmitter::fitsMatrixUnits(unsigned id, const LaneBlock &block) const {
  const ExprNode &node = plan.exprs[id];
  int64_t width = block.width;
  return node.kind == Kind::Matmul && node.elementKind == ElementKind::F32 &&
         plan.exprs[node.operands[0]].elementKind ==
             plan.exprs[node.operands[1]].elementKind &&
         (width == 4 || width == 8 || width == 16) &&
         node.sizes[3] == block.rowLength &&
         (node.sizes[1] % 16 == 0 ||
          (block.repeatRows && node.sizes[1] < 16)) &&
         node.sizes[2] % 16 == 0 && block.rowLength % (4 * width) == 0 &&
         computesHalf(node.operands[0]) &&
         (loadsHalf(node.operands[1], width / 2) ||
          transposedHalf(node.operands[1]));
}

Lanes KernelEmitter::matrixUnitLanes(unsigned id, ValueRange flats,
                                     const LaneBlock &block) {
  const ExprNode &node = plan.exprs[id];
  int64_t batches = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  // c tiles of 16 x 8; this lane is (g, t) = (lane / 4, lane mod 4).
  int64_t c = block.width / 2;
  Value row = div(flats[0], n); // batch * m + tile row + g
  Value col = rem(flats[0], n); // tile column + width * t
  Value t = div(rem(col, 4 * block.width), block.width);
  Value tileCol = mul(div(col, 4 * block.width), 4 * block.width);
  Value g = rem(row, 16);
  Value batch = batches == 1 ? index(0) : div(row, m);
  // Up to 4 steps per iteration, their loads first. In a warp loop, all
  // steps at once where B is at most 256 bytes a lane (32 keys of a
  // 128-wide head): a warp runs few iterations, each waiting on its loads.
  int64_t steps = k / 16;
  int64_t unroll = kernel.warpLoop && k * n * 2 <= 256 * 32 ? steps : 4;
  while (steps % unroll != 0)
    unroll /= 2;
  // The k values of each group of `run / 4` steps are permuted so that each
  // lane's are one run of `run` consecutive values: within step p of a
  // group starting at k0, mma's k index 2t + e is k0 + run t + 4p + e, and
  // 2t + 8 + e is k0 + run t + 4p + 2 + e (e = 0, 1), for A and B alike.
  // Runs of 8 (pairs of steps) make A's loads, and B's when transposed,
  // 16 bytes wide; runs of 4 are 8 bytes.
  std::optional<unsigned> bT = transposedHalf(node.operands[1]);
  // (A computed left operand takes runs of 8 whatever its loads.)
  int64_t run = unroll % 2 == 0 &&
                        (loadsHalf(node.operands[0], 8) ||
                         !loadsHalf(node.operands[0], 4)) &&
                        (!bT || loadsHalf(*bT, 8))
                    ? 8
                    : 4;
  int64_t groupSteps = run / 4;
  Value aRows[2] = {add(mul(row, k), mul(t, run)),
                    add(mul(add(row, index(8)), k), mul(t, run))};
  Value bBase =
      add(add(mul(batch, k * n), add(tileCol, mul(g, c))), mul(t, run * n));
  // B transposed ([n, k] tiles): the lane's column of tile 0 is row
  // tileCol + g c, its k values one run along it.
  Value bTBase =
      add(add(mul(batch, k * n), mul(add(tileCol, mul(g, c)), k)), mul(t, run));
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(steps / unroll), index(1),
      SmallVector<Value>(c, nvidia::zeroAccumulator(b, loc)),
      [&](OpBuilder &, Location, Value j, ValueRange accs) {
        SmallVector<std::array<Value, 2>> as;
        // Per group: B's `run` rows k0 + run t + q (c columns each), or,
        // transposed, each tile's run of k values.
        SmallVector<SmallVector<Value>> bs;
        for (int64_t u = 0; u < unroll; u += groupSteps) {
          Value k0 = mul(add(mul(j, unroll), index(u)), 16);
          as.push_back(
              {halfOperandRun(node.operands[0], add(aRows[0], k0), run),
               halfOperandRun(node.operands[0], add(aRows[1], k0), run)});
          SmallVector<Value> runs;
          if (bT) {
            for (int64_t tile = 0; tile < c; ++tile)
              runs.push_back(
                  halfRun(*bT, add(bTBase, add(index(tile * k), k0)), run));
          } else {
            for (int64_t q = 0; q < run; ++q)
              runs.push_back(halfRun(node.operands[1],
                                     add(bBase, mul(add(k0, index(q)), n)), c));
          }
          bs.push_back(std::move(runs));
        }
        auto at = [&](Value vec, int64_t i) -> Value {
          return vector::ExtractOp::create(b, loc, vec, i);
        };
        SmallVector<Value> next(accs);
        for (int64_t u = 0; u < unroll; ++u) {
          int64_t group = u / groupSteps, p = 4 * (u % groupSteps);
          auto [a0, a1] = as[group];
          auto bValue = [&](int64_t tile, int64_t q) {
            return bT ? at(bs[group][tile], p + q) : at(bs[group][p + q], tile);
          };
          Value a = nvidia::aFragment(
              b, loc, {at(a0, p), at(a0, p + 1), at(a0, p + 2), at(a0, p + 3)},
              {at(a1, p), at(a1, p + 1), at(a1, p + 2), at(a1, p + 3)});
          for (int64_t tile = 0; tile < c; ++tile)
            next[tile] = nvidia::mmaStep(b, loc, a,
                                         {bValue(tile, 0), bValue(tile, 1),
                                          bValue(tile, 2), bValue(tile, 3)},
                                         next[tile]);
        }
        scf::YieldOp::create(b, loc, next);
      });
  // Lane r * width + c * h + tile holds accumulator (r, h) of `tile`: row
  // g + 8r, column tileCol + width * t + c * h + tile.
  Lanes lanes(flats.size());
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t tile = 0; tile < c; ++tile)
        lanes[r * block.width + c * h + tile] = vector::ExtractOp::create(
            b, loc, loop.getResult(tile), ArrayRef<int64_t>{r, h});
  return lanes;
}

//===----------------------------------------------------------------------===//
// Buffered matmuls
//===----------------------------------------------------------------------===//

void KernelEmitter::emitMatrixUnitMatmul(unsigned id) {
  const ExprNode &node = plan.exprs[id];
  int64_t batch = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  const Buffer &a = cx.buffers->nodes.find(node.operands[0])->second;
  const Buffer &bb = cx.buffers->nodes.find(node.operands[1])->second;
  const Buffer &c = cx.buffers->nodes.find(id)->second;
  MLIRContext *ctx = b.getContext();
  auto f16 = Float16Type::get(ctx);
  auto aType = gpu::MMAMatrixType::get({16, 16}, f16, "AOp");
  auto bType = gpu::MMAMatrixType::get({16, 16}, f16, "BOp");
  auto cType = gpu::MMAMatrixType::get({16, 16}, f32, "COp");
  auto lead = [&](int64_t v) { return b.getIndexAttr(v); };
  // One warp per 16x16 tile of the result, tiles spread over the warps.
  int64_t tilesM = m / 16, tilesN = n / 16;
  int64_t warps = std::max<unsigned>(1, kernel.threads / 32);
  Value warp = div(cx.threadId, 32);
  auto tiles = scf::ForOp::create(b, loc, warp, index(batch * tilesM * tilesN),
                                  index(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(tiles.getBody()->getTerminator());
  Value t = tiles.getInductionVar();
  Value bi = div(t, tilesM * tilesN);
  Value ti = rem(div(t, tilesN), tilesM);
  Value tj = rem(t, tilesN);
  Value aRow = add(mul(bi, m * k), mul(ti, 16 * k));
  Value bCol = add(mul(bi, k * n), mul(tj, 16));
  Value zero =
      gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cType, constant(0.0));
  auto steps = scf::ForOp::create(
      b, loc, index(0), index(k), index(16), ValueRange{zero},
      [&](OpBuilder &, Location, Value kk, ValueRange carried) {
        Value am;
        Value aAddr = bufferAddress(a, add(aRow, kk), am);
        Value bm;
        Value bAddr = bufferAddress(bb, add(bCol, mul(kk, n)), bm);
        Value av = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, aType, am, ValueRange{aAddr}, lead(k), UnitAttr());
        Value bv = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, bType, bm, ValueRange{bAddr}, lead(n), UnitAttr());
        Value next = gpu::SubgroupMmaComputeOp::create(
            b, loc, cType, av, bv, carried[0], UnitAttr(), UnitAttr());
        scf::YieldOp::create(b, loc, next);
      });
  Value cm;
  Value cAddr = bufferAddress(
      c, add(add(mul(bi, m * n), mul(ti, 16 * n)), mul(tj, 16)), cm);
  gpu::SubgroupMmaStoreMatrixOp::create(b, loc, steps.getResult(0), cm,
                                        ValueRange{cAddr}, lead(n), UnitAttr());
}
