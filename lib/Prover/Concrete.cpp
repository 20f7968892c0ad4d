//===- Concrete.cpp - Confirming a counterexample numerically -------------===//
//
// The solver's model may be spurious (sums and functions are abstracted),
// so a refutation is only reported with concrete extents and element
// values at which the two sides, evaluated with the real functions,
// differ.
//
//===----------------------------------------------------------------------===//

#include "Instance.h"

#include <cmath>
#include <random>
#include <sstream>

using namespace mlir::tileir::prover;

namespace {
class Concrete {
public:
  Concrete(const Instance &inst, std::map<std::string, int64_t> extents)
      : inst(inst), rule(inst.getRule()), extents(std::move(extents)) {}

  int64_t value(const Lin &l) const {
    Lin c = inst.canon(l);
    int64_t v = c.k;
    for (const auto &[s, k] : c.coef) {
      auto it = extents.find(s);
      v += k * (it == extents.end() ? 1 : it->second);
    }
    return v;
  }
  std::vector<int64_t> shape(unsigned node) const {
    std::vector<int64_t> s;
    for (const Lin &l : inst.shapeOf(node))
      s.push_back(value(l));
    return s;
  }
  static int64_t count(const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t e : s)
      n *= e;
    return n;
  }
  static bool next(std::vector<int64_t> &idx, const std::vector<int64_t> &s) {
    for (int d = int(idx.size()) - 1; d >= 0; --d) {
      if (++idx[d] < s[d])
        return true;
      idx[d] = 0;
    }
    return false;
  }

  /// Fills every pattern variable with `gen(name, index)`.
  bool fill(const std::function<double(const std::string &,
                                       const std::vector<int64_t> &)> &gen) {
    leaves.clear();
    for (unsigned id = 0; id < rule.nodes.size(); ++id) {
      const TermNode &n = rule.nodes[id];
      if (n.kind != TermNode::Var || n.rhs || inst.constantOf(id))
        continue;
      std::vector<int64_t> s = shape(id);
      for (int64_t e : s)
        if (e <= 0)
          return false;
      if (count(s) > 4096)
        return false;
      std::vector<double> data;
      std::vector<int64_t> idx(s.size(), 0);
      do
        data.push_back(gen(n.name, idx));
      while (next(idx, s));
      leaves[id] = {s, data};
    }
    return true;
  }

  double at(unsigned id, std::vector<int64_t> idx) const;

  std::string leavesStr() const {
    std::ostringstream os;
    for (const auto &[id, t] : leaves) {
      os << " " << rule.nodes[id].name << "(";
      for (size_t d = 0; d < t.first.size(); ++d)
        os << (d ? "x" : "") << t.first[d];
      os << ")=[";
      for (size_t i = 0; i < t.second.size() && i < 16; ++i)
        os << (i ? ", " : "") << t.second[i];
      os << (t.second.size() > 16 ? ", ...]" : "]");
    }
    return os.str();
  }

  const Instance &inst;
  const RuleTerm &rule;
  std::map<std::string, int64_t> extents;
  std::map<unsigned, std::pair<std::vector<int64_t>, std::vector<double>>>
      leaves;
};
} // namespace

static double apply(const std::string &op, double a, double b) {
  if (op == "tile.add")
    return a + b;
  if (op == "tile.sub")
    return a - b;
  if (op == "tile.mul")
    return a * b;
  if (op == "tile.div")
    return a / b;
  if (op == "tile.max")
    return std::max(a, b);
  if (op == "tile.min")
    return std::min(a, b);
  if (op == "tile.neg")
    return -a;
  if (op == "tile.abs")
    return std::fabs(a);
  if (op == "tile.sqr")
    return a * a;
  if (op == "tile.exp")
    return std::exp(a);
  if (op == "tile.log")
    return std::log(a);
  if (op == "tile.sqrt")
    return std::sqrt(a);
  if (op == "tile.rsqrt")
    return 1 / std::sqrt(a);
  if (op == "tile.sigmoid")
    return 1 / (1 + std::exp(-a));
  if (op == "tile.tanh")
    return std::tanh(a);
  if (op == "tile.erf")
    return std::erf(a);
  return a; // cast
}

double Concrete::at(unsigned id, std::vector<int64_t> idx) const {
  const TermNode &n = rule.nodes[id];
  if (n.kind == TermNode::Var) {
    if (auto c = inst.constantOf(id))
      return *c;
    const auto &t = leaves.at(id);
    int64_t flat = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      flat = flat * t.first[d] + idx[d];
    return t.second[flat];
  }
  const std::string &op = n.name;
  auto arg = [&](unsigned i, std::vector<int64_t> v) {
    return at(n.operands[i], std::move(v));
  };
  if (op == "tile.constant") {
    const AttrVal &v = inst.attr(id, "value");
    return v.kind == AttrVal::Float ? v.f : 1.5;
  }
  if (op == "tile.rsum" || op == "tile.rmax" || op == "tile.rmin") {
    int64_t axis = inst.attr(id, "axis").i;
    int64_t len = shape(n.operands[0])[axis];
    double acc = op == "tile.rsum" ? 0 : NAN;
    idx.insert(idx.begin() + axis, 0);
    for (int64_t k = 0; k < len; ++k) {
      idx[axis] = k;
      double v = arg(0, idx);
      if (op == "tile.rsum")
        acc += v;
      else if (std::isnan(acc))
        acc = v;
      else
        acc = op == "tile.rmax" ? std::max(acc, v) : std::min(acc, v);
    }
    return acc;
  }
  if (op == "tile.matmul") {
    size_t r = idx.size();
    int64_t len = shape(n.operands[0])[r - 1];
    std::vector<int64_t> a(idx.begin(), idx.end() - 1),
        b(idx.begin(), idx.end() - 2);
    a.push_back(0);
    b.push_back(0);
    b.push_back(idx[r - 1]);
    double acc = 0;
    for (int64_t k = 0; k < len; ++k) {
      a.back() = k;
      b[r - 2] = k;
      acc += arg(0, a) * arg(1, b);
    }
    return acc;
  }
  if (op == "tile.permute") {
    const auto &p = inst.attr(id, "permutation").arr;
    std::vector<int64_t> v(idx.size());
    for (size_t d = 0; d < idx.size(); ++d)
      v[p[d]] = idx[d];
    return arg(0, v);
  }
  if (op == "tile.transpose") {
    std::swap(idx[inst.attr(id, "dim0").i], idx[inst.attr(id, "dim1").i]);
    return arg(0, idx);
  }
  if (op == "tile.bcast") {
    const auto &dims = inst.attr(id, "dims").arr;
    std::vector<int64_t> v;
    for (size_t d = 0; d < idx.size(); ++d)
      if (!std::count(dims.begin(), dims.end(), int64_t(d)))
        v.push_back(idx[d]);
    return arg(0, v);
  }
  if (op == "tile.squeeze") {
    idx.insert(idx.begin() + inst.attr(id, "axis").i, 0);
    return arg(0, idx);
  }
  if (op == "tile.unsqueeze") {
    idx.erase(idx.begin() + inst.attr(id, "axis").i);
    return arg(0, idx);
  }
  if (op == "tile.concat") {
    int64_t axis = inst.attr(id, "axis").i;
    for (unsigned i = 0; i < n.operands.size(); ++i) {
      int64_t e = shape(n.operands[i])[axis];
      if (idx[axis] < e || i + 1 == n.operands.size())
        return arg(i, idx);
      idx[axis] -= e;
    }
  }
  double a = arg(0, idx);
  double b = n.operands.size() > 1 ? arg(1, idx) : 0;
  return apply(op, a, b);
}

static bool differ(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return false;
  return std::fabs(a - b) > 1e-6 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// Looks for a difference at the given extents: first with the model's
/// element values (when `element` is given), then with random ones.
static std::string
tryExtents(const Instance &inst, const std::map<std::string, int64_t> &ext,
           const std::function<std::optional<double>(
               const std::string &, const std::vector<int64_t> &)> *element) {
  Concrete c(inst, ext);
  const RuleTerm &rule = inst.getRule();
  for (const Lin &l : inst.positiveHyps())
    if (c.value(l) <= 0)
      return "";
  for (const Lin &l : inst.residual())
    if (c.value(l) != 0)
      return "";
  std::vector<int64_t> shape = c.shape(rule.lhsRoot);
  std::mt19937 rng(20261121);
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  for (int attempt = 0; attempt < 6; ++attempt) {
    bool ok = c.fill([&](const std::string &name,
                         const std::vector<int64_t> &idx) -> double {
      if (attempt == 0 && element)
        if (auto v = (*element)(name, idx))
          return *v;
      double m = std::round(mag(rng) * 4) / 4;
      return (rng() & 1) ? m : -m;
    });
    if (!ok)
      return "";
    std::vector<int64_t> idx(shape.size(), 0);
    do {
      double l = c.at(rule.lhsRoot, idx), r = c.at(rule.rhsRoot, idx);
      if (!differ(l, r))
        continue;
      std::ostringstream os;
      os << "extents {";
      bool first = true;
      for (const auto &[s, v] : ext) {
        os << (first ? "" : ", ") << s.substr(2) << "=" << v;
        first = false;
      }
      os << "} at [";
      for (size_t d = 0; d < idx.size(); ++d)
        os << (d ? ", " : "") << idx[d];
      os << "]: lhs=" << l << " rhs=" << r << " with" << c.leavesStr();
      return os.str();
    } while (Concrete::next(idx, shape));
  }
  return "";
}

std::string mlir::tileir::prover::findCounterexample(
    const Instance &inst,
    const std::function<std::optional<int64_t>(const std::string &)> &extent,
    const std::function<std::optional<double>(
        const std::string &, const std::vector<int64_t> &)> &element) {
  // The model's extents first, then every free extent 2, then 3: a model
  // with extent-1 reductions may hide the difference.
  for (int64_t uniform : {int64_t(0), int64_t(2), int64_t(3)}) {
    std::map<std::string, int64_t> ext;
    for (const std::string &s : inst.freeSymbols())
      ext[s] = uniform ? uniform : extent(s).value_or(1);
    std::string cex = tryExtents(inst, ext, uniform ? nullptr : &element);
    if (!cex.empty())
      return cex;
  }
  return "";
}
