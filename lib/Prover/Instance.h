//===- Instance.h - A rule at one rank and attribute choice -----*- C++ -*-===//
//
// Internal to the prover: a rule elaborated at a given root rank and values
// of its attribute variables. Ranks are inferred from the root, shapes are
// symbolic extents (linear expressions over `n_...` symbols), the matched
// term's typing and the guards give linear equalities that are solved into
// a canonical substitution, and the replacement's typing is checked
// against it. Both sides can then be evaluated at an index point, either
// symbolically (normal form) or concretely (to confirm a counterexample).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_PROVER_INSTANCE_H
#define TILEDIALECT_PROVER_INSTANCE_H

#include "TileDialect/Prover/RealExpr.h"
#include "TileDialect/Prover/RuleTerm.h"

#include <map>
#include <optional>

namespace mlir::tileir::prover {

/// An attribute's value in an instance.
struct AttrVal {
  enum Kind { None, Int, Array, Float };
  Kind kind = None;
  int64_t i = 0;
  std::vector<int64_t> arr;
  double f = 0;
  std::string str() const;
};

AttrVal attrValOf(Attribute a);

class Instance {
public:
  Instance(const RuleTerm &rule, unsigned rank, std::vector<AttrVal> attrs);

  /// Elaborates; false if no well-shaped match exists for this choice.
  bool elaborate();
  /// Set after elaborate(): the replacement is ill-shaped.
  const std::string &rhsError() const { return rhsErr; }
  /// A description of the choice (`rank 2, axis = 1`).
  std::string describe() const;

  /// The canonical form of an extent expression.
  Lin canon(const Lin &l) const;
  std::vector<Lin> shapeOf(unsigned node) const;
  unsigned rank() const { return rootRank; }

  /// Symbolic value of a side at the index point i0, i1, ...
  TreeRef evaluate(Normalizer &norm, unsigned node) const;

  /// Hypotheses for the solver: extents positive, leftover equalities.
  std::vector<Lin> positiveHyps() const;
  const std::vector<Lin> &residual() const { return residualEqs; }
  std::vector<std::string> freeSymbols() const;

  /// A value node's splat constant (IsSplat), if any.
  std::optional<double> constantOf(unsigned node) const {
    return constVal[node];
  }
  const RuleTerm &getRule() const { return rule; }
  const AttrVal &attr(unsigned node, const std::string &name) const;

private:
  bool assignRank(unsigned node, int r);
  bool computeShape(unsigned node);
  void equate(bool rhs, const Lin &a, const Lin &b, const std::string &what);
  bool applyConstraints();
  bool solve();
  Lin freshSymbol(const std::string &base);
  TreeRef eval(Normalizer &norm, unsigned node, std::vector<Lin> idx) const;

  const RuleTerm &rule;
  unsigned rootRank;
  std::vector<AttrVal> attrs;
  std::vector<int> ranks;
  std::vector<std::optional<std::vector<Lin>>> shapes;
  std::vector<std::optional<double>> constVal;
  std::vector<std::pair<Lin, Lin>> hyps;
  std::vector<std::tuple<Lin, Lin, std::string>> obligations;
  std::vector<std::string> symbols; ///< in creation order
  std::map<std::string, Lin> solution;
  std::vector<Lin> residualEqs;
  std::string rhsErr;
};

/// Looks for a concrete counterexample at the extents and element values of
/// the solver's model (`model` gives them), then at seeded random values.
/// Returns its description, or an empty string if none was found.
std::string findCounterexample(
    const Instance &inst,
    const std::function<std::optional<int64_t>(const std::string &)> &extent,
    const std::function<std::optional<double>(
        const std::string &, const std::vector<int64_t> &)> &element);

} // namespace mlir::tileir::prover

#endif // TILEDIALECT_PROVER_INSTANCE_H
