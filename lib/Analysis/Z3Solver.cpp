//===- Z3Solver.cpp - Access-pair questions posed to Z3 -------------------===//
//
// The only translation unit that talks to Z3. Z3's C++ API reports errors by
// throwing, so this file is built with exceptions (and RTTI) and catches
// everything: callers see an Unknown answer with the reason.
//
// Encoding (all integer linear arithmetic): each variable instance is
// `start + i * step` with iteration index `i >= 0`, below `end`; a symbolic
// step `c * s` is one implication per admissible value of `s`. Each access
// dimension selects an interval; a shared element is one coordinate per
// dimension inside both intervals (same tensor), or two coordinates whose
// byte ranges in one row-major buffer overlap (tensors that may alias).
//
//===----------------------------------------------------------------------===//

#include "SolverProblem.h"

#include <z3++.h>


using namespace mlir::tileir::solver;

struct Backend::Impl {
  z3::context ctx;
  /// One solver reused across questions (push / pop).
  z3::solver solver{ctx, "QF_LIA"};
  unsigned timeoutMs = 0;
};

Backend::Backend() : impl(std::make_unique<Impl>()) {}
Backend::~Backend() = default;

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

namespace {
/// Builds the constraints of one problem into a solver.
class Encoder {
public:
  Encoder(z3::context &c, z3::solver &s, const Problem &p) : c(c), s(s), p(p) {
    for (size_t k = 0; k < p.symbols.size(); ++k) {
      z3::expr sym = c.int_const(("size_" + p.symbols[k].name).c_str());
      z3::expr_vector choices(c);
      for (int64_t v : p.symbols[k].values)
        choices.push_back(sym == c.int_val(v));
      s.add(choices.empty() ? c.bool_val(false) : z3::mk_or(choices));
      syms.push_back(sym);
    }
    for (size_t k = 0; k < p.vars.size(); ++k) {
      const Var &v = p.vars[k];
      std::string base = v.name + "#" + std::to_string(k);
      z3::expr val = c.int_const(base.c_str());
      z3::expr it = c.int_const((base + "_it").c_str());
      s.add(it >= 0 && val < c.int_val(v.end));
      if (v.symbol < 0) {
        s.add(val == c.int_val(v.start) + c.int_val(v.stepCoeff) * it);
      } else {
        for (int64_t d : p.symbols[v.symbol].values)
          s.add(z3::implies(
              syms[v.symbol] == c.int_val(d),
              val == c.int_val(v.start) + c.int_val(v.stepCoeff * d) * it));
      }
      vals.push_back(val);
      iters.push_back(it);
    }
  }

  /// The coordinates of an element `a` touches, one per dimension.
  std::vector<z3::expr> coordinates(const Access &a, const char *tag) {
    std::vector<z3::expr> coords;
    for (size_t d = 0; d < a.dims.size(); ++d) {
      const Dim &dim = a.dims[d];
      z3::expr e = c.int_const(
          (std::string("elem_") + tag + "_" + std::to_string(d)).c_str());
      int64_t extent = d < a.shape.size() ? a.shape[d] : 0;
      s.add(e >= 0 && e < c.int_val(extent));
      switch (dim.kind) {
      case Dim::Full:
        break;
      case Dim::Const:
        s.add(e >= c.int_val(dim.base) && e < c.int_val(dim.base + dim.size));
        break;
      case Dim::Tile:
        s.add(e >= vals[dim.var] && e < vals[dim.var] + step(dim.var));
        break;
      case Dim::Elem:
        s.add(e == elemIndex(dim.var));
        break;
      }
      coords.push_back(e);
    }
    return coords;
  }

  /// Byte offset of `coords` in `a`'s row-major layout.
  z3::expr byteOffset(const Access &a, const std::vector<z3::expr> &coords) {
    z3::expr off = c.int_val(0);
    int64_t stride = a.elementBytes;
    for (size_t d = coords.size(); d-- > 0;) {
      off = off + coords[d] * c.int_val(stride);
      stride *= d < a.shape.size() ? a.shape[d] : 1;
    }
    return off;
  }

  z3::expr iteration(int var) { return iters[var]; }
  int64_t valueOf(const z3::model &m, const z3::expr &e) {
    return m.eval(e, true).get_numeral_int64();
  }
  const std::vector<z3::expr> &varValues() const { return vals; }
  const std::vector<z3::expr> &symbolValues() const { return syms; }

private:
  z3::expr step(int var) {
    const Var &v = p.vars[var];
    if (v.symbol < 0)
      return c.int_val(v.stepCoeff);
    return c.int_val(v.stepCoeff) * syms[v.symbol];
  }
  /// `tile.elem v` selects element `v / step`.
  z3::expr elemIndex(int var) {
    const Var &v = p.vars[var];
    if (v.symbol < 0)
      return c.int_val(floorDiv(v.start, v.stepCoeff)) + iters[var];
    z3::expr e = c.int_const(("elemof_" + std::to_string(var)).c_str());
    for (int64_t d : p.symbols[v.symbol].values)
      s.add(z3::implies(syms[v.symbol] == c.int_val(d),
                        e == c.int_val(floorDiv(v.start, v.stepCoeff * d)) +
                                 iters[var]));
    return e;
  }

  z3::context &c;
  z3::solver &s;
  const Problem &p;
  std::vector<z3::expr> syms, vals, iters;
};
} // namespace

Answer Backend::solve(const Problem &p, unsigned timeoutMs) {
  Answer answer;
  try {
    z3::context &c = impl->ctx;
    z3::solver &s = impl->solver;
    if (impl->timeoutMs != timeoutMs) {
      z3::params params(c);
      params.set("timeout", timeoutMs);
      // The older simplex-based arithmetic: about 1.5x faster than Z3
      // 4.8's default on these small problems (saturation's legality
      // questions, measured on the LLaMA workloads).
      params.set("arith.solver", 2u);
      s.set(params);
      impl->timeoutMs = timeoutMs;
    }
    s.push();
    struct PopOnExit {
      z3::solver &s;
      ~PopOnExit() {
        try {
          s.pop();
        } catch (...) {
        }
      }
    } popOnExit{s};
    Encoder enc(c, s, p);
    std::vector<z3::expr> a = enc.coordinates(p.first, "a");
    std::vector<z3::expr> b = enc.coordinates(p.second, "b");
    if (p.first.tensor == p.second.tensor) {
      if (a.size() != b.size()) {
        answer.reason = "accesses of different rank to one tensor";
        return answer;
      }
      for (size_t d = 0; d < a.size(); ++d)
        s.add(a[d] == b[d]);
    } else {
      z3::expr offA = enc.byteOffset(p.first, a);
      z3::expr offB = enc.byteOffset(p.second, b);
      s.add(offA < offB + c.int_val(p.second.elementBytes) &&
            offB < offA + c.int_val(p.first.elementBytes));
    }
    if (p.order)
      s.add(enc.iteration(p.order->first) > enc.iteration(p.order->second));
    switch (s.check()) {
    case z3::unsat:
      answer.status = Answer::Unsat;
      return answer;
    case z3::sat: {
      answer.status = Answer::Sat;
      z3::model m = s.get_model();
      for (const z3::expr &v : enc.varValues())
        answer.varValues.push_back(enc.valueOf(m, v));
      for (const z3::expr &v : enc.symbolValues())
        answer.symbolValues.push_back(enc.valueOf(m, v));
      for (const z3::expr &e : a)
        answer.element.push_back(enc.valueOf(m, e));
      return answer;
    }
    case z3::unknown:
      answer.reason = s.reason_unknown();
      answer.status = answer.reason.find("timeout") != std::string::npos ||
                              answer.reason.find("canceled") !=
                                  std::string::npos
                          ? Answer::Timeout
                          : Answer::Unknown;
      return answer;
    }
  } catch (const z3::exception &e) {
    answer.status = Answer::Unknown;
    answer.reason = e.msg();
  } catch (...) {
    answer.status = Answer::Unknown;
    answer.reason = "unexpected error in the solver";
  }
  return answer;
}
