//===- EmitWarpLoop.cpp - Warp loops in mma.sync registers ----------------===//

#include "EmitNVIDIA.h"
#include "KernelEmitterImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// The columns of one pass of a warp loop's product over its result's n
/// columns: a 16 x 4w tile held as w / 2 accumulator tiles of 16 x 8.
static int64_t productTileWidth(int64_t n) {
  return n % 64 == 0 ? 64 : n % 32 == 0 ? 32 : 16;
}

bool KernelEmitter::emitWarpLoop(const StmtNode &loop) {
  const WarpLoop &warp = *kernel.warpLoop;
  const StmtNode &firstTile = plan.stmts[warp.tiles.front().first];
  ArrayRef<int64_t> tileShape = plan.exprs[firstTile.first].shape;
  // The warp's lanes hold each 16 x 4w tile as a matrix-unit block: lane
  // (g, t) rows g and g + 8, columns w t .. w t + w - 1.
  int64_t columns = tileShape.back(), width = columns / 4;
  LaneBlock block{2, width, columns, /*rowStride=*/8, /*mma=*/true};
  block.repeatRows = warp.rows < 16;
  bool fits = true;
  for (auto [tile, stored] : warp.tiles)
    forEachLaneMatmul(plan, plan.stmts[tile].first,
                      [&](unsigned id) { fits &= fitsMatrixUnits(id, block); });
  for (auto [g, right] : warp.productLoads)
    fits &= loadsHalf(right, productTileWidth(plan.exprs[g].sizes[3]) / 8);
  if (!fits)
    return false;

  auto at = [&](Value vec, ArrayRef<int64_t> i) -> Value {
    return vector::ExtractOp::create(b, loc, vec, i);
  };
  Value lane = rem(cx.threadId, 32), warpId = div(cx.threadId, 32);
  Value g = div(lane, 4), t = rem(lane, 4);
  Lanes flats = blockFlats(lane, block);
  SmallVector<Value> inits;
  Value zero = nvidia::zeroAccumulator(b, loc);
  // An online loop carries its warp's running maximum of rows g and g + 8
  // first.
  const std::optional<WarpLoop::Online> &online = warp.online;
  if (online)
    inits.append(2, constant(-std::numeric_limits<double>::infinity()));
  for (auto [store, id] : warp.accumulations) {
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Reduce)
      inits.append(2, constant(0.0));
    else
      inits.append(node.sizes[3] / 8, zero);
  }
  auto [first, last] = iterationBounds(warp.loop);
  Value from = add(first, mul(warpId, loop.step));
  auto iterations = scf::ForOp::create(
      b, loc, from, last, index(loop.step * warp.warps), inits,
      [&](OpBuilder &, Location, Value iv, ValueRange accs) {
        cx.vars[loop.var] = iv;
        // The tiles, as their tensors hold them, in registers; stored only
        // if read elsewhere.
        for (auto [id, stored] : warp.tiles) {
          const StmtNode &store = plan.stmts[id];
          ElementKind kind = tensorKinds[store.access.tensor];
          Lanes tile;
          inLaneBlock(flats, block, [&] {
            tile = formula(store.first, flats);
            for (Value &v : tile)
              v = toF32(fromF32(v, kind), kind);
            if (stored)
              storeLanes(store, tile, flats, {});
          });
          cx.carried[store.access.tensor] = tile;
        }
        SmallVector<Value> next(accs);
        unsigned a = 0;
        // Online: the tile's row maxima (over the lane's columns, then its
        // quad's), the new running maximum, the repair factor of each row,
        // and E = exp(Y - Ms), which the accumulations read.
        Lanes e;
        SmallVector<Value, 2> alpha;
        if (online) {
          Lanes x = formula(online->x, flats);
          Lanes y = online->y == online->x ? x : formula(online->y, flats);
          Value ninf = constant(-std::numeric_limits<double>::infinity());
          for (int64_t r = 0; r < 2; ++r) {
            Value rowMax = x[r * width];
            for (int64_t i = 1; i < width; ++i)
              rowMax = combine(ReduceFn::Max, rowMax, x[r * width + i]);
            rowMax = quadCombine(ReduceFn::Max, rowMax);
            Value newMax = binary(BinaryFn::Max, accs[r], rowMax);
            Value shift = newMax;
            if (online->safe) {
              Value empty = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OEQ, newMax, ninf);
              shift = arith::SelectOp::create(b, loc, empty, constant(0.0),
                                              newMax);
            }
            Value d = binary(BinaryFn::Sub, accs[r], shift);
            if (online->clamped)
              d = binary(BinaryFn::Min, d, constant(0.0));
            alpha.push_back(unary(UnaryFn::Exp, d));
            next[r] = newMax;
            for (int64_t i = 0; i < width; ++i)
              e.push_back(unary(
                  UnaryFn::Exp,
                  binary(BinaryFn::Sub, y[r * width + i], shift)));
          }
          a = 2;
        }
        for (auto [store, id] : warp.accumulations) {
          const ExprNode &node = plan.exprs[id];
          Lanes x = online ? e : formula(node.operands[0], flats);
          if (node.kind == Kind::Reduce) {
            // Each row's sum over this lane's columns (online: added to the
            // sum so far taken to the new maximum).
            for (int64_t r = 0; r < 2; ++r, ++a) {
              if (online)
                next[a] = arith::MulFOp::create(b, loc, next[a], alpha[r]);
              for (int64_t i = 0; i < width; ++i)
                next[a] =
                    arith::AddFOp::create(b, loc, next[a], x[r * width + i]);
            }
            continue;
          }
          if (online) {
            for (int64_t j = 0; j < node.sizes[3] / 8; ++j)
              next[a + j] = scaleRows(next[a + j], alpha);
            // A compiler barrier: LLVM would issue the product's operand
            // loads with the scores' (all of an iteration's loads up
            // front), which at 64-key tiles and a 128-wide product is
            // beyond 255 registers; ptxas then spilled nearly everything
            // (the 2K causal prefill 12.8 ms -> 0.85 ms with it).
            nvidia::inlinePTX(b, loc, "", "~{memory}", {});
          }
          // The lane's columns are its left operand's k values. f16 (m16n8k16):
          // in step s, mma's k index 2t + e is column w t + 4s + e and
          // 2t + 8 + e is w t + 4s + 2 + e, so that the right operand's rows
          // for the step are w t + 4s + q (q < 4). tf32 (m16n8k8): k index
          // t is column w t + 2s and t + 4 is w t + 2s + 1 (rows
          // w t + 2s + q, q < 2).
          ElementKind left = plan.exprs[node.operands[0]].elementKind;
          if (online && online->halfProducts)
            left = ElementKind::F16;
          bool tf32 = left == ElementKind::F32;
          int64_t rowsPerStep = tf32 ? 2 : 4;
          auto half = [&](int64_t r, int64_t i) -> Value {
            return arith::TruncFOp::create(
                b, loc, getStorageType(b.getContext(), left), x[r * width + i]);
          };
          SmallVector<Value> aFragments;
          for (int64_t i = 0; i < width; i += rowsPerStep)
            aFragments.push_back(
                tf32 ? nvidia::tf32AFragment(
                           b, loc,
                           {x[i], x[width + i], x[i + 1], x[width + i + 1]})
                     : nvidia::aFragment(b, loc,
                                         {half(0, i), half(0, i + 1),
                                          half(0, i + 2), half(0, i + 3)},
                                         {half(1, i), half(1, i + 1),
                                          half(1, i + 2), half(1, i + 3)}));
          // Column n of accumulator tile j of pass o is real column
          // o * tileWidth + n * c + j: a lane's column of every tile of a
          // pass is one run of c elements of the right operand's row.
          int64_t n = node.sizes[3], tileWidth = productTileWidth(n);
          int64_t c = tileWidth / 8;
          unsigned right = warp.productLoads.lookup(id);
          for (int64_t o = 0; o < n / tileWidth; ++o) {
            Value column = add(index(o * tileWidth), mul(g, c));
            for (auto [s, fragment] : llvm::enumerate(aFragments)) {
              Lanes runs;
              for (int64_t q = 0; q < rowsPerStep; ++q) {
                Value k =
                    add(mul(t, width), index(rowsPerStep * int64_t(s) + q));
                runs.push_back(halfRun(right, add(mul(k, n), column), c));
              }
              for (int64_t j = 0; j < c; ++j) {
                Value &acc = next[a + o * c + j];
                SmallVector<Value> bValues;
                for (Value run : runs)
                  bValues.push_back(at(run, {j}));
                acc = tf32 ? nvidia::tf32MmaStep(b, loc, fragment, bValues, acc)
                           : nvidia::mmaStep(b, loc, fragment, bValues, acc);
              }
            }
          }
          a += n / 8;
        }
        cx.carried.clear();
        scf::YieldOp::create(b, loc, next);
      });

  SmallVector<Value> sums(iterations.getResults());
  if (online) {
    finishOnlineWarpLoop(sums, lane, warpId);
    return true;
  }
  std::optional<scf::IfOp> firstWarp;
  if (warp.reduceInBlock) {
    sums = reduceWarpSums(sums, lane, warpId);
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          warpId, index(0));
    firstWarp = scf::IfOp::create(b, loc, isFirst, false);
    b.setInsertionPoint(firstWarp->thenBlock()->getTerminator());
  }
  // Each warp (with `reduceInBlock`, the first, for the block) adds its
  // partial sums to the accumulated tensors atomically (the blocks of a
  // split loop share them): a row's sums after adding the four lanes of the
  // row's quad, a product's rows in runs.
  unsigned a = 0;
  for (auto [store, id] : warp.accumulations) {
    const StmtNode &accumulation = plan.stmts[store];
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Reduce) {
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, index(0));
      for (int64_t r = 0; r < 2; ++r, ++a) {
        Value sum = quadCombine(ReduceFn::Sum, sums[a]);
        auto ifFirst = scf::IfOp::create(b, loc, first, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
        atomicAddRun(accumulation, add(g, index(8 * r)), sum);
      }
      continue;
    }
    int64_t n = node.sizes[3], c = productTileWidth(n) / 8;
    int64_t runWidth = std::min(c, atomicRunWidth(accumulation, c));
    forEachProductRun(n, g, t, [&](Value flat, int64_t r, int64_t h,
                                   int64_t first) {
      for (int64_t j = 0; j < c; j += runWidth) {
        Lanes values;
        for (int64_t i = j; i < j + runWidth; ++i)
          values.push_back(at(sums[a + first + i], {r, h}));
        atomicAddRun(accumulation, add(flat, index(j)), values);
      }
    });
    a += n / 8;
  }
  if (firstWarp)
    b.setInsertionPointAfter(*firstWarp);
  gpu::BarrierOp::create(b, loc);
  return true;
}

SmallVector<Value> KernelEmitter::reduceWarpSums(ArrayRef<Value> sums,
                                                 Value lane, Value warpId) {
  int64_t warps = kernel.warpLoop->warps;
  int64_t count = kernel.warpLoop->laneSums;
  // Scalars of the sums (an accumulator's four in row-major order), and
  // back.
  auto flatten = [&](ArrayRef<Value> values) {
    SmallVector<Value> flat;
    for (Value v : values) {
      if (!isa<VectorType>(v.getType())) {
        flat.push_back(v);
        continue;
      }
      for (int64_t i = 0; i < 4; ++i)
        flat.push_back(vector::ExtractOp::create(
            b, loc, v, ArrayRef<int64_t>{i / 2, i % 2}));
    }
    return flat;
  };
  auto rebuild = [&](ArrayRef<Value> flat) {
    SmallVector<Value> values;
    size_t i = 0;
    for (Value v : sums) {
      if (!isa<VectorType>(v.getType())) {
        values.push_back(flat[i++]);
        continue;
      }
      values.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(v.getType()), flat.slice(i, 4)));
      i += 4;
    }
    return values;
  };
  SmallVector<Value> flat = flatten(sums);
  assert(int64_t(flat.size()) == count && "lane sums miscounted");
  // Sum i of slot s at (s * count + i) * 32 + lane: a warp's accesses are
  // 32 consecutive words, free of bank conflicts.
  auto address = [&](Value slot, int64_t i) {
    return add(mul(add(mul(slot, count), index(i)), 32), lane);
  };
  // Round `step`: warp w with w mod 2 step = step stores its sums in slot
  // w / (2 step); warp w - step adds them to its own.
  for (int64_t step = 1; step < warps; step *= 2) {
    Value position = rem(warpId, 2 * step);
    Value slot = div(warpId, 2 * step);
    Value sends = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        position, index(step));
    {
      auto ifSend = scf::IfOp::create(b, loc, sends, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifSend.thenBlock()->getTerminator());
      for (int64_t i = 0; i < count; ++i)
        memref::StoreOp::create(b, loc, flat[i], cx.shared,
                                ValueRange{address(slot, i)});
    }
    gpu::BarrierOp::create(b, loc);
    Value receives = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position,
                              index(0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                              add(warpId, index(step)), index(warps)));
    SmallVector<Type> types(count, f32);
    auto ifReceive = scf::IfOp::create(b, loc, types, receives, true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifReceive.thenBlock());
      SmallVector<Value> added;
      for (int64_t i = 0; i < count; ++i)
        added.push_back(arith::AddFOp::create(
            b, loc, flat[i],
            memref::LoadOp::create(b, loc, cx.shared,
                                   ValueRange{address(slot, i)})));
      scf::YieldOp::create(b, loc, added);
      b.setInsertionPointToStart(ifReceive.elseBlock());
      scf::YieldOp::create(b, loc, flat);
    }
    flat.assign(ifReceive.getResults().begin(), ifReceive.getResults().end());
    gpu::BarrierOp::create(b, loc);
  }
  return rebuild(flat);
}

void KernelEmitter::forEachProductRun(
    int64_t n, Value g, Value t,
    llvm::function_ref<void(Value, int64_t, int64_t, int64_t)> fn) {
  // Row g + 8r of pass o holds c consecutive columns per h: run
  // o * tileWidth + (2t + h) c.
  int64_t tileWidth = productTileWidth(n), c = tileWidth / 8;
  for (int64_t o = 0; o < n / tileWidth; ++o)
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = add(g, index(8 * r));
        Value col = add(index(o * tileWidth + h * c), mul(t, 2 * c));
        fn(add(mul(row, n), col), r, h, o * c);
      }
}

Value KernelEmitter::quadCombine(ReduceFn fn, Value v) {
  for (int64_t offset : {1, 2}) {
    Value other =
        gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR)
            .getShuffleResult();
    v = combine(fn, v, other);
  }
  return v;
}

Value KernelEmitter::scaleRows(Value fragment, ArrayRef<Value> factors) {
  auto type = cast<VectorType>(fragment.getType());
  Value scale = vector::FromElementsOp::create(
      b, loc, type, ValueRange{factors[0], factors[0], factors[1], factors[1]});
  return arith::MulFOp::create(b, loc, fragment, scale);
}

Value KernelEmitter::loadElement(const StmtNode &store, Value flat) {
  Value address =
      tensorOffset(store.access, plan.exprs[store.first].shape, flat);
  unsigned tensor = store.access.tensor;
  return toF32(memref::LoadOp::create(b, loc, cx.tensorArgs[tensor], address),
               tensorKinds[tensor]);
}

Value KernelEmitter::stateWeight(Value x, Value to) {
  Value empty = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, x,
      constant(-std::numeric_limits<double>::infinity()));
  return arith::SelectOp::create(
      b, loc, empty, constant(0.0),
      unary(UnaryFn::Exp, binary(BinaryFn::Sub, x, to)));
}

void KernelEmitter::ifThen(Value cond, llvm::function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

void KernelEmitter::ifRealRow(Value g, int64_t r, Value also,
                              llvm::function_ref<void()> body) {
  int64_t rows = kernel.warpLoop->rows;
  if (rows <= 8 * r)
    return;
  Value cond = also;
  if (rows < 16) {
    Value real = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       add(g, index(8 * r)), index(rows));
    cond = cond ? arith::AndIOp::create(b, loc, cond, real) : real;
  }
  if (!cond)
    return body();
  ifThen(cond, body);
}

void KernelEmitter::forEachOnlineSum(
    ArrayRef<Value> sums, Value g, Value t,
    llvm::function_ref<void(const StmtNode &, int64_t, Value, Value, int64_t)>
        fn) {
  const WarpLoop &warp = *kernel.warpLoop;
  Value firstOfQuad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, index(0));
  int64_t offset = 16;
  unsigned a = 0;
  for (auto [store, id] : warp.accumulations) {
    const StmtNode &accumulation = plan.stmts[store];
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Reduce) {
      // A row's sum once its quad's lanes are added, by the quad's first.
      for (int64_t r = 0; r < 2; ++r, ++a) {
        Value sum = quadCombine(ReduceFn::Sum, sums[a]);
        ifRealRow(g, r, firstOfQuad, [&] {
          fn(accumulation, offset, add(g, index(8 * r)), sum, r);
        });
      }
      offset += 16;
      continue;
    }
    int64_t n = node.sizes[3], c = productTileWidth(n) / 8;
    forEachProductRun(n, g, t, [&](Value flat, int64_t r, int64_t h,
                                   int64_t first) {
      ifRealRow(g, r, Value(), [&] {
        for (int64_t j = 0; j < c; ++j)
          fn(accumulation, offset, add(flat, index(j)),
             vector::ExtractOp::create(b, loc, sums[a + first + j],
                                       ArrayRef<int64_t>{r, h}),
             r);
      });
    });
    a += n / 8;
    offset += 16 * n;
  }
}

void KernelEmitter::finishOnlineWarpLoop(ArrayRef<Value> state, Value lane,
                                         Value warpId) {
  const WarpLoop &warp = *kernel.warpLoop;
  const WarpLoop::Online &online = *warp.online;
  Value g = div(lane, 4), t = rem(lane, 4);
  SmallVector<Value, 2> maxima(state.take_front(2));
  SmallVector<Value> sums(state.drop_front(2));
  // Scales each row r of the sums by factors[r].
  auto scaleSums = [&](ArrayRef<Value> factors) {
    unsigned a = 0;
    for (auto [store, id] : warp.accumulations) {
      const ExprNode &node = plan.exprs[id];
      if (node.kind == Kind::Reduce) {
        for (int64_t r = 0; r < 2; ++r, ++a)
          sums[a] = arith::MulFOp::create(b, loc, sums[a], factors[r]);
        continue;
      }
      for (int64_t j = 0; j < node.sizes[3] / 8; ++j, ++a)
        sums[a] = scaleRows(sums[a], factors);
    }
  };
  Value firstOfQuad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, index(0));
  if (warp.warps > 1) {
    // Row g + 8r of warp w's maximum at maxOffset + 16 w + g + 8r; every
    // warp takes the block's and scales its sums to it, and the sums are
    // added up as a plain warp loop's.
    auto slot = [&](Value w, int64_t r) {
      return add(add(index(online.maxOffset), mul(w, 16)),
                 add(g, index(8 * r)));
    };
    ifThen(firstOfQuad, [&] {
      for (int64_t r = 0; r < 2; ++r)
        memref::StoreOp::create(b, loc, maxima[r], cx.shared,
                                ValueRange{slot(warpId, r)});
    });
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value, 2> factors;
    for (int64_t r = 0; r < 2; ++r) {
      Value block = maxima[r];
      for (int64_t w = 0; w < int64_t(warp.warps); ++w)
        block = binary(BinaryFn::Max, block,
                       memref::LoadOp::create(b, loc, cx.shared,
                                              ValueRange{slot(index(w), r)}));
      factors.push_back(stateWeight(maxima[r], block));
      maxima[r] = block;
    }
    scaleSums(factors);
    sums = reduceWarpSums(sums, lane, warpId);
  }
  if (kernel.splitsOnline()) {
    mergeOnlineChunks(maxima, sums, lane, warpId);
    return;
  }
  // The first warp merges the block's state into the tensors': the final
  // maximum, and each sum as old * w(old max) + block's * w(its), w the
  // weight in the final maximum.
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpId, index(0));
  ifThen(isFirst, [&] {
    const StmtNode &maxStore = plan.stmts[online.maxStore];
    SmallVector<Value, 2> oldWeights, newWeights, finals;
    for (int64_t r = 0; r < 2; ++r) {
      Value old = loadElement(maxStore, add(g, index(8 * r)));
      Value final = binary(BinaryFn::Max, old, maxima[r]);
      oldWeights.push_back(stateWeight(old, final));
      newWeights.push_back(stateWeight(maxima[r], final));
      finals.push_back(final);
    }
    forEachOnlineSum(sums, g, t,
                     [&](const StmtNode &store, int64_t, Value flat,
                         Value sum, int64_t r) {
                       Value old = loadElement(store, flat);
                       storeElement(
                           store,
                           arith::AddFOp::create(
                               b, loc,
                               arith::MulFOp::create(b, loc, old,
                                                     oldWeights[r]),
                               arith::MulFOp::create(b, loc, sum,
                                                     newWeights[r])),
                           flat);
                     });
    for (int64_t r = 0; r < 2; ++r)
      ifRealRow(g, r, firstOfQuad, [&] {
        storeElement(maxStore, finals[r], add(g, index(8 * r)));
      });
  });
  gpu::BarrierOp::create(b, loc);
}

void KernelEmitter::mergeOnlineChunks(ArrayRef<Value> maxima,
                                      ArrayRef<Value> sums, Value lane,
                                      Value warpId) {
  const WarpLoop &warp = *kernel.warpLoop;
  const WarpLoop::Online &online = *warp.online;
  Value g = div(lane, 4), t = rem(lane, 4);
  Value zero = constant(0.0);
  auto scratchLoad = [&](Value base, Value offset) -> Value {
    return memref::LoadOp::create(b, loc, cx.scratch,
                                  ValueRange{add(base, offset)});
  };
  // The state of chunk block `c` of this grid point: its rows' maxima,
  // then each accumulation's sums ([16] or [16, n], row-major).
  auto stateBase = [&](Value c) {
    Value block = add(mul(cx.gridPoint, kernel.splitChunks), c);
    return add(mul(block, kernel.scratchElements), index(online.scratchOffset));
  };
  Value own = stateBase(cx.chunk);
  auto store = [&](Value offset, Value v) {
    memref::StoreOp::create(b, loc, v, cx.scratch,
                            ValueRange{add(own, offset)});
  };
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpId, index(0));
  Value firstOfQuad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, index(0));
  ifThen(isFirst, [&] {
    ifThen(firstOfQuad, [&] {
      for (int64_t r = 0; r < 2; ++r)
        store(add(g, index(8 * r)), maxima[r]);
    });
    forEachOnlineSum(sums, g, t,
                     [&](const StmtNode &, int64_t offset, Value flat,
                         Value sum, int64_t) {
                       store(add(index(offset), flat), sum);
                     });
  });
  Value slot = add(index(online.counters), cx.gridPoint);
  Value isLast = countArrival(slot, kernel.splitChunks, online.flag);
  // The last block: every thread merges elements of all the chunks'
  // states with the tensors' (each weighted to the final maximum of its
  // row). The rows' weights first, once per row and state, through shared
  // memory: state k's of row r at flag + 1 + 16 k + r (k = 0 the
  // tensors', k = 1 + c chunk c's).
  ifThen(isLast, [&] {
    const StmtNode &maxStore = plan.stmts[online.maxStore];
    int64_t chunks = kernel.splitChunks;
    auto weightSlot = [&](int64_t k, Value row) {
      return add(index(online.flag + 1 + 16 * k), row);
    };
    int64_t rows = warp.rows;
    forEachElement(rows, [&](Value row) {
      SmallVector<Value> maxima{loadElement(maxStore, row)};
      for (int64_t c = 0; c < chunks; ++c)
        maxima.push_back(scratchLoad(stateBase(index(c)), row));
      Value final = maxima.front();
      for (Value m : llvm::drop_begin(maxima))
        final = binary(BinaryFn::Max, final, m);
      for (auto [k, m] : llvm::enumerate(maxima))
        memref::StoreOp::create(b, loc, stateWeight(m, final), cx.shared,
                                ValueRange{weightSlot(k, row)});
      storeElement(maxStore, final, row);
    });
    gpu::BarrierOp::create(b, loc);
    auto weight = [&](int64_t k, Value row) -> Value {
      return memref::LoadOp::create(b, loc, cx.shared,
                                    ValueRange{weightSlot(k, row)});
    };
    int64_t offset = 16;
    for (auto [store, id] : warp.accumulations) {
      const StmtNode &accumulation = plan.stmts[store];
      const ExprNode &node = plan.exprs[id];
      int64_t n = node.kind == Kind::Reduce ? 1 : node.sizes[3];
      forEachElement(rows * n, [&](Value e) {
        Value row = div(e, n);
        Value v = arith::MulFOp::create(b, loc, loadElement(accumulation, e),
                                        weight(0, row));
        for (int64_t c = 0; c < chunks; ++c) {
          Value sum = scratchLoad(stateBase(index(c)), add(index(offset), e));
          Value weighted =
              arith::MulFOp::create(b, loc, sum, weight(1 + c, row));
          v = arith::AddFOp::create(b, loc, v, weighted);
        }
        storeElement(accumulation, v, e);
      });
      offset += 16 * n;
    }
    // Cleared for the next call.
    forEachElement(1, [&](Value) {
      memref::StoreOp::create(b, loc, zero, cx.counters, slot);
    });
  });
  gpu::BarrierOp::create(b, loc);
  cx.lastBlock = isLast;
}
