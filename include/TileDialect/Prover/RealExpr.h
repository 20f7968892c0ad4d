//===- RealExpr.h - Normalized real expressions of the rule prover -*- C++
//-*-===//
//
// The value of a tile expression at one index point, as a real expression in
// a normal form: a decision tree over linear index conditions whose leaves
// are polynomials with rational coefficients over atoms (tile elements,
// extents, sums, function applications, reciprocals). The normalizer applies
// the axioms the prover relies on as rewrites (docs/Prover.md): ring laws,
// exp(a + b) = exp(a) exp(b), x / x = 1 for divisors (assumed nonzero),
// linearity of sums, exchange of nested sums, k-independent `ite` out of a
// sum, and splitting a sum at a concat boundary. A sum that is left is an
// atom named by its canonical body (bound indices renamed), so equal sums
// are one atom.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_PROVER_REALEXPR_H
#define TILEDIALECT_PROVER_REALEXPR_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mlir::tileir::prover {

/// An integer linear expression over named symbols: extents (`n_...`) and
/// index variables (`i0`, bound `k3`, canonical `$1_0`).
struct Lin {
  std::map<std::string, int64_t> coef;
  int64_t k = 0;

  static Lin var(const std::string &name, int64_t c = 1);
  static Lin cst(int64_t v);
  Lin operator+(const Lin &o) const;
  Lin operator-(const Lin &o) const;
  Lin scale(int64_t s) const;
  bool isConst() const { return coef.empty(); }
  int64_t coefOf(const std::string &name) const;
  bool mentions(const std::string &name) const { return coef.count(name); }
  /// Replaces `name` by `value`.
  Lin subst(const std::string &name, const Lin &value) const;
  /// Whether every symbol is an extent (all positive) and every coefficient
  /// and the constant are non-negative: the value is provably >= 0.
  bool provablyNonNegative() const;
  std::string str() const;
  bool operator==(const Lin &o) const { return coef == o.coef && k == o.k; }
  bool operator!=(const Lin &o) const { return !(*this == o); }
};

/// Whether a symbol names an extent (strictly positive integer).
bool isExtentSymbol(const std::string &name);

/// A rational number with 64-bit numerator and denominator.
struct Rat {
  int64_t n = 0, d = 1;
  Rat() = default;
  Rat(int64_t n, int64_t d = 1);
  static Rat fromDouble(double v);
  Rat operator+(const Rat &o) const;
  Rat operator*(const Rat &o) const;
  Rat neg() const { return Rat(-n, d); }
  Rat inv() const { return Rat(d, n); }
  bool isZero() const { return n == 0; }
  bool isInt() const { return d == 1; }
  bool operator==(const Rat &o) const { return n == o.n && d == o.d; }
  double toDouble() const { return double(n) / double(d); }
  std::string str() const;
};

struct Atom;
struct Tree;
using AtomRef = std::shared_ptr<const Atom>;
using TreeRef = std::shared_ptr<const Tree>;

/// c * product of atoms^exponent (atoms sorted by key, exponents nonzero).
struct Mono {
  Rat c = Rat(1);
  std::vector<std::pair<AtomRef, int>> f;
  /// The rendering of the factors alone (terms with equal keys merge).
  std::string factorKey() const;
};

/// A sum of monomials with distinct factor keys and nonzero coefficients.
struct Poly {
  std::vector<Mono> terms;
  static Poly cst(Rat c);
  static Poly atom(AtomRef a, int exponent = 1);
  bool isZero() const { return terms.empty(); }
  std::string str() const;
};

/// `cond < 0 ? t : f`, or a polynomial leaf.
struct Tree {
  bool leaf = true;
  Poly p;
  Lin cond;
  TreeRef t, f;
  std::string str() const;
};

struct Atom {
  enum Kind { Leaf, Extent, Bind, Fn, Recip };
  Kind kind;
  /// Leaf: the tile variable; Bind: `sum`, `rmax` or `rmin`; Fn: the
  /// function (`exp`, `log`, `max`, ...).
  std::string name;
  std::vector<Lin> idx;                            ///< Leaf
  Lin ext;                                         ///< Extent (as a real)
  std::vector<std::pair<std::string, Lin>> bounds; ///< Bind: var, length
  TreeRef body;                                    ///< Bind
  std::vector<Poly> args;                          ///< Fn, Recip (one)
  std::string key;
  std::set<std::string> freeVars;
  int height = 0; ///< binder nesting depth (names canonical bound indices)
};

/// Builds normal forms; records which axioms fired.
///
/// In exact mode no real-number law is applied: +, -, *, / and casts are
/// uninterpreted functions (+ and * commutative, with x+0, x*1, x/1),
/// exp and every reduction stay as they are; only data movement (indexing,
/// broadcast, concat) is evaluated. Two sides equal in exact mode compute
/// every element with the same floating-point operations.
class Normalizer {
public:
  explicit Normalizer(bool exact = false) : exact(exact) {}
  bool isExact() const { return exact; }

  // Trees.
  TreeRef leaf(Poly p);
  TreeRef cst(Rat c) { return leaf(Poly::cst(c)); }
  TreeRef element(const std::string &tile, std::vector<Lin> idx);
  TreeRef extent(const Lin &n);
  /// `cond < 0 ? t : f`, oriented canonically, pruned when decided.
  TreeRef ite(const Lin &cond, TreeRef t, TreeRef f);
  TreeRef add(TreeRef a, TreeRef b);
  TreeRef sub(TreeRef a, TreeRef b);
  TreeRef mul(TreeRef a, TreeRef b);
  TreeRef neg(TreeRef a);
  TreeRef div(TreeRef a, TreeRef b);
  /// 1 / a (the divisor is assumed nonzero).
  TreeRef recip(TreeRef a);
  /// A function application; `exp` is normalized by exp(a + b) =
  /// exp(a) exp(b) and exp(0) = 1; `max`/`min` are interpreted by Z3.
  TreeRef fn(const std::string &name, std::vector<TreeRef> args);
  /// `op` (sum, rmax, rmin) over var in [0, len).
  TreeRef bind(const std::string &op, const std::string &var, const Lin &len,
               TreeRef body);
  /// Substitutes an index variable.
  TreeRef subst(TreeRef t, const std::string &var, const Lin &value);

  /// A fresh bound index name.
  std::string fresh();

  /// Axioms used so far (names as in docs/Prover.md).
  const std::set<std::string> &axiomsUsed() const { return axioms; }
  void note(const std::string &axiom) { axioms.insert(axiom); }

  // Polynomial arithmetic.
  Poly padd(const Poly &a, const Poly &b);
  Poly pmul(const Poly &a, const Poly &b);
  Poly pscale(const Poly &a, Rat c);
  Poly precip(const Poly &a);
  Poly pexp(const Poly &a);

private:
  using Ctx = std::vector<std::pair<Lin, bool>>;
  TreeRef combine(TreeRef a, TreeRef b, bool isMul, Ctx &ctx);
  TreeRef prune(TreeRef t, Ctx &ctx);
  TreeRef mapLeaves(TreeRef t, const std::function<TreeRef(const Poly &)> &f);
  TreeRef sumTree(const std::string &var, const Lin &len, TreeRef body);
  Poly sumMono(const std::string &var, const Lin &len, const Mono &m);
  AtomRef makeBind(const std::string &op,
                   std::vector<std::pair<std::string, Lin>> bounds,
                   TreeRef body);
  AtomRef substAtom(const AtomRef &a, const std::string &var, const Lin &value);
  Poly substPoly(const Poly &p, const std::string &var, const Lin &value);
  AtomRef finish(Atom a);

  bool exact;
  std::set<std::string> axioms;
  unsigned counter = 0;
};

/// Collects the atoms of a tree (not inside binders).
void collectAtoms(const TreeRef &t, std::vector<AtomRef> &out);

} // namespace mlir::tileir::prover

#endif // TILEDIALECT_PROVER_REALEXPR_H
