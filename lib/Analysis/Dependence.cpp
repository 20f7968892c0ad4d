//===- Dependence.cpp - Exact dependence tests with Z3 --------------------===//

#include "TileDialect/Analysis/Dependence.h"
#include "SolverProblem.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>

using namespace mlir;
using namespace mlir::tileir;

namespace {
/// Which instance of a loop variable an access sees: one shared by both
/// sides, or a side's own copy.
enum class Side : uint8_t { Shared, First, Second };

/// A pair's answer, kept in the cache.
struct PairAnswer {
  DependenceVerdict verdict = DependenceVerdict::Unknown;
  std::optional<DependenceWitness> witness;
};
} // namespace

struct DependenceOracle::Solver {
  solver::Backend backend;
  unsigned timeoutMs = 2000;
  llvm::StringMap<PairAnswer> cache;
  /// The solver's answers by problem (`problemKey`): pairs of other
  /// statements often pose the same problem under other variable names.
  llvm::StringMap<solver::Answer> answers;
  /// Admissible values per tile-size symbol, computed on demand.
  std::map<std::string, std::vector<int64_t>> symbolValues;

  PairAnswer solvePair(DependenceOracle &oracle, const Access &x,
                       const Access &y,
                       llvm::function_ref<Side(uint32_t)> sideFirst,
                       llvm::function_ref<Side(uint32_t)> sideSecond,
                       const std::optional<DependenceQuery::Order> &order);
};

DependenceOracle::DependenceOracle() : solver(std::make_unique<Solver>()) {}
DependenceOracle::~DependenceOracle() = default;

template <typename T>
static void setAt(std::vector<std::optional<T>> &v, uint32_t i, T x) {
  if (v.size() <= i)
    v.resize(i + 1);
  v[i] = std::move(x);
}

void DependenceOracle::setTensor(uint32_t id, TensorInfo info) {
  setAt(tensors, id, std::move(info));
  solver->cache.clear();
}

void DependenceOracle::setLoop(uint32_t var, LoopInfo info) {
  setAt(loops, var, std::move(info));
  solver->cache.clear();
  solver->symbolValues.clear();
}

void DependenceOracle::addMayAlias(uint32_t a, uint32_t b) {
  aliases.push_back({std::min(a, b), std::max(a, b)});
  solver->cache.clear();
}

void DependenceOracle::setTimeoutMs(unsigned ms) {
  solver->timeoutMs = ms;
  solver->cache.clear();
  solver->answers.clear();
}

const TensorInfo *DependenceOracle::getTensor(uint32_t id) const {
  return id < tensors.size() && tensors[id] ? &*tensors[id] : nullptr;
}
const LoopInfo *DependenceOracle::getLoop(uint32_t var) const {
  return var < loops.size() && loops[var] ? &*loops[var] : nullptr;
}
bool DependenceOracle::mayAlias(uint32_t a, uint32_t b) const {
  if (a == b)
    return true;
  auto key = std::make_pair(std::min(a, b), std::max(a, b));
  return std::find(aliases.begin(), aliases.end(), key) != aliases.end();
}

//===----------------------------------------------------------------------===//
// Building one pair's problem
//===----------------------------------------------------------------------===//

namespace {
class ProblemBuilder {
public:
  ProblemBuilder(const DependenceOracle &oracle,
                 std::map<std::string, std::vector<int64_t>> &symbolCache,
                 const std::vector<std::optional<LoopInfo>> &loops)
      : oracle(oracle), symbolCache(symbolCache), loops(loops) {}

  /// The instance of `var` seen from `side`; -1 if it has no loop.
  int instance(uint32_t var, Side side) {
    auto key = std::make_pair(var, side);
    auto it = instances.find(key);
    if (it != instances.end())
      return it->second;
    const LoopInfo *loop = oracle.getLoop(var);
    if (!loop)
      return -1;
    solver::Var v;
    v.name = loop->name;
    v.start = loop->start;
    v.end = loop->end;
    v.stepCoeff = loop->step.coeff;
    if (!loop->step.isConcrete()) {
      v.symbol = symbol(loop->step.sym.getValue().str());
      if (v.symbol < 0)
        return -1;
    }
    int id = problem.vars.size();
    problem.vars.push_back(v);
    sides.push_back(side);
    instances[key] = id;
    return id;
  }

  /// Converts one access; false if something is not representable.
  bool access(const Access &a, solver::Access &out,
              llvm::function_ref<Side(uint32_t)> sideOf) {
    const TensorInfo *t = oracle.getTensor(a.tensor);
    if (!t || t->shape.size() != a.dims.size())
      return false;
    out.tensor = a.tensor;
    out.shape.assign(t->shape.begin(), t->shape.end());
    out.elementBytes = t->elementBytes;
    for (const IndexTerm &term : a.dims) {
      solver::Dim d;
      switch (term.kind) {
      case IndexTerm::Full:
        d.kind = solver::Dim::Full;
        break;
      case IndexTerm::Const:
        d.kind = solver::Dim::Const;
        d.base = term.base;
        d.size = term.size;
        break;
      case IndexTerm::Tile:
      case IndexTerm::Elem:
        d.kind = term.kind == IndexTerm::Tile ? solver::Dim::Tile
                                              : solver::Dim::Elem;
        d.var = instance(term.var, sideOf(term.var));
        if (d.var < 0)
          return false;
        break;
      }
      out.dims.push_back(d);
    }
    return true;
  }

  solver::Problem problem;
  Side sideOf(size_t instance) const { return sides[instance]; }

private:
  /// The symbol's index; -1 if no value of it fits every loop using it.
  int symbol(const std::string &name) {
    for (size_t i = 0; i < problem.symbols.size(); ++i)
      if (problem.symbols[i].name == name)
        return i;
    auto [it, inserted] = symbolCache.try_emplace(name);
    if (inserted)
      it->second = admissibleValues(name);
    if (it->second.empty())
      return -1;
    problem.symbols.push_back({name, it->second});
    return problem.symbols.size() - 1;
  }

  /// Values `d >= 1` such that `coeff * d` divides the range of every loop
  /// stepping by `coeff * name`.
  std::vector<int64_t> admissibleValues(const std::string &name) {
    std::vector<std::pair<int64_t, int64_t>> uses; // (range, coeff)
    for (const std::optional<LoopInfo> &l : loops)
      if (l && !l->step.isConcrete() && l->step.sym.getValue() == name)
        uses.push_back({l->end - l->start, l->step.coeff});
    std::vector<int64_t> values;
    if (uses.empty())
      return values;
    for (int64_t d = 1; d * uses[0].second <= uses[0].first; ++d) {
      bool ok = true;
      for (auto [range, coeff] : uses)
        ok &= coeff > 0 && range % (coeff * d) == 0;
      if (ok)
        values.push_back(d);
    }
    return values;
  }

  const DependenceOracle &oracle;
  std::map<std::string, std::vector<int64_t>> &symbolCache;
  const std::vector<std::optional<LoopInfo>> &loops;
  std::map<std::pair<uint32_t, Side>, int> instances;
  std::vector<Side> sides;
};
} // namespace

/// Appends the bytes of `value` to a cache key.
template <typename T>
static void putBytes(llvm::SmallVectorImpl<char> &key, T value) {
  const char *bytes = reinterpret_cast<const char *>(&value);
  key.append(bytes, bytes + sizeof(value));
}

/// A key naming everything a problem's answer depends on, positionally:
/// names are left out, and tensors are only "the same" or not.
static void problemKey(llvm::SmallVectorImpl<char> &key,
                       const solver::Problem &p) {
  key.clear();
  auto put = [&](int64_t value) { putBytes(key, value); };
  put(p.symbols.size());
  for (const solver::Symbol &s : p.symbols) {
    put(s.values.size());
    for (int64_t v : s.values)
      put(v);
  }
  put(p.vars.size());
  for (const solver::Var &v : p.vars) {
    put(v.start);
    put(v.end);
    put(v.stepCoeff);
    put(v.symbol);
  }
  for (const solver::Access *a : {&p.first, &p.second}) {
    put(a->elementBytes);
    put(a->dims.size());
    for (size_t d = 0; d < a->dims.size(); ++d) {
      const solver::Dim &dim = a->dims[d];
      put(dim.kind);
      put(dim.var);
      put(dim.base);
      put(dim.size);
      put(d < a->shape.size() ? a->shape[d] : 0);
    }
  }
  put(p.first.tensor == p.second.tensor);
  put(p.order ? p.order->first : -1);
  put(p.order ? p.order->second : -1);
}

PairAnswer DependenceOracle::Solver::solvePair(
    DependenceOracle &oracle, const Access &x, const Access &y,
    llvm::function_ref<Side(uint32_t)> sideFirst,
    llvm::function_ref<Side(uint32_t)> sideSecond,
    const std::optional<DependenceQuery::Order> &order) {
  PairAnswer answer;
  ProblemBuilder builder(oracle, symbolValues, oracle.loops);
  DependenceWitness w;
  w.first = x;
  w.second = y;
  if (!builder.access(x, builder.problem.first, sideFirst) ||
      !builder.access(y, builder.problem.second, sideSecond)) {
    answer.witness = w;
    return answer; // Unknown: a variable without a loop or a bad tensor
  }
  if (order) {
    int a = builder.instance(order->firstVar, Side::First);
    int b = builder.instance(order->secondVar, Side::Second);
    if (a < 0 || b < 0) {
      answer.witness = w;
      return answer;
    }
    builder.problem.order = {a, b};
  }
  DependenceStats &stats = oracle.stats;
  llvm::SmallString<128> key;
  problemKey(key, builder.problem);
  auto [it, inserted] = answers.try_emplace(key);
  if (inserted) {
    ++stats.solverCalls;
    auto start = std::chrono::steady_clock::now();
    it->second = backend.solve(builder.problem, timeoutMs);
    stats.solverSeconds += std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
  }
  const solver::Answer &a = it->second;
  switch (a.status) {
  case solver::Answer::Unsat:
    answer.verdict = DependenceVerdict::Independent;
    return answer;
  case solver::Answer::Sat: {
    answer.verdict = DependenceVerdict::Conflict;
    const solver::Problem &p = builder.problem;
    // Each side lists its own variables and the shared ones (enclosing
    // loops run both statements at the same values).
    for (size_t i = 0; i < p.vars.size(); ++i) {
      std::pair<std::string, int64_t> entry{p.vars[i].name, a.varValues[i]};
      if (builder.sideOf(i) != Side::Second)
        w.firstVars.push_back(entry);
      if (builder.sideOf(i) != Side::First)
        w.secondVars.push_back(entry);
    }
    for (size_t i = 0; i < p.symbols.size(); ++i)
      w.sizes.push_back({p.symbols[i].name, a.symbolValues[i]});
    w.element.assign(a.element.begin(), a.element.end());
    answer.witness = w;
    return answer;
  }
  case solver::Answer::Timeout:
    ++stats.timeouts;
    [[fallthrough]];
  case solver::Answer::Unknown:
    answer.witness = w;
    return answer;
  }
  return answer;
}

static bool passes(const Access &a, AccessFilter f) {
  return f == AccessFilter::All || (f == AccessFilter::Writes) == a.write;
}

static bool contains(llvm::ArrayRef<uint32_t> sorted, uint32_t v) {
  return std::find(sorted.begin(), sorted.end(), v) != sorted.end();
}

/// A cache key naming everything the answer depends on (raw bytes).
static void pairKey(llvm::SmallVectorImpl<char> &key, const Access &x,
                    const Access &y,
                    llvm::function_ref<Side(uint32_t)> sideX,
                    llvm::function_ref<Side(uint32_t)> sideY,
                    const std::optional<DependenceQuery::Order> &order) {
  key.clear();
  auto put = [&](auto value) { putBytes(key, value); };
  auto putAccess = [&](const Access &a,
                       llvm::function_ref<Side(uint32_t)> side) {
    put(a.tensor);
    put(uint8_t(a.write));
    put(uint8_t(a.dims.size()));
    for (const IndexTerm &t : a.dims) {
      put(uint8_t(t.kind));
      if (t.kind == IndexTerm::Const) {
        put(t.base);
        put(t.size);
      } else if (t.kind != IndexTerm::Full) {
        put(t.var);
        put(uint8_t(side(t.var)));
      }
    }
  };
  putAccess(x, sideX);
  putAccess(y, sideY);
  if (order) {
    put(order->firstVar);
    put(order->secondVar);
  }
}

DependenceResult DependenceOracle::check(const DependenceQuery &q) {
  ++stats.queries;
  auto sideFirst = [&](uint32_t v) {
    if (contains(q.first.boundVars, v) || (q.order && q.order->firstVar == v))
      return Side::First;
    return Side::Shared;
  };
  auto sideSecond = [&](uint32_t v) {
    if (contains(q.second.boundVars, v) ||
        (q.order && q.order->secondVar == v))
      return Side::Second;
    return Side::Shared;
  };

  DependenceResult result;
  llvm::SmallString<64> key;
  bool unknown = false;
  std::optional<DependenceWitness> unknownPair;
  for (const Access &x : q.first.accesses) {
    if (!passes(x, q.firstFilter))
      continue;
    for (const Access &y : q.second.accesses) {
      if (!passes(y, q.secondFilter) || (!x.write && !y.write) ||
          !mayAlias(x.tensor, y.tensor))
        continue;
      ++stats.pairs;
      // Constant slices that miss each other need no solver.
      if (x.tensor == y.tensor && x.dims.size() == y.dims.size()) {
        bool apart = false;
        for (size_t d = 0; d < x.dims.size(); ++d) {
          const IndexTerm &a = x.dims[d], &b = y.dims[d];
          apart |= a.kind == IndexTerm::Const && b.kind == IndexTerm::Const &&
                   (a.base + a.size <= b.base || b.base + b.size <= a.base);
        }
        if (apart) {
          ++stats.trivialPairs;
          continue;
        }
      }
      pairKey(key, x, y, sideFirst, sideSecond, q.order);
      llvm::StringRef keyRef(key.data(), key.size());
      auto cached = solver->cache.find(keyRef);
      PairAnswer answer;
      if (cached != solver->cache.end()) {
        ++stats.cacheHits;
        answer = cached->second;
      } else {
        answer = solver->solvePair(*this, x, y, sideFirst, sideSecond, q.order);
        solver->cache[keyRef] = answer;
      }
      if (answer.verdict == DependenceVerdict::Conflict) {
        ++stats.conflicts;
        result.verdict = DependenceVerdict::Conflict;
        result.witness = answer.witness;
        return result;
      }
      if (answer.verdict == DependenceVerdict::Unknown && !unknown) {
        unknown = true;
        unknownPair = answer.witness;
      }
    }
  }
  if (unknown) {
    ++stats.unknown;
    result.verdict = DependenceVerdict::Unknown;
    result.witness = unknownPair;
    return result;
  }
  ++stats.independent;
  return result;
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string DependenceOracle::describe(const Access &a) const {
  std::ostringstream os;
  os << (a.write ? "write of " : "read of ");
  const TensorInfo *t = getTensor(a.tensor);
  os << (t ? t->name : "tensor#" + std::to_string(a.tensor)) << '[';
  for (size_t d = 0; d < a.dims.size(); ++d) {
    const IndexTerm &term = a.dims[d];
    if (d)
      os << ", ";
    const LoopInfo *l =
        term.kind == IndexTerm::Tile || term.kind == IndexTerm::Elem
            ? getLoop(term.var)
            : nullptr;
    std::string var = l ? l->name : "v" + std::to_string(term.var);
    switch (term.kind) {
    case IndexTerm::Full:
      os << "full";
      break;
    case IndexTerm::Tile:
      os << "tile " << var;
      break;
    case IndexTerm::Elem:
      os << "elem " << var;
      break;
    case IndexTerm::Const:
      os << term.base << ":" << term.base + term.size;
      break;
    }
  }
  os << ']';
  return os.str();
}

std::string DependenceOracle::describe(const DependenceWitness &w,
                                      llvm::StringRef first,
                                      llvm::StringRef second) const {
  std::ostringstream os;
  auto side = [&](llvm::StringRef name,
                  const std::vector<std::pair<std::string, int64_t>> &vs) {
    os << name.str();
    for (size_t i = 0; i < vs.size(); ++i)
      os << (i ? ", " : " at ") << vs[i].first << " = " << vs[i].second;
  };
  side(first, w.firstVars);
  os << " and ";
  side(second, w.secondVars);
  if (!w.sizes.empty()) {
    os << " (";
    for (size_t i = 0; i < w.sizes.size(); ++i)
      os << (i ? ", " : "") << w.sizes[i].first << " = " << w.sizes[i].second;
    os << ")";
  }
  const TensorInfo *t = getTensor(w.first.tensor);
  os << " both touch " << (t ? t->name : "tensor") << '[';
  for (size_t d = 0; d < w.element.size(); ++d)
    os << (d ? ", " : "") << w.element[d];
  os << ']';
  return os.str();
}
