//===- RealExpr.cpp - Normalized real expressions of the rule prover ------===//

#include "TileDialect/Prover/RealExpr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::tileir::prover;

//===----------------------------------------------------------------------===//
// Lin
//===----------------------------------------------------------------------===//

Lin Lin::var(const std::string &name, int64_t c) {
  Lin l;
  if (c)
    l.coef[name] = c;
  return l;
}

Lin Lin::cst(int64_t v) {
  Lin l;
  l.k = v;
  return l;
}

Lin Lin::operator+(const Lin &o) const {
  Lin r = *this;
  r.k += o.k;
  for (const auto &[s, c] : o.coef)
    if ((r.coef[s] += c) == 0)
      r.coef.erase(s);
  return r;
}

Lin Lin::operator-(const Lin &o) const { return *this + o.scale(-1); }

Lin Lin::scale(int64_t s) const {
  Lin r;
  if (!s)
    return r;
  r.k = k * s;
  for (const auto &[n, c] : coef)
    r.coef[n] = c * s;
  return r;
}

int64_t Lin::coefOf(const std::string &name) const {
  auto it = coef.find(name);
  return it == coef.end() ? 0 : it->second;
}

Lin Lin::subst(const std::string &name, const Lin &value) const {
  int64_t c = coefOf(name);
  if (!c)
    return *this;
  Lin r = *this;
  r.coef.erase(name);
  return r + value.scale(c);
}

bool Lin::provablyNonNegative() const {
  if (k < 0)
    return false;
  for (const auto &[s, c] : coef)
    if (c < 0 || !isExtentSymbol(s))
      return false;
  return true;
}

std::string Lin::str() const {
  std::string out;
  for (const auto &[s, c] : coef) {
    if (c < 0)
      out += "-";
    else if (!out.empty())
      out += "+";
    if (c != 1 && c != -1)
      out += std::to_string(c < 0 ? -c : c) + "*";
    out += s;
  }
  if (k || out.empty()) {
    if (k >= 0 && !out.empty())
      out += "+";
    out += std::to_string(k);
  }
  return out;
}

bool mlir::tileir::prover::isExtentSymbol(const std::string &name) {
  return name.rfind("n_", 0) == 0;
}

//===----------------------------------------------------------------------===//
// Rat
//===----------------------------------------------------------------------===//

Rat::Rat(int64_t num, int64_t den) {
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t g = std::gcd(num < 0 ? -num : num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  n = num;
  d = den ? den : 1;
}

Rat Rat::fromDouble(double v) {
  int64_t den = 1;
  while (den < (int64_t(1) << 30) && v * den != std::floor(v * den))
    den *= 2;
  return Rat(int64_t(std::llround(v * den)), den);
}

Rat Rat::operator+(const Rat &o) const {
  return Rat(n * o.d + o.n * d, d * o.d);
}

Rat Rat::operator*(const Rat &o) const { return Rat(n * o.n, d * o.d); }

std::string Rat::str() const {
  return d == 1 ? std::to_string(n)
                : std::to_string(n) + "/" + std::to_string(d);
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

std::string Mono::factorKey() const {
  std::string out;
  for (const auto &[a, e] : f) {
    if (!out.empty())
      out += "*";
    out += a->key;
    if (e != 1)
      out += "^" + std::to_string(e);
  }
  return out;
}

Poly Poly::cst(Rat c) {
  Poly p;
  if (!c.isZero()) {
    Mono m;
    m.c = c;
    p.terms.push_back(m);
  }
  return p;
}

Poly Poly::atom(AtomRef a, int exponent) {
  Poly p;
  Mono m;
  m.f.push_back({std::move(a), exponent});
  p.terms.push_back(m);
  return p;
}

std::string Poly::str() const {
  if (terms.empty())
    return "0";
  std::string out;
  for (const Mono &m : terms) {
    if (!out.empty())
      out += " + ";
    std::string fk = m.factorKey();
    if (fk.empty())
      out += m.c.str();
    else if (m.c == Rat(1))
      out += fk;
    else
      out += m.c.str() + "*" + fk;
  }
  return out;
}

std::string Tree::str() const {
  if (leaf)
    return p.str();
  return "ite(" + cond.str() + "<0, " + t->str() + ", " + f->str() + ")";
}

void mlir::tileir::prover::collectAtoms(const TreeRef &t,
                                        std::vector<AtomRef> &out) {
  if (!t->leaf) {
    collectAtoms(t->t, out);
    collectAtoms(t->f, out);
    return;
  }
  for (const Mono &m : t->p.terms)
    for (const auto &f : m.f)
      out.push_back(f.first);
}

static void addFree(std::set<std::string> &s, const Lin &l) {
  for (const auto &kv : l.coef)
    s.insert(kv.first);
}

static void treeFree(const TreeRef &t, std::set<std::string> &s) {
  if (!t->leaf) {
    addFree(s, t->cond);
    treeFree(t->t, s);
    treeFree(t->f, s);
    return;
  }
  std::vector<AtomRef> atoms;
  collectAtoms(t, atoms);
  for (const AtomRef &a : atoms)
    s.insert(a->freeVars.begin(), a->freeVars.end());
}

static int polyHeight(const Poly &p) {
  int h = 0;
  for (const Mono &m : p.terms)
    for (const auto &f : m.f)
      h = std::max(h, f.first->height);
  return h;
}

static int treeHeight(const TreeRef &t) {
  std::vector<AtomRef> atoms;
  collectAtoms(t, atoms);
  int h = 0;
  for (const AtomRef &a : atoms)
    h = std::max(h, a->height);
  return h;
}

AtomRef Normalizer::finish(Atom a) {
  std::string key;
  a.freeVars.clear();
  switch (a.kind) {
  case Atom::Leaf:
    key = a.name + "[";
    for (size_t i = 0; i < a.idx.size(); ++i) {
      key += (i ? "," : "") + a.idx[i].str();
      addFree(a.freeVars, a.idx[i]);
    }
    key += "]";
    a.height = 0;
    break;
  case Atom::Extent:
    key = "#(" + a.ext.str() + ")";
    addFree(a.freeVars, a.ext);
    a.height = 0;
    break;
  case Atom::Bind: {
    key = a.name + "{";
    for (size_t i = 0; i < a.bounds.size(); ++i) {
      key +=
          (i ? "," : "") + a.bounds[i].first + "<" + a.bounds[i].second.str();
      addFree(a.freeVars, a.bounds[i].second);
    }
    key += "}(" + a.body->str() + ")";
    std::set<std::string> inner;
    treeFree(a.body, inner);
    for (const auto &b : a.bounds)
      inner.erase(b.first);
    a.freeVars.insert(inner.begin(), inner.end());
    a.height = 1 + treeHeight(a.body);
    break;
  }
  case Atom::Fn:
  case Atom::Recip: {
    key = (a.kind == Atom::Recip ? std::string("inv") : a.name) + "(";
    a.height = 0;
    for (size_t i = 0; i < a.args.size(); ++i) {
      key += (i ? "; " : "") + a.args[i].str();
      for (const Mono &m : a.args[i].terms)
        for (const auto &f : m.f)
          a.freeVars.insert(f.first->freeVars.begin(), f.first->freeVars.end());
      a.height = std::max(a.height, polyHeight(a.args[i]));
    }
    key += ")";
    break;
  }
  }
  a.key = std::move(key);
  return std::make_shared<const Atom>(std::move(a));
}

//===----------------------------------------------------------------------===//
// Polynomials
//===----------------------------------------------------------------------===//

static Poly normalizeTerms(std::vector<Mono> terms) {
  std::map<std::string, Mono> byKey;
  for (Mono &m : terms) {
    if (m.c.isZero())
      continue;
    std::string k = m.factorKey();
    auto it = byKey.find(k);
    if (it == byKey.end())
      byKey.emplace(k, std::move(m));
    else
      it->second.c = it->second.c + m.c;
  }
  Poly p;
  for (auto &kv : byKey)
    if (!kv.second.c.isZero())
      p.terms.push_back(std::move(kv.second));
  return p;
}

Poly Normalizer::padd(const Poly &a, const Poly &b) {
  std::vector<Mono> terms = a.terms;
  terms.insert(terms.end(), b.terms.begin(), b.terms.end());
  return normalizeTerms(std::move(terms));
}

Poly Normalizer::pscale(const Poly &a, Rat c) {
  std::vector<Mono> terms = a.terms;
  for (Mono &m : terms)
    m.c = m.c * c;
  return normalizeTerms(std::move(terms));
}

Poly Normalizer::pmul(const Poly &a, const Poly &b) {
  std::vector<Mono> terms;
  for (const Mono &x : a.terms)
    for (const Mono &y : b.terms) {
      std::map<std::string, std::pair<AtomRef, int>> fs;
      for (const auto &f : x.f)
        fs[f.first->key] = f;
      for (const auto &f : y.f) {
        auto it = fs.find(f.first->key);
        if (it == fs.end()) {
          fs[f.first->key] = f;
          continue;
        }
        int before = it->second.second;
        it->second.second += f.second;
        if ((before > 0) != (f.second > 0))
          note("x/x=1 (x nonzero)");
        if (!it->second.second)
          fs.erase(it);
      }
      Mono m;
      m.c = x.c * y.c;
      for (auto &kv : fs)
        m.f.push_back(kv.second);
      terms.push_back(std::move(m));
    }
  return normalizeTerms(std::move(terms));
}

Poly Normalizer::precip(const Poly &a) {
  if (a.terms.size() == 1 && !a.terms[0].c.isZero()) {
    Mono m = a.terms[0];
    m.c = m.c.inv();
    for (auto &f : m.f)
      f.second = -f.second;
    Poly p;
    p.terms.push_back(m);
    return p;
  }
  Atom r;
  r.kind = Atom::Recip;
  r.args.push_back(a);
  return Poly::atom(finish(std::move(r)));
}

Poly Normalizer::pexp(const Poly &a) {
  Poly result = Poly::cst(Rat(1));
  if (a.terms.empty())
    note("exp(0)=1");
  if (a.terms.size() > 1)
    note("exp(a+b)=exp(a)exp(b)");
  for (const Mono &m : a.terms) {
    Atom e;
    e.kind = Atom::Fn;
    e.name = "exp";
    Mono arg = m;
    int exponent = 1;
    if (!m.f.empty() && m.c.isInt()) {
      exponent = int(m.c.n);
      arg.c = Rat(1);
      if (exponent != 1)
        note("exp(n*a)=exp(a)^n");
    }
    Poly argPoly;
    argPoly.terms.push_back(arg);
    e.args.push_back(argPoly);
    result = pmul(result, Poly::atom(finish(std::move(e)), exponent));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Trees
//===----------------------------------------------------------------------===//

TreeRef Normalizer::leaf(Poly p) {
  auto t = std::make_shared<Tree>();
  t->p = std::move(p);
  return t;
}

TreeRef Normalizer::element(const std::string &tile, std::vector<Lin> idx) {
  Atom a;
  a.kind = Atom::Leaf;
  a.name = tile;
  a.idx = std::move(idx);
  return leaf(Poly::atom(finish(std::move(a))));
}

static Poly extentPoly(Normalizer &n, const Lin &len,
                       const std::function<AtomRef(Atom)> &finish) {
  if (len.isConst())
    return Poly::cst(Rat(len.k));
  Atom a;
  a.kind = Atom::Extent;
  a.ext = len;
  return Poly::atom(finish(std::move(a)));
}

TreeRef Normalizer::extent(const Lin &n) {
  return leaf(extentPoly(*this, n, [&](Atom a) { return finish(a); }));
}

TreeRef Normalizer::ite(const Lin &condIn, TreeRef t, TreeRef f) {
  if (condIn.isConst())
    return condIn.k < 0 ? t : f;
  Lin cond = condIn;
  // L < 0  <=>  not (-L - 1 < 0) over the integers.
  if (cond.coef.begin()->second < 0) {
    cond = cond.scale(-1) + Lin::cst(-1);
    std::swap(t, f);
  }
  if (t->str() == f->str())
    return t;
  auto r = std::make_shared<Tree>();
  r->leaf = false;
  r->cond = cond;
  r->t = std::move(t);
  r->f = std::move(f);
  return r;
}

static int lookup(const std::vector<std::pair<Lin, bool>> &ctx,
                  const Lin &cond) {
  for (const auto &[c, v] : ctx)
    if (c == cond)
      return v;
  return -1;
}

TreeRef Normalizer::prune(TreeRef t, Ctx &ctx) {
  if (t->leaf)
    return t;
  int known = lookup(ctx, t->cond);
  if (known >= 0)
    return prune(known ? t->t : t->f, ctx);
  ctx.push_back({t->cond, true});
  TreeRef a = prune(t->t, ctx);
  ctx.back().second = false;
  TreeRef b = prune(t->f, ctx);
  ctx.pop_back();
  return ite(t->cond, a, b);
}

TreeRef Normalizer::combine(TreeRef a, TreeRef b, bool isMul, Ctx &ctx) {
  for (int side = 0; side < 2; ++side) {
    const TreeRef &x = side ? b : a;
    if (x->leaf)
      continue;
    int known = lookup(ctx, x->cond);
    if (known >= 0) {
      TreeRef branch = known ? x->t : x->f;
      return side ? combine(a, branch, isMul, ctx)
                  : combine(branch, b, isMul, ctx);
    }
    ctx.push_back({x->cond, true});
    TreeRef r1 =
        side ? combine(a, x->t, isMul, ctx) : combine(x->t, b, isMul, ctx);
    ctx.back().second = false;
    TreeRef r2 =
        side ? combine(a, x->f, isMul, ctx) : combine(x->f, b, isMul, ctx);
    ctx.pop_back();
    return ite(x->cond, r1, r2);
  }
  return leaf(isMul ? pmul(a->p, b->p) : padd(a->p, b->p));
}

TreeRef Normalizer::add(TreeRef a, TreeRef b) {
  if (exact)
    return fn("fadd", {a, b});
  Ctx ctx;
  return combine(std::move(a), std::move(b), false, ctx);
}

TreeRef Normalizer::mul(TreeRef a, TreeRef b) {
  if (exact)
    return fn("fmul", {a, b});
  Ctx ctx;
  return combine(std::move(a), std::move(b), true, ctx);
}

TreeRef Normalizer::mapLeaves(TreeRef t,
                              const std::function<TreeRef(const Poly &)> &f) {
  if (t->leaf)
    return f(t->p);
  return ite(t->cond, mapLeaves(t->t, f), mapLeaves(t->f, f));
}

TreeRef Normalizer::neg(TreeRef a) {
  if (exact)
    return fn("fneg", {a});
  return mapLeaves(a, [&](const Poly &p) { return leaf(pscale(p, Rat(-1))); });
}

TreeRef Normalizer::sub(TreeRef a, TreeRef b) {
  if (exact)
    return fn("fsub", {a, b});
  return add(a, neg(b));
}

TreeRef Normalizer::div(TreeRef a, TreeRef b) {
  if (exact)
    return fn("fdiv", {a, b});
  return mul(a, recip(b));
}

TreeRef Normalizer::recip(TreeRef a) {
  note("divisors nonzero");
  return mapLeaves(a, [&](const Poly &p) { return leaf(precip(p)); });
}

TreeRef Normalizer::fn(const std::string &name, std::vector<TreeRef> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->leaf)
      continue;
    std::vector<TreeRef> t = args, f = args;
    t[i] = args[i]->t;
    f[i] = args[i]->f;
    Ctx ctx;
    return prune(ite(args[i]->cond, fn(name, t), fn(name, f)), ctx);
  }
  auto isConst = [](const Poly &p, int64_t v) {
    if (v == 0)
      return p.isZero();
    return p.terms.size() == 1 && p.terms[0].f.empty() &&
           p.terms[0].c == Rat(v);
  };
  if (exact) {
    if (name == "fadd" || name == "fmul") {
      int64_t unit = name == "fadd" ? 0 : 1;
      if (isConst(args[0]->p, unit))
        return args[1];
      if (isConst(args[1]->p, unit))
        return args[0];
      if (args[1]->p.str() < args[0]->p.str())
        std::swap(args[0], args[1]);
    }
    if ((name == "fdiv" && isConst(args[1]->p, 1)) ||
        (name == "fsub" && isConst(args[1]->p, 0)))
      return args[0];
  } else if (name == "exp") {
    return leaf(pexp(args[0]->p));
  } else if (name == "sqr") {
    return leaf(pmul(args[0]->p, args[0]->p));
  }
  Atom a;
  a.kind = Atom::Fn;
  a.name = name;
  for (const TreeRef &t : args)
    a.args.push_back(t->p);
  return leaf(Poly::atom(finish(std::move(a))));
}

std::string Normalizer::fresh() { return "k" + std::to_string(++counter); }

AtomRef Normalizer::makeBind(const std::string &op,
                             std::vector<std::pair<std::string, Lin>> bounds,
                             TreeRef body) {
  int h = 1 + treeHeight(body);
  std::vector<size_t> perm(bounds.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::string bestKey;
  Atom best;
  do {
    TreeRef b = body;
    Atom a;
    a.kind = Atom::Bind;
    a.name = op;
    for (size_t j = 0; j < perm.size(); ++j) {
      std::string canon = "$" + std::to_string(h) + "_" + std::to_string(j);
      b = subst(b, bounds[perm[j]].first, Lin::var(canon));
      a.bounds.push_back({canon, bounds[perm[j]].second});
    }
    a.body = b;
    std::string key = op;
    for (const auto &bd : a.bounds)
      key += "|" + bd.second.str();
    key += "|" + b->str();
    if (bestKey.empty() || key < bestKey) {
      bestKey = key;
      best = a;
    }
  } while (bounds.size() <= 5 &&
           std::next_permutation(perm.begin(), perm.end()));
  return finish(std::move(best));
}

Poly Normalizer::sumMono(const std::string &var, const Lin &len,
                         const Mono &m) {
  Mono out;
  out.c = m.c;
  std::vector<std::pair<AtomRef, int>> in;
  for (const auto &f : m.f)
    (f.first->freeVars.count(var) ? in : out.f).push_back(f);
  Poly outPoly;
  outPoly.terms.push_back(out);
  if (in.empty()) {
    note("sum of a constant = extent * constant");
    return pmul(outPoly,
                extentPoly(*this, len, [&](Atom a) { return finish(a); }));
  }
  if (!out.f.empty() || !(out.c == Rat(1)))
    note("sum linearity");
  std::vector<std::pair<std::string, Lin>> bounds = {{var, len}};
  Poly body = Poly::cst(Rat(1));
  for (const auto &[a, e] : in) {
    if (a->kind == Atom::Bind && a->name == "sum" && e == 1 && a->body->leaf &&
        a->body->p.terms.size() == 1) {
      note("sum exchange");
      TreeRef inner = a->body;
      for (const auto &[bv, bl] : a->bounds) {
        std::string nv = fresh();
        inner = subst(inner, bv, Lin::var(nv));
        bounds.push_back({nv, bl});
      }
      body = pmul(body, inner->p);
      continue;
    }
    body = pmul(body, Poly::atom(a, e));
  }
  return pmul(outPoly, Poly::atom(makeBind("sum", bounds, leaf(body))));
}

TreeRef Normalizer::sumTree(const std::string &var, const Lin &len,
                            TreeRef body) {
  if (body->leaf) {
    if (body->p.terms.size() > 1)
      note("sum linearity");
    Poly r;
    for (const Mono &m : body->p.terms)
      r = padd(r, sumMono(var, len, m));
    return leaf(r);
  }
  const Lin &cond = body->cond;
  if (!cond.mentions(var)) {
    note("ite out of sum");
    return ite(cond, sumTree(var, len, body->t), sumTree(var, len, body->f));
  }
  int64_t a = cond.coefOf(var);
  Lin rest = cond.subst(var, Lin::cst(0));
  Lin p;
  bool lowIsTrue;
  if (a == 1) {
    p = rest.scale(-1); // var < p
    lowIsTrue = true;
  } else if (a == -1) {
    p = rest + Lin::cst(1); // var >= p
    lowIsTrue = false;
  } else {
    return leaf(Poly::atom(makeBind("sum", {{var, len}}, body)));
  }
  if (!p.provablyNonNegative() || !(len - p).provablyNonNegative())
    return leaf(Poly::atom(makeBind("sum", {{var, len}}, body)));
  note("sum split at a concat boundary");
  TreeRef low = lowIsTrue ? body->t : body->f;
  TreeRef high = lowIsTrue ? body->f : body->t;
  std::string k2 = fresh();
  TreeRef shifted = subst(high, var, Lin::var(k2) + p);
  return add(sumTree(var, p, low), sumTree(k2, len - p, shifted));
}

TreeRef Normalizer::bind(const std::string &op, const std::string &var,
                         const Lin &len, TreeRef body) {
  if (op == "sum" && !exact)
    return sumTree(var, len, body);
  if (!body->leaf && !body->cond.mentions(var))
    return ite(body->cond, bind(op, var, len, body->t),
               bind(op, var, len, body->f));
  return leaf(Poly::atom(makeBind(op, {{var, len}}, body)));
}

//===----------------------------------------------------------------------===//
// Substitution
//===----------------------------------------------------------------------===//

Poly Normalizer::substPoly(const Poly &p, const std::string &var,
                           const Lin &value) {
  Poly result;
  for (const Mono &m : p.terms) {
    Poly term = Poly::cst(m.c);
    for (const auto &[a, e] : m.f) {
      Poly fa;
      if (!a->freeVars.count(var)) {
        fa = Poly::atom(a);
      } else if (a->kind == Atom::Extent) {
        fa = extentPoly(*this, a->ext.subst(var, value),
                        [&](Atom x) { return finish(x); });
      } else if (a->kind == Atom::Fn) {
        std::vector<TreeRef> args;
        for (const Poly &arg : a->args)
          args.push_back(leaf(substPoly(arg, var, value)));
        fa = fn(a->name, args)->p;
      } else if (a->kind == Atom::Recip) {
        fa = precip(substPoly(a->args[0], var, value));
      } else {
        fa = Poly::atom(substAtom(a, var, value));
      }
      for (int i = 0; i < (e < 0 ? -e : e); ++i)
        term = pmul(term, e < 0 ? precip(fa) : fa);
    }
    result = padd(result, term);
  }
  return result;
}

AtomRef Normalizer::substAtom(const AtomRef &a, const std::string &var,
                              const Lin &value) {
  if (a->kind == Atom::Leaf) {
    Atom b = *a;
    for (Lin &l : b.idx)
      l = l.subst(var, value);
    return finish(std::move(b));
  }
  // Bind: rename the bound indices apart, substitute, canonicalize again.
  TreeRef body = a->body;
  std::vector<std::pair<std::string, Lin>> bounds;
  for (const auto &[bv, bl] : a->bounds) {
    std::string nv = fresh();
    body = subst(body, bv, Lin::var(nv));
    bounds.push_back({nv, bl.subst(var, value)});
  }
  return makeBind(a->name, bounds, subst(body, var, value));
}

TreeRef Normalizer::subst(TreeRef t, const std::string &var, const Lin &value) {
  if (t->leaf)
    return leaf(substPoly(t->p, var, value));
  TreeRef r = ite(t->cond.subst(var, value), subst(t->t, var, value),
                  subst(t->f, var, value));
  Ctx ctx;
  return prune(r, ctx);
}
