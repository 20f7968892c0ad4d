//===- EmitMatmul.cpp - Matmuls on the vector units, lane blocks ----------===//

#include "KernelEmitterImpl.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

Lanes KernelEmitter::matmulLanes(unsigned id, ValueRange flats) {
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    return mapLanes(flats.size(), fn);
  };
  int64_t batches = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  if (cx.reduceLane && id == kernel.splitAddend)
    return kLaneMatmulLanes(id, flats);
  const LaneBlock *block = getBlockOf(flats);
  if (block && block->mma && fitsMatrixUnits(id, *block))
    return matrixUnitLanes(id, flats, *block);
  if (block && !block->mma && block->rowLength == n && m % block->rows == 0) {
    // Rows of one batch: lanes in one row share A's element per step,
    // lanes in one column B's; each row's B elements are consecutive.
    int64_t rows = block->rows, width = block->width;
    Value row0 = div(flats[0], n);
    Value batch = batches == 1 ? index(0) : div(row0, m);
    Lanes aRows;
    for (int64_t r = 0; r < rows; ++r)
      aRows.push_back(mul(add(row0, index(r)), k));
    Value bBase = add(mul(batch, k * n), rem(flats[0], n));
    // Unrolled by up to 8 steps, the loads of all of them first, so
    // that they are in flight together; each sum keeps its order. At
    // most 96 loaded values live at once (registers).
    int64_t unroll = 8;
    while (unroll > 1 && (k % unroll != 0 || unroll * (rows + width) > 96))
      unroll /= 2;
    Lanes inits(flats.size(), constant(0.0));
    return reduceLoop(k / unroll, inits, [&](Value j, ValueRange accs) {
      Value k0 = mul(j, unroll);
      SmallVector<Lanes> xs, ys;
      for (int64_t r = 0; r < rows; ++r)
        xs.push_back(elementRun(node.operands[0], add(aRows[r], k0), unroll));
      for (int64_t u = 0; u < unroll; ++u)
        ys.push_back(elementRun(node.operands[1],
                                add(bBase, mul(add(k0, index(u)), n)), width));
      auto contract = arith::FastMathFlags::contract;
      Lanes sums(accs);
      for (int64_t u = 0; u < unroll; ++u)
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < width; ++c) {
            Value product =
                arith::MulFOp::create(b, loc, xs[r][u], ys[u][c], contract);
            Value &sum = sums[r * width + c];
            sum = arith::AddFOp::create(b, loc, sum, product, contract);
          }
      return sums;
    });
  }
  // Unrolling a step that runs loops of its own (an unbuffered reduction
  // or matmul in an operand) would multiply their code at every level of
  // nesting: those keep one step at a time.
  bool flat = withoutLoops(node.operands[0]) && withoutLoops(node.operands[1]);
  // B = transpose(S) (A K^T, x W^T): both operands run along k, read in
  // runs of up to 16 bytes.
  if (flat && getTransposedOperand(plan, node.operands[1])) {
    int64_t width = 8;
    while (width > 1 && k % width != 0)
      width /= 2;
    if (width > 1)
      return transposedRunLanes(id, flats, index(0), 1, width,
                                /*oneColumn=*/false);
  }
  Lanes aRows, bBases;
  for (Value flat : flats) {
    Value row = div(flat, n); // batch * m + i
    // One batch: no division, so lanes in one column share B's address.
    Value batch = batches == 1 ? index(0) : div(row, m);
    aRows.push_back(mul(row, k));
    bBases.push_back(add(mul(batch, k * n), rem(flat, n)));
  }
  // Unrolled by up to 8 steps, the loads of all of them first, so that
  // they are in flight together (one step at a time waits for each load);
  // each sum keeps its order. At most 96 loaded values live at once.
  int64_t unroll = flat ? 8 : 1;
  while (unroll > 1 &&
         (k % unroll != 0 || unroll * 2 * int64_t(flats.size()) > 96))
    unroll /= 2;
  Lanes inits(flats.size(), constant(0.0));
  return reduceLoop(k / unroll, inits, [&](Value j, ValueRange accs) {
    SmallVector<Lanes> xs, ys;
    for (int64_t u = 0; u < unroll; ++u) {
      Value kk = add(mul(j, unroll), index(u));
      xs.push_back(
          operand(0, perLane([&](unsigned i) { return add(aRows[i], kk); })));
      ys.push_back(operand(
          1, perLane([&](unsigned i) { return add(bBases[i], mul(kk, n)); })));
    }
    // Contracted into one fused multiply-add per step.
    auto contract = arith::FastMathFlags::contract;
    Lanes sums(accs);
    for (int64_t u = 0; u < unroll; ++u)
      for (unsigned i = 0; i < flats.size(); ++i) {
        Value product =
            arith::MulFOp::create(b, loc, xs[u][i], ys[u][i], contract);
        sums[i] = arith::AddFOp::create(b, loc, sums[i], product, contract);
      }
    return sums;
  });
}

bool KernelEmitter::withoutLoops(unsigned id) const {
  llvm::DenseSet<unsigned> seen;
  llvm::SmallVector<unsigned> work{id};
  while (!work.empty()) {
    unsigned e = work.pop_back_val();
    if (!seen.insert(e).second ||
        (cx.buffers && cx.buffers->nodes.count(e)))
      continue;
    const ExprNode &node = plan.exprs[e];
    if (node.kind == Kind::Reduce || node.kind == Kind::Matmul)
      return false;
    llvm::append_range(work, node.operands);
  }
  return true;
}

Lanes KernelEmitter::kLaneMatmulLanes(unsigned id, ValueRange flats) {
  int64_t width = kernel.kLaneWidth;
  // Rows of one column (kLaneRowFlats) share each run of S's row.
  bool oneColumn = kernel.kLaneRows > 1 &&
                   int64_t(flats.size()) == kernel.kLaneRows;
  return transposedRunLanes(id, flats, cx.reduceLane, kernel.reduceLanes,
                            width, oneColumn);
}

Lanes KernelEmitter::transposedRunLanes(unsigned id, ValueRange flats,
                                        Value lane, int64_t lanes,
                                        int64_t width, bool oneColumn) {
  const ExprNode &node = plan.exprs[id];
  int64_t batches = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  // B = transpose(S): element (k, j) of B is element (j, k) of S, whose rows
  // run along k.
  unsigned source = *getTransposedOperand(plan, node.operands[1]);
  Lanes aRows, sRows;
  for (Value flat : flats) {
    Value row = div(flat, n); // batch * m + i
    Value batch = batches == 1 ? index(0) : div(row, m);
    aRows.push_back(mul(row, k));
    sRows.push_back(mul(add(mul(batch, n), rem(flat, n)), k));
  }
  // This lane's runs: [(s * lanes + lane) * width, +width) of step s,
  // unrolled by up to 4 steps, every load of them first so that they are
  // in flight together.
  int64_t steps = k / (lanes * width);
  int64_t unroll = 4;
  while (unroll > 1 && steps % unroll != 0)
    unroll /= 2;
  Value first = mul(lane, width);
  auto contract = arith::FastMathFlags::contract;
  Lanes inits(flats.size(), constant(0.0));
  return reduceLoop(steps / unroll, inits, [&](Value j, ValueRange accs) {
    SmallVector<std::pair<Lanes, Lanes>> runs;
    for (int64_t u = 0; u < unroll; ++u) {
      Value k0 = add(first, mul(add(mul(j, unroll), index(u)), lanes * width));
      Lanes shared;
      if (oneColumn)
        shared = elementRun(source, add(sRows.front(), k0), width);
      for (auto [aRow, sRow] : llvm::zip_equal(aRows, sRows))
        runs.push_back({elementRun(node.operands[0], add(aRow, k0), width),
                        oneColumn ? shared
                                  : elementRun(source, add(sRow, k0), width)});
    }
    Lanes sums(accs);
    for (auto [r, run] : llvm::enumerate(runs)) {
      Value &sum = sums[r % flats.size()];
      for (auto [x, y] : llvm::zip_equal(run.first, run.second)) {
        Value product = arith::MulFOp::create(b, loc, x, y, contract);
        sum = arith::AddFOp::create(b, loc, sum, product, contract);
      }
    }
    return sums;
  });
}

Lanes KernelEmitter::kLaneRowFlats(Value group) {
  const ExprNode &node = plan.exprs[kernel.splitAddend];
  int64_t n = node.sizes[3], rows = kernel.kLaneRows;
  // Group g: column g mod n of rows [(g / n) * rows, +rows).
  Value column = rem(group, n);
  Value firstRow = mul(div(group, n), rows);
  Lanes flats;
  for (int64_t r = 0; r < rows; ++r)
    flats.push_back(add(mul(add(firstRow, index(r)), n), column));
  return flats;
}

std::optional<LaneBlock>
KernelEmitter::getLaneBlock(ArrayRef<const StmtNode *> stores,
                            ArrayRef<int64_t> shape, int64_t lanes) const {
  if (lanes < 2 || shape.empty())
    return std::nullopt;
  int64_t rowLength = shape.back();
  int64_t numRows = 1;
  for (int64_t extent : shape.drop_back())
    numRows *= extent;
  // The matmuls the stored values reach through lane-preserving ops.
  SmallVector<unsigned> matmuls;
  for (const StmtNode *store : stores)
    forEachLaneMatmul(plan, store->first,
                      [&](unsigned id) { matmuls.push_back(id); });
  // Matrix units when every matmul fits them (their lanes are not rows of
  // consecutive elements).
  LaneBlock mma{2, lanes / 2, rowLength, /*rowStride=*/8, /*mma=*/true};
  if (kernel.matrixUnits && numRows % 16 == 0 && !matmuls.empty() &&
      llvm::all_of(matmuls,
                   [&](unsigned id) { return fitsMatrixUnits(id, mma); }))
    return mma;
  // Else the first matmul with the tile's rows: the widest vector of B's
  // row that divides the lanes and the row.
  for (unsigned id : matmuls) {
    const ExprNode &node = plan.exprs[id];
    if (node.sizes[3] != rowLength)
      continue;
    for (int64_t width = 8; width >= 2; width /= 2) {
      int64_t rows = lanes / width;
      if (lanes % width == 0 && rowLength % width == 0 && numRows % rows == 0 &&
          node.sizes[1] % rows == 0 && loadsRun(node.operands[1], width))
        return LaneBlock{rows, width, rowLength};
    }
  }
  return std::nullopt;
}
