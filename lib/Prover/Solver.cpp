//===- Solver.cpp - Z3 queries of the rule prover -------------------------===//
//
// The only file that includes z3++.h; it is compiled with exceptions and
// catches every z3::exception.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Prover/Solver.h"

#include <z3++.h>

#include <map>

using namespace mlir::tileir::prover;

struct Solver::Impl {
  z3::context ctx;
  z3::solver solver{ctx};
  std::optional<z3::model> model;
  std::map<std::string, z3::expr> ints;
  std::map<std::string, z3::func_decl> funcs;
  std::map<std::string, z3::expr> atoms;
  std::vector<z3::expr> hyps;
  bool divisor = false, expPos = false;
  unsigned counter = 0;

  explicit Impl(unsigned timeoutMs) {
    z3::params p(ctx);
    p.set("timeout", timeoutMs);
    solver.set(p);
  }

  z3::expr intSym(const std::string &name) {
    auto it = ints.find(name);
    if (it != ints.end())
      return it->second;
    z3::expr e = ctx.int_const(name.c_str());
    ints.emplace(name, e);
    return e;
  }

  z3::expr lin(const Lin &l) {
    z3::expr e = ctx.int_val(int64_t(l.k));
    for (const auto &[s, c] : l.coef)
      e = e + ctx.int_val(int64_t(c)) * intSym(s);
    return e;
  }

  z3::expr rat(const Rat &r) {
    std::string s = std::to_string(r.n) + "/" + std::to_string(r.d);
    return ctx.real_val(s.c_str());
  }

  z3::func_decl func(const std::string &name, unsigned arity, bool intArgs) {
    std::string key = name + "/" + std::to_string(arity);
    auto it = funcs.find(key);
    if (it != funcs.end())
      return it->second;
    z3::sort_vector dom(ctx);
    for (unsigned i = 0; i < arity; ++i)
      dom.push_back(intArgs ? ctx.int_sort() : ctx.real_sort());
    z3::func_decl f = ctx.function(name.c_str(), dom, ctx.real_sort());
    funcs.emplace(key, f);
    return f;
  }

  z3::expr atom(const AtomRef &a) {
    auto it = atoms.find(a->key);
    if (it != atoms.end())
      return it->second;
    z3::expr e = ctx.real_val(0);
    switch (a->kind) {
    case Atom::Leaf: {
      z3::expr_vector args(ctx);
      for (const Lin &l : a->idx)
        args.push_back(lin(l));
      e = func("t_" + a->name, a->idx.size(), true)(args);
      break;
    }
    case Atom::Extent:
      e = z3::to_real(lin(a->ext));
      break;
    case Atom::Bind:
      e = ctx.real_const((a->name + "_" + std::to_string(counter++)).c_str());
      break;
    case Atom::Recip: {
      z3::expr d = poly(a->args[0]);
      hyps.push_back(d != ctx.real_val(0));
      divisor = true;
      e = ctx.real_val(1) / d;
      break;
    }
    case Atom::Fn: {
      z3::expr_vector args(ctx);
      for (const Poly &p : a->args)
        args.push_back(poly(p));
      if ((a->name == "max" || a->name == "min") && args.size() == 2) {
        e = a->name == "max" ? z3::ite(args[0] >= args[1], args[0], args[1])
                             : z3::ite(args[0] <= args[1], args[0], args[1]);
      } else {
        e = func("f_" + a->name, args.size(), false)(args);
        if (a->name == "exp") {
          hyps.push_back(e > ctx.real_val(0));
          expPos = true;
        }
      }
      break;
    }
    }
    atoms.emplace(a->key, e);
    return e;
  }

  z3::expr poly(const Poly &p) {
    z3::expr sum = ctx.real_val(0);
    for (const Mono &m : p.terms) {
      z3::expr num = rat(m.c), den = ctx.real_val(1);
      bool hasDen = false;
      for (const auto &[a, e] : m.f) {
        z3::expr x = atom(a);
        for (int i = 0; i < (e < 0 ? -e : e); ++i)
          (e < 0 ? den : num) = (e < 0 ? den : num) * x;
        if (e < 0) {
          hyps.push_back(x != ctx.real_val(0));
          divisor = true;
          hasDen = true;
        }
      }
      sum = sum + (hasDen ? num / den : num);
    }
    return sum;
  }

  z3::expr tree(const TreeRef &t) {
    if (t->leaf)
      return poly(t->p);
    return z3::ite(lin(t->cond) < 0, tree(t->t), tree(t->f));
  }
};

Solver::Solver(unsigned timeoutMs) : impl(std::make_unique<Impl>(timeoutMs)) {}
Solver::~Solver() = default;

SolverVerdict Solver::check(const SolverQuery &q, std::string &reason) {
  try {
    Impl &s = *impl;
    s.solver.reset();
    s.model.reset();
    s.hyps.clear();
    s.atoms.clear();
    s.divisor = s.expPos = false;
    z3::expr lhs = s.tree(q.lhs), rhs = s.tree(q.rhs);
    for (const Lin &l : q.positive)
      s.solver.add(s.lin(l) > 0);
    for (const Lin &l : q.zero)
      s.solver.add(s.lin(l) == 0);
    for (const auto &[i, n] : q.index) {
      s.solver.add(s.intSym(i) >= 0);
      s.solver.add(s.intSym(i) < s.lin(n));
    }
    for (const z3::expr &h : s.hyps)
      s.solver.add(h);
    z3::check_result hypsOnly = s.solver.check();
    if (hypsOnly == z3::unsat)
      return SolverVerdict::Vacuous;
    s.solver.add(lhs != rhs);
    z3::check_result r = s.solver.check();
    if (r == z3::unsat)
      return SolverVerdict::Equal;
    if (r == z3::unknown) {
      reason = s.solver.reason_unknown();
      return SolverVerdict::Unknown;
    }
    s.model = s.solver.get_model();
    // Prefer a small model for the counterexample.
    s.solver.push();
    for (const std::string &e : q.extents)
      s.solver.add(s.intSym(e) <= 4);
    if (s.solver.check() == z3::sat)
      s.model = s.solver.get_model();
    s.solver.pop();
    return SolverVerdict::Differ;
  } catch (const z3::exception &e) {
    reason = std::string("z3: ") + e.msg();
    return SolverVerdict::Unknown;
  }
}

std::optional<int64_t> Solver::intValue(const std::string &symbol) {
  try {
    if (!impl->model)
      return std::nullopt;
    z3::expr v = impl->model->eval(impl->intSym(symbol), true);
    int64_t out;
    if (v.is_numeral_i64(out))
      return out;
  } catch (const z3::exception &) {
  }
  return std::nullopt;
}

std::optional<double> Solver::elementValue(const std::string &tile,
                                           const std::vector<int64_t> &idx) {
  try {
    if (!impl->model)
      return std::nullopt;
    auto it = impl->funcs.find("t_" + tile + "/" + std::to_string(idx.size()));
    if (it == impl->funcs.end())
      return std::nullopt;
    z3::expr_vector args(impl->ctx);
    for (int64_t i : idx)
      args.push_back(impl->ctx.int_val(i));
    z3::expr v = impl->model->eval(it->second(args), true);
    if (!v.is_numeral())
      return std::nullopt;
    return std::stod(v.get_decimal_string(12));
  } catch (const z3::exception &) {
  } catch (...) {
  }
  return std::nullopt;
}

bool Solver::usedDivisorHypothesis() const { return impl->divisor; }
bool Solver::usedExpPositivity() const { return impl->expPos; }
