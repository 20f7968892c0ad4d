//===- Instance.cpp - A rule at one rank and attribute choice -------------===//

#include "Instance.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tileir::prover;

std::string AttrVal::str() const {
  switch (kind) {
  case Int:
    return std::to_string(i);
  case Float: {
    std::string s = std::to_string(f);
    return s;
  }
  case Array: {
    std::string s = "[";
    for (size_t j = 0; j < arr.size(); ++j)
      s += (j ? ", " : "") + std::to_string(arr[j]);
    return s + "]";
  }
  case None:
    break;
  }
  return "?";
}

AttrVal mlir::tileir::prover::attrValOf(Attribute a) {
  AttrVal v;
  if (auto i = dyn_cast_or_null<IntegerAttr>(a)) {
    v.kind = AttrVal::Int;
    v.i = i.getInt();
  } else if (auto f = dyn_cast_or_null<FloatAttr>(a)) {
    v.kind = AttrVal::Float;
    v.f = f.getValueAsDouble();
  } else if (auto arr = dyn_cast_or_null<DenseI64ArrayAttr>(a)) {
    v.kind = AttrVal::Array;
    v.arr.assign(arr.asArrayRef().begin(), arr.asArrayRef().end());
  } else if (auto dense = dyn_cast_or_null<DenseElementsAttr>(a)) {
    if (dense.isSplat() && isa<FloatType>(dense.getElementType())) {
      v.kind = AttrVal::Float;
      v.f = dense.getSplatValue<APFloat>().convertToDouble();
    }
  }
  return v;
}

static bool isElementwise(llvm::StringRef op) {
  static const llvm::StringSet<> ops = {
      "tile.add", "tile.sub",  "tile.mul",   "tile.div",     "tile.max",
      "tile.min", "tile.neg",  "tile.abs",   "tile.sqr",     "tile.exp",
      "tile.log", "tile.sqrt", "tile.rsqrt", "tile.sigmoid", "tile.tanh",
      "tile.erf", "tile.cast"};
  return ops.contains(op);
}

Instance::Instance(const RuleTerm &rule, unsigned rank,
                   std::vector<AttrVal> attrs)
    : rule(rule), rootRank(rank), attrs(std::move(attrs)),
      ranks(rule.nodes.size(), -1), shapes(rule.nodes.size()),
      constVal(rule.nodes.size()) {}

const AttrVal &Instance::attr(unsigned node, const std::string &name) const {
  static const AttrVal none;
  const TermNode &n = rule.nodes[node];
  auto it = n.attrs.find(name);
  return it == n.attrs.end() ? none : attrs[it->second];
}

std::string Instance::describe() const {
  std::string s = "rank " + std::to_string(rootRank);
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (rule.attrs[i].value || attrs[i].kind == AttrVal::None)
      continue;
    std::string name = "attribute";
    for (const TermNode &n : rule.nodes)
      for (const auto &[attrName, slot] : n.attrs)
        if (slot == i)
          name = attrName;
    s += ", " + name + " = " + attrs[i].str();
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Ranks
//===----------------------------------------------------------------------===//

bool Instance::assignRank(unsigned id, int r) {
  if (r < 0)
    return false;
  if (ranks[id] >= 0)
    return ranks[id] == r;
  ranks[id] = r;
  const TermNode &n = rule.nodes[id];
  if (n.kind == TermNode::Var)
    return true;
  auto all = [&](int rr) {
    for (unsigned o : n.operands)
      if (!assignRank(o, rr))
        return false;
    return true;
  };
  const std::string &op = n.name;
  if (isElementwise(op) || op == "tile.constant")
    return all(r);
  if (op == "tile.rsum" || op == "tile.rmax" || op == "tile.rmin") {
    const AttrVal &a = attr(id, "axis");
    return a.kind == AttrVal::Int && a.i >= 0 && a.i <= r && all(r + 1);
  }
  if (op == "tile.matmul")
    return r >= 2 && n.operands.size() == 2 && all(r);
  if (op == "tile.permute") {
    const AttrVal &p = attr(id, "permutation");
    if (p.kind != AttrVal::Array || p.arr.size() != size_t(r))
      return false;
    std::vector<int64_t> s = p.arr;
    std::sort(s.begin(), s.end());
    for (int i = 0; i < r; ++i)
      if (s[i] != i)
        return false;
    return all(r);
  }
  if (op == "tile.transpose") {
    const AttrVal &a = attr(id, "dim0"), &b = attr(id, "dim1");
    return a.kind == AttrVal::Int && b.kind == AttrVal::Int && a.i >= 0 &&
           a.i < r && b.i >= 0 && b.i < r && all(r);
  }
  if (op == "tile.bcast") {
    const AttrVal &d = attr(id, "dims");
    if (d.kind != AttrVal::Array || d.arr.empty())
      return false;
    for (size_t i = 0; i < d.arr.size(); ++i)
      if (d.arr[i] < 0 || d.arr[i] >= r || (i && d.arr[i] <= d.arr[i - 1]))
        return false;
    return all(r - int(d.arr.size()));
  }
  if (op == "tile.squeeze") {
    const AttrVal &a = attr(id, "axis");
    return a.kind == AttrVal::Int && a.i >= 0 && a.i <= r && all(r + 1);
  }
  if (op == "tile.unsqueeze") {
    const AttrVal &a = attr(id, "axis");
    return r >= 1 && a.kind == AttrVal::Int && a.i >= 0 && a.i < r &&
           all(r - 1);
  }
  if (op == "tile.concat") {
    const AttrVal &a = attr(id, "axis");
    return a.kind == AttrVal::Int && a.i >= 0 && a.i < r &&
           !n.operands.empty() && all(r);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Lin Instance::freshSymbol(const std::string &base) {
  std::string name = "n_" + base;
  for (int i = 2;
       std::find(symbols.begin(), symbols.end(), name) != symbols.end(); ++i)
    name = "n_" + base + "_" + std::to_string(i);
  symbols.push_back(name);
  return Lin::var(name);
}

void Instance::equate(bool rhs, const Lin &a, const Lin &b,
                      const std::string &what) {
  if (rhs)
    obligations.push_back({a, b, what});
  else
    hyps.push_back({a, b});
}

static std::string shapeStr(const std::vector<Lin> &s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + s[i].str();
  return out + "]";
}

bool Instance::computeShape(unsigned id) {
  if (shapes[id])
    return true;
  const TermNode &n = rule.nodes[id];
  int r = ranks[id];
  if (r < 0)
    return false;
  std::vector<Lin> s;
  if (n.kind == TermNode::Var) {
    for (int d = 0; d < r; ++d)
      s.push_back(freshSymbol(n.name + std::to_string(d)));
    shapes[id] = s;
    return true;
  }
  for (unsigned o : n.operands)
    if (!computeShape(o))
      return false;
  auto sh = [&](unsigned i) -> const std::vector<Lin> & {
    return *shapes[n.operands[i]];
  };
  auto eqShapes = [&](const std::vector<Lin> &a, const std::vector<Lin> &b,
                      int skip, const std::string &what) {
    for (size_t d = 0; d < a.size() && d < b.size(); ++d)
      if (int(d) != skip)
        equate(n.rhs, a[d], b[d], what);
  };
  const std::string &op = n.name;
  std::string what = "operands of " + op;
  if (op == "tile.constant") {
    if (n.like >= 0) {
      if (!computeShape(n.like))
        return false;
      s = *shapes[n.like];
    } else {
      for (int d = 0; d < r; ++d)
        s.push_back(
            freshSymbol("c" + std::to_string(id) + "_" + std::to_string(d)));
    }
  } else if (isElementwise(op)) {
    s = sh(0);
    for (size_t i = 1; i < n.operands.size(); ++i)
      eqShapes(s, sh(i), -1, what);
  } else if (op == "tile.rsum" || op == "tile.rmax" || op == "tile.rmin") {
    s = sh(0);
    s.erase(s.begin() + attr(id, "axis").i);
  } else if (op == "tile.matmul") {
    const auto &a = sh(0), &b = sh(1);
    equate(n.rhs, a[r - 1], b[r - 2], "contraction extents of tile.matmul");
    for (int d = 0; d + 2 < r; ++d)
      equate(n.rhs, a[d], b[d], "batch extents of tile.matmul");
    s.assign(a.begin(), a.end() - 1);
    s.push_back(b[r - 1]);
  } else if (op == "tile.permute") {
    const auto &p = attr(id, "permutation").arr;
    for (int d = 0; d < r; ++d)
      s.push_back(sh(0)[p[d]]);
  } else if (op == "tile.transpose") {
    s = sh(0);
    std::swap(s[attr(id, "dim0").i], s[attr(id, "dim1").i]);
  } else if (op == "tile.bcast") {
    const auto &dims = attr(id, "dims").arr;
    const std::vector<Lin> *like = nullptr;
    if (n.like >= 0) {
      if (!computeShape(n.like))
        return false;
      like = &*shapes[n.like];
      if (int(like->size()) != r) {
        rhsErr = "broadcast to a shape of another rank";
        return false;
      }
    }
    size_t src = 0;
    for (int d = 0; d < r; ++d) {
      bool inserted = std::count(dims.begin(), dims.end(), d);
      if (inserted) {
        s.push_back(like ? (*like)[d]
                         : freshSymbol("b" + std::to_string(id) + "_" +
                                       std::to_string(d)));
        continue;
      }
      Lin from = sh(0)[src++];
      if (like)
        equate(true, from, (*like)[d], "tile.bcast operand against its shape");
      s.push_back(from);
    }
  } else if (op == "tile.squeeze") {
    s = sh(0);
    int64_t axis = attr(id, "axis").i;
    equate(n.rhs, s[axis], Lin::cst(1), "squeezed extent");
    s.erase(s.begin() + axis);
  } else if (op == "tile.unsqueeze") {
    s = sh(0);
    s.insert(s.begin() + attr(id, "axis").i, Lin::cst(1));
  } else if (op == "tile.concat") {
    int64_t axis = attr(id, "axis").i;
    s = sh(0);
    for (size_t i = 1; i < n.operands.size(); ++i) {
      eqShapes(s, sh(i), int(axis), "operands of tile.concat");
      s[axis] = s[axis] + sh(i)[axis];
    }
  } else {
    return false;
  }
  shapes[id] = s;
  if (n.rhs && n.typeSlot >= 0 && rule.types[n.typeSlot].node >= 0) {
    unsigned other = rule.types[n.typeSlot].node;
    if (!computeShape(other) || shapes[other]->size() != s.size()) {
      rhsErr = "result type of a rank other than the bound type's";
      return false;
    }
    eqShapes(s, *shapes[other], -1, op + " against its result type");
  }
  return true;
}

bool Instance::applyConstraints() {
  for (const ConstraintUse &c : rule.constraints) {
    if (c.negated)
      continue; // ignoring a guard only weakens the hypotheses
    auto valueArg = [&](size_t i) -> int {
      if (i >= c.args.size() || c.args[i].kind != ConstraintUse::Arg::Value)
        return -1;
      return int(c.args[i].index);
    };
    auto attrArg = [&](size_t i) -> const AttrVal * {
      if (i >= c.args.size() || c.args[i].kind != ConstraintUse::Arg::Attr)
        return nullptr;
      return &attrs[c.args[i].index];
    };
    if (c.name == "IsSplat") {
      const AttrVal *v = attrArg(1);
      int x = valueArg(0);
      if (x >= 0 && v && v->kind == AttrVal::Float &&
          rule.nodes[x].kind == TermNode::Var)
        constVal[x] = v->f;
      continue;
    }
    if (c.name == "RankIs") {
      const AttrVal *v = attrArg(1);
      int x = valueArg(0);
      if (x >= 0 && v && v->kind == AttrVal::Int && ranks[x] != v->i)
        return false;
      continue;
    }
    if (c.name == "BroadcastsLastDim") {
      const AttrVal *d = attrArg(0);
      if (!d || c.args.size() < 2 || c.args[1].kind != ConstraintUse::Arg::Type)
        continue;
      int node = rule.types[c.args[1].index].node;
      if (node < 0)
        continue;
      if (d->kind != AttrVal::Array || d->arr.size() != 1 ||
          d->arr[0] != ranks[node] - 1)
        return false;
      continue;
    }
    if (c.name == "SameType" || c.name == "Concatenable" ||
        c.name == "Contractible") {
      int x = valueArg(0), y = valueArg(1);
      if (x < 0 || y < 0 || !shapes[x] || !shapes[y])
        continue;
      const auto &a = *shapes[x], &b = *shapes[y];
      if (a.size() != b.size())
        return false;
      if (c.name == "Contractible") {
        size_t r = a.size();
        if (r < 2)
          return false;
        equate(false, a[r - 1], b[r - 2], "");
        for (size_t d = 0; d + 2 < r; ++d)
          equate(false, a[d], b[d], "");
        continue;
      }
      int64_t skip = -1;
      if (c.name == "Concatenable") {
        const AttrVal *axis = attrArg(2);
        if (!axis || axis->kind != AttrVal::Int || axis->i < 0 ||
            axis->i >= int64_t(a.size()))
          return false;
        skip = axis->i;
      }
      for (size_t d = 0; d < a.size(); ++d)
        if (int64_t(d) != skip)
          equate(false, a[d], b[d], "");
      continue;
    }
    // SameElementType, NonZero: no hypothesis (element types are reals).
  }
  return true;
}

Lin Instance::canon(const Lin &l) const {
  Lin r = l;
  for (const auto &[s, v] : solution)
    r = r.subst(s, v);
  return r;
}

bool Instance::solve() {
  for (const auto &[a, b] : hyps) {
    Lin d = canon(a - b);
    if (d.isConst()) {
      if (d.k != 0)
        return false;
      continue;
    }
    // Eliminate the most recently created symbol with a unit coefficient.
    std::string pick;
    for (auto it = symbols.rbegin(); it != symbols.rend() && pick.empty();
         ++it) {
      int64_t c = d.coefOf(*it);
      if (c == 1 || c == -1)
        pick = *it;
    }
    if (pick.empty()) {
      residualEqs.push_back(d);
      continue;
    }
    int64_t c = d.coefOf(pick);
    // c * pick + rest = 0  =>  pick = -rest / c
    Lin rest = d.subst(pick, Lin::cst(0));
    Lin value = rest.scale(-c); // c is +-1
    for (auto &[s, v] : solution)
      v = v.subst(pick, value);
    solution[pick] = value;
  }
  for (Lin &r : residualEqs)
    r = canon(r);
  return true;
}

bool Instance::elaborate() {
  const RuleTerm &r = rule;
  if (!assignRank(r.lhsRoot, int(rootRank)))
    return false;
  for (unsigned id = 0; id < r.nodes.size(); ++id)
    if (!r.nodes[id].rhs && ranks[id] < 0)
      return false; // a matched value the root does not reach
  for (unsigned id = 0; id < r.nodes.size(); ++id)
    if (!r.nodes[id].rhs && !computeShape(id))
      return false;
  if (!applyConstraints() || !solve())
    return false;
  // The replacement: ranks from the root down, then shapes and typing.
  if (!assignRank(r.rhsRoot, int(rootRank))) {
    rhsErr = "the replacement has a different rank or an invalid attribute";
    return true;
  }
  for (unsigned id = 0; id < r.nodes.size(); ++id)
    if (r.nodes[id].rhs && ranks[id] < 0) {
      rhsErr = "a created value the replacement does not use";
      return true;
    }
  for (unsigned id = 0; id < r.nodes.size(); ++id)
    if (r.nodes[id].rhs && !computeShape(id)) {
      if (rhsErr.empty())
        rhsErr = "the replacement is ill-shaped";
      return true;
    }
  const auto &ls = *shapes[r.lhsRoot], &rs = *shapes[r.rhsRoot];
  for (size_t d = 0; d < ls.size(); ++d)
    obligations.push_back({ls[d], rs[d], "the replacement's shape"});
  for (const auto &[a, b, what] : obligations)
    if (canon(a) != canon(b)) {
      rhsErr = what + ": " + canon(a).str() + " vs " + canon(b).str() +
               " (lhs shape " + shapeStr(shapeOf(r.lhsRoot)) + ")";
      return true;
    }
  return true;
}

std::vector<Lin> Instance::shapeOf(unsigned node) const {
  std::vector<Lin> s;
  if (shapes[node])
    for (const Lin &l : *shapes[node])
      s.push_back(canon(l));
  return s;
}

std::vector<Lin> Instance::positiveHyps() const {
  std::vector<Lin> out;
  for (const std::string &s : symbols)
    out.push_back(canon(Lin::var(s)));
  return out;
}

std::vector<std::string> Instance::freeSymbols() const {
  std::vector<std::string> out;
  for (const std::string &s : symbols)
    if (!solution.count(s))
      out.push_back(s);
  return out;
}

//===----------------------------------------------------------------------===//
// Symbolic evaluation
//===----------------------------------------------------------------------===//

TreeRef Instance::evaluate(Normalizer &norm, unsigned node) const {
  std::vector<Lin> idx;
  for (unsigned d = 0; d < rootRank; ++d)
    idx.push_back(Lin::var("i" + std::to_string(d)));
  return eval(norm, node, idx);
}

TreeRef Instance::eval(Normalizer &norm, unsigned id,
                       std::vector<Lin> idx) const {
  const TermNode &n = rule.nodes[id];
  if (n.kind == TermNode::Var) {
    if (constVal[id])
      return norm.cst(Rat::fromDouble(*constVal[id]));
    return norm.element(n.name, idx);
  }
  const std::string &op = n.name;
  auto arg = [&](unsigned i, std::vector<Lin> at) {
    return eval(norm, n.operands[i], std::move(at));
  };
  auto sh = [&](unsigned i) { return shapeOf(n.operands[i]); };
  if (op == "tile.constant") {
    const AttrVal &v = attr(id, "value");
    if (v.kind == AttrVal::Float)
      return norm.cst(Rat::fromDouble(v.f));
    return norm.element("const" + std::to_string(id), {});
  }
  if (op == "tile.add")
    return norm.add(arg(0, idx), arg(1, idx));
  if (op == "tile.sub")
    return norm.sub(arg(0, idx), arg(1, idx));
  if (op == "tile.mul")
    return norm.mul(arg(0, idx), arg(1, idx));
  if (op == "tile.div")
    return norm.div(arg(0, idx), arg(1, idx));
  if (op == "tile.neg")
    return norm.neg(arg(0, idx));
  if (op == "tile.cast") {
    if (norm.isExact())
      return norm.fn("cast", {arg(0, idx)});
    norm.note("cast = identity over the reals");
    return arg(0, idx);
  }
  if (op == "tile.max" || op == "tile.min")
    return norm.fn(op.substr(5), {arg(0, idx), arg(1, idx)});
  if (isElementwise(op))
    return norm.fn(op.substr(5), {arg(0, idx)});
  if (op == "tile.rsum" || op == "tile.rmax" || op == "tile.rmin") {
    int64_t axis = attr(id, "axis").i;
    std::string k = norm.fresh();
    idx.insert(idx.begin() + axis, Lin::var(k));
    std::string kind = op == "tile.rsum" ? "sum" : op.substr(5);
    return norm.bind(kind, k, sh(0)[axis], arg(0, idx));
  }
  if (op == "tile.matmul") {
    size_t r = idx.size();
    std::string k = norm.fresh();
    std::vector<Lin> a(idx.begin(), idx.end() - 1),
        b(idx.begin(), idx.end() - 2);
    a.push_back(Lin::var(k));
    b.push_back(Lin::var(k));
    b.push_back(idx[r - 1]);
    return norm.bind("sum", k, sh(0)[r - 1], norm.mul(arg(0, a), arg(1, b)));
  }
  if (op == "tile.permute") {
    const auto &p = attr(id, "permutation").arr;
    std::vector<Lin> at(idx.size());
    for (size_t d = 0; d < idx.size(); ++d)
      at[p[d]] = idx[d];
    return arg(0, at);
  }
  if (op == "tile.transpose") {
    std::swap(idx[attr(id, "dim0").i], idx[attr(id, "dim1").i]);
    return arg(0, idx);
  }
  if (op == "tile.bcast") {
    const auto &dims = attr(id, "dims").arr;
    std::vector<Lin> at;
    for (size_t d = 0; d < idx.size(); ++d)
      if (!std::count(dims.begin(), dims.end(), int64_t(d)))
        at.push_back(idx[d]);
    return arg(0, at);
  }
  if (op == "tile.squeeze") {
    idx.insert(idx.begin() + attr(id, "axis").i, Lin::cst(0));
    return arg(0, idx);
  }
  if (op == "tile.unsqueeze") {
    idx.erase(idx.begin() + attr(id, "axis").i);
    return arg(0, idx);
  }
  if (op == "tile.concat") {
    int64_t axis = attr(id, "axis").i;
    std::vector<Lin> offsets = {Lin::cst(0)};
    for (unsigned i = 0; i + 1 < n.operands.size(); ++i)
      offsets.push_back(offsets.back() + sh(i)[axis]);
    auto at = [&](unsigned i) {
      std::vector<Lin> v = idx;
      v[axis] = v[axis] - offsets[i];
      return v;
    };
    unsigned last = n.operands.size() - 1;
    TreeRef result = arg(last, at(last));
    for (int i = int(last) - 1; i >= 0; --i)
      result = norm.ite(idx[axis] - offsets[i + 1], arg(i, at(i)), result);
    return result;
  }
  return norm.element("unknown" + std::to_string(id), idx);
}
