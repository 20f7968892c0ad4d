//===- EmitReductions.cpp - Reductions, per thread and by groups ----------===//

#include "KernelEmitterImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

/// The value a reduction by `fn` starts from.
static double getIdentity(ReduceFn fn) {
  switch (fn) {
  case ReduceFn::Sum:
    return 0.0;
  case ReduceFn::Max:
    return -std::numeric_limits<double>::infinity();
  case ReduceFn::Min:
    return std::numeric_limits<double>::infinity();
  }
  llvm_unreachable("unknown reduction");
}

Value KernelEmitter::combine(ReduceFn fn, Value x, Value y) {
  return binary(fn == ReduceFn::Sum   ? BinaryFn::Add
                : fn == ReduceFn::Max ? BinaryFn::Max
                                      : BinaryFn::Min,
                x, y);
}

Lanes KernelEmitter::reductionLanes(unsigned id, ValueRange flats) {
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    return mapLanes(flats.size(), fn);
  };
  int64_t extent = node.sizes[1], inner = node.sizes[2];
  Lanes bases = perLane([&](unsigned i) {
    return add(mul(div(flats[i], inner), extent * inner), rem(flats[i], inner));
  });
  Lanes inits(flats.size(), constant(getIdentity(node.reduceFn)));
  // A split addend cut among `reduceLanes` threads: every lanes-th
  // element, from this thread's lane.
  int64_t stride = 1;
  Value from;
  if (cx.reduceLane && id == kernel.splitAddend) {
    stride = kernel.reduceLanes;
    from = cx.reduceLane;
  }
  return reduceLoop(extent / stride, inits, [&](Value r, ValueRange accs) {
    Value e = from ? add(from, mul(r, stride)) : r;
    Lanes at =
        perLane([&](unsigned i) { return add(bases[i], mul(e, inner)); });
    Lanes x = operand(0, at);
    return perLane(
        [&](unsigned i) { return combine(node.reduceFn, accs[i], x[i]); });
  });
}

bool KernelEmitter::emitGroupReduction(unsigned id, const Buffer &result,
                                       const GroupReduction &reduction) {
  const ExprNode &node = plan.exprs[id];
  int64_t n = node.numElements, extent = node.sizes[1], inner = node.sizes[2];
  int64_t group = reduction.group;
  while (group > 1 && n * group > int64_t(kernel.threads))
    group /= 2;
  if (group < 2)
    return false;
  // Part p of result element e: with a reduction over the innermost
  // dimension the parts of one element are adjacent threads (they read
  // adjacent elements), else the elements of one part are.
  bool partsAdjacent = inner == 1;
  auto coords = [&](Value q, int64_t parts) -> std::pair<Value, Value> {
    if (partsAdjacent)
      return {div(q, parts), rem(q, parts)};
    return {rem(q, n), div(q, n)};
  };
  auto slot = [&](Value e, Value p) {
    return partsAdjacent ? add(mul(e, group), p) : add(mul(p, n), e);
  };
  // Each thread's part: every group-th element of the extent.
  forEachElement(n * group, [&](Value q) {
    auto [e, p] = coords(q, group);
    Value base = add(mul(div(e, inner), extent * inner), rem(e, inner));
    auto loop = scf::ForOp::create(
        b, loc, p, index(extent), index(group),
        ValueRange{constant(getIdentity(node.reduceFn))},
        [&](OpBuilder &, Location, Value r, ValueRange accs) {
          Value x = element(node.operands[0], {add(base, mul(r, inner))})[0];
          scf::YieldOp::create(b, loc, combine(node.reduceFn, accs[0], x));
        });
    storeBuffer(reduction.scratch, slot(e, p), loop.getResult(0));
  });
  // Halving rounds: part p takes in part p + half; the last round writes
  // the result element.
  for (int64_t half = group / 2; half >= 1; half /= 2) {
    gpu::BarrierOp::create(b, loc);
    forEachElement(n * half, [&](Value q) {
      auto [e, p] = coords(q, half);
      Value low = slot(e, p);
      Value v =
          combine(node.reduceFn, loadBuffer(reduction.scratch, low),
                  loadBuffer(reduction.scratch, slot(e, add(p, index(half)))));
      if (half > 1) {
        storeBuffer(reduction.scratch, low, v);
        return;
      }
      storeBuffer(result, e, node.round ? round(v, node.elementKind) : v);
    });
  }
  return true;
}
