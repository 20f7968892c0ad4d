//===- Prover.cpp - Soundness proofs of value-level rewrite rules ---------===//

#include "TileDialect/Prover/Prover.h"
#include "Instance.h"
#include "TileDialect/Prover/Solver.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::tileir::prover;

llvm::StringRef mlir::tileir::prover::verdictName(Verdict v) {
  switch (v) {
  case Verdict::Proved:
    return "proved";
  case Verdict::Refuted:
    return "refuted";
  case Verdict::Unknown:
    return "unknown";
  case Verdict::Skipped:
    return "skipped";
  }
  return "?";
}

/// What kind of value an attribute variable holds, from its uses.
static std::string attrUse(const RuleTerm &rule, unsigned slot) {
  for (const TermNode &n : rule.nodes)
    for (const auto &[name, s] : n.attrs)
      if (s == slot)
        return name;
  for (const ConstraintUse &c : rule.constraints)
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i].kind == ConstraintUse::Arg::Attr &&
          c.args[i].index == slot) {
        if (c.name == "BroadcastsLastDim")
          return "dims";
        if (c.name == "Concatenable" || c.name == "RankIs")
          return "axis";
      }
  return "";
}

static std::vector<AttrVal> candidates(const RuleTerm &rule, unsigned slot,
                                       unsigned maxRank) {
  if (rule.attrs[slot].value)
    return {attrValOf(rule.attrs[slot].value)};
  std::string use = attrUse(rule, slot);
  std::vector<AttrVal> out;
  if (use == "axis" || use == "dim0" || use == "dim1") {
    for (unsigned i = 0; i <= maxRank; ++i) {
      AttrVal v;
      v.kind = AttrVal::Int;
      v.i = i;
      out.push_back(v);
    }
  } else if (use == "dims") {
    for (unsigned mask = 1; mask < (1u << maxRank); ++mask) {
      AttrVal v;
      v.kind = AttrVal::Array;
      for (unsigned d = 0; d < maxRank; ++d)
        if (mask & (1u << d))
          v.arr.push_back(d);
      out.push_back(v);
    }
  } else if (use == "permutation") {
    for (unsigned r = 1; r <= maxRank; ++r) {
      AttrVal v;
      v.kind = AttrVal::Array;
      v.arr.resize(r);
      std::iota(v.arr.begin(), v.arr.end(), 0);
      do
        out.push_back(v);
      while (std::next_permutation(v.arr.begin(), v.arr.end()));
    }
  } else {
    out.push_back(AttrVal()); // a symbolic value (splat constants)
  }
  return out;
}

RuleResult mlir::tileir::prover::proveRule(const RuleTerm &rule,
                                           const ProverOptions &options) {
  RuleResult res;
  res.name = rule.name;
  res.family = rule.family;
  if (rule.statement) {
    res.verdict = Verdict::Skipped;
    res.detail = "statement rule (legality is checked per application by "
                 "the dependence analysis)";
    return res;
  }
  std::vector<std::vector<AttrVal>> cands;
  size_t combos = 1;
  for (unsigned s = 0; s < rule.attrs.size(); ++s) {
    cands.push_back(candidates(rule, s, options.maxRank));
    combos *= cands.back().size();
  }
  if (combos > 20000) {
    res.detail = "too many attribute choices to enumerate";
    return res;
  }
  Solver solver(options.timeoutMs);
  std::set<std::string> axioms;
  std::string unknown;
  bool fpExact = true, divisorHyp = false, expHyp = false;
  for (unsigned r = 1; r <= options.maxRank; ++r) {
    for (size_t c = 0; c < combos; ++c) {
      std::vector<AttrVal> choice;
      size_t rest = c;
      for (const auto &cs : cands) {
        choice.push_back(cs[rest % cs.size()]);
        rest /= cs.size();
      }
      Instance inst(rule, r, choice);
      if (!inst.elaborate())
        continue;
      if (!inst.rhsError().empty()) {
        res.verdict = Verdict::Refuted;
        res.detail = "ill-shaped replacement at " + inst.describe() + ": " +
                     inst.rhsError();
        ++res.instances;
        return res;
      }
      Normalizer norm;
      SolverQuery q;
      q.lhs = inst.evaluate(norm, rule.lhsRoot);
      q.rhs = inst.evaluate(norm, rule.rhsRoot);
      q.positive = inst.positiveHyps();
      q.zero = inst.residual();
      std::vector<Lin> shape = inst.shapeOf(rule.lhsRoot);
      for (unsigned d = 0; d < r; ++d)
        q.index.push_back({"i" + std::to_string(d), shape[d]});
      q.extents = inst.freeSymbols();
      std::string reason;
      SolverVerdict v = solver.check(q, reason);
      if (v == SolverVerdict::Vacuous)
        continue;
      ++res.instances;
      axioms.insert(norm.axiomsUsed().begin(), norm.axiomsUsed().end());
      divisorHyp |= solver.usedDivisorHypothesis();
      expHyp |= solver.usedExpPositivity();
      if (v == SolverVerdict::Equal) {
        // Floating-point exactness: the same question without real laws.
        Normalizer exact(/*exact=*/true);
        q.lhs = inst.evaluate(exact, rule.lhsRoot);
        q.rhs = inst.evaluate(exact, rule.rhsRoot);
        std::string ignored;
        if (solver.check(q, ignored) != SolverVerdict::Equal)
          fpExact = false;
        continue;
      }
      if (v == SolverVerdict::Unknown) {
        unknown = "solver: " + reason + " (at " + inst.describe() + ")";
        continue;
      }
      std::string cex = findCounterexample(
          inst, [&](const std::string &s) { return solver.intValue(s); },
          [&](const std::string &t, const std::vector<int64_t> &idx) {
            return solver.elementValue(t, idx);
          });
      if (!cex.empty()) {
        res.verdict = Verdict::Refuted;
        res.detail = inst.describe() + ", " + cex;
        return res;
      }
      unknown = "not proved, and no concrete counterexample found at the "
                "solver's model (at " +
                inst.describe() + ")";
    }
  }
  res.fpExact = fpExact && res.instances;
  if (axioms.erase("divisors nonzero") || divisorHyp)
    res.assumptions.push_back("divisors nonzero");
  res.axioms.assign(axioms.begin(), axioms.end());
  if (expHyp)
    res.assumptions.push_back("exp(x) > 0");
  if (!unknown.empty()) {
    res.detail = unknown;
    return res;
  }
  if (!res.instances) {
    res.detail =
        "no well-shaped instance up to rank " + std::to_string(options.maxRank);
    return res;
  }
  res.verdict = Verdict::Proved;
  return res;
}
