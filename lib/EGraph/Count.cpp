//===- Count.cpp - Counting the programs an e-class represents ------------===//
//
// A depth-first walk from the root over an explicit stack (programs can be
// thousands of classes deep). The count of a class is the sum over its nodes
// of the product of its children's counts; a node with a child class that is
// on the current DFS path contributes 0, so cycles give finite counts. Each
// class is counted once and memoized: its count is the number of terms it
// derives while avoiding the classes on the path of its first visit. Every
// counted term is a distinct finite term of the class, so the result is a
// lower bound on the true number of terms, exact on acyclic e-graphs. Counts
// are kept as log10 (sums by log-sum-exp) and exactly while they fit in 64
// bits.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/EGraph/EGraph.h"

#include <cmath>
#include <limits>

using namespace mlir::tileir::egraph;

namespace {
constexpr double kLogZero = -std::numeric_limits<double>::infinity();

/// A count in both representations. `exact` is meaningful iff `fits`.
struct Count {
  double log10 = kLogZero;
  uint64_t exact = 0;
  bool fits = true;

  static Count zero() { return {}; }
  static Count one() { return {0.0, 1, true}; }
  bool isZero() const { return log10 == kLogZero; }
};

Count multiply(const Count &a, const Count &b) {
  if (a.isZero() || b.isZero())
    return Count::zero();
  Count r;
  r.log10 = a.log10 + b.log10;
  r.fits = a.fits && b.fits &&
           !__builtin_mul_overflow(a.exact, b.exact, &r.exact);
  return r;
}

Count sum(const Count &a, const Count &b) {
  if (a.isZero())
    return b;
  if (b.isZero())
    return a;
  Count r;
  double hi = std::max(a.log10, b.log10), lo = std::min(a.log10, b.log10);
  r.log10 = hi + std::log10(1.0 + std::pow(10.0, lo - hi));
  r.fits = a.fits && b.fits &&
           !__builtin_add_overflow(a.exact, b.exact, &r.exact);
  return r;
}

enum class State : uint8_t { Unvisited, OnPath, Done };

/// A class being counted: the node and child being visited, the sum of the
/// finished nodes and the product of the finished children of the current one.
struct Frame {
  Id id;
  const EClass *cls;
  uint32_t node = 0, child = 0;
  Count sum, product = Count::one();

  Frame(Id id, const EClass *cls) : id(id), cls(cls) {}
};
} // namespace

ProgramCount EGraph::countPrograms(Id root) const {
  root = find(root);
  llvm::DenseMap<Id, std::pair<State, Count>> memoCounts;
  memoCounts.reserve(numClasses());
  std::vector<Frame> stack;
  stack.emplace_back(root, &getClass(root));
  memoCounts[root].first = State::OnPath;

  Count result;
  while (!stack.empty()) {
    Frame &frame = stack.back();
    const std::vector<ENode> &nodes = frame.cls->nodes;
    if (frame.node == nodes.size()) {
      // All nodes counted: memoize and hand the count to the parent frame.
      Count count = frame.sum;
      memoCounts[frame.id] = {State::Done, count};
      stack.pop_back();
      if (stack.empty()) {
        result = count;
        break;
      }
      Frame &up = stack.back();
      up.product = multiply(up.product, count);
      ++up.child;
      continue;
    }
    const ENode &node = nodes[frame.node];
    // Multiply in children until one needs a visit or the product is zero.
    bool descended = false;
    while (frame.child < node.children.size() && !frame.product.isZero()) {
      Id child = find(node.children[frame.child]);
      auto &entry = memoCounts[child];
      if (entry.first == State::Done) {
        frame.product = multiply(frame.product, entry.second);
        ++frame.child;
      } else if (entry.first == State::OnPath) {
        frame.product = Count::zero();
      } else {
        entry.first = State::OnPath;
        const EClass *cls = &getClass(child);
        stack.emplace_back(child, cls);
        descended = true;
        break;
      }
    }
    if (descended)
      continue;
    // The node is finished (all children multiplied in, or a zero factor).
    frame.sum = sum(frame.sum, frame.product);
    frame.product = Count::one();
    frame.child = 0;
    ++frame.node;
  }

  ProgramCount out;
  out.log10 = result.log10;
  if (result.fits)
    out.exact = result.exact;
  return out;
}
