//===- RealExprTest.cpp - The prover's normal form ------------------------===//

#include "TileDialect/Prover/RealExpr.h"

#include "gtest/gtest.h"

using namespace mlir::tileir::prover;

namespace {

Lin v(const std::string &name) { return Lin::var(name); }

/// (a @ b)[i, j] at a fresh bound index, over extent n.
TreeRef matmulAt(Normalizer &n, const std::string &a, const std::string &b,
                 Lin i, Lin j, Lin len) {
  std::string k = n.fresh();
  return n.bind("sum", k, len,
                n.mul(n.element(a, {i, v(k)}), n.element(b, {v(k), j})));
}

TEST(RealExprTest, RingLawsNormalize) {
  Normalizer n;
  TreeRef a = n.element("a", {v("i0")}), b = n.element("b", {v("i0")}),
          c = n.element("c", {v("i0")});
  EXPECT_EQ(n.mul(a, n.add(b, c))->str(),
            n.add(n.mul(a, b), n.mul(c, a))->str());
  EXPECT_NE(n.sub(a, b)->str(), n.sub(b, a)->str());
}

TEST(RealExprTest, NestedSumsAreNamedUpToExchange) {
  // ((a @ b) @ c)[i, j] and (a @ (b @ c))[i, j] give the same sum atom.
  Normalizer n;
  Lin i = v("i0"), j = v("i1"), ka = v("n_a1"), kb = v("n_b1");
  std::string l = n.fresh();
  TreeRef left = n.bind(
      "sum", l, kb,
      n.mul(matmulAt(n, "a", "b", i, v(l), ka), n.element("c", {v(l), j})));
  std::string k = n.fresh();
  TreeRef right = n.bind(
      "sum", k, ka,
      n.mul(n.element("a", {i, v(k)}), matmulAt(n, "b", "c", v(k), j, kb)));
  EXPECT_EQ(left->str(), right->str());
  EXPECT_TRUE(n.axiomsUsed().count("sum exchange"));
}

TEST(RealExprTest, SumSplitsAtAConcatBoundary) {
  // Σ_{k < p+q} ite(k < p, a[k], c[k - p]) = Σ_{k < p} a[k] + Σ_{k < q} c[k]
  Normalizer n;
  Lin p = v("n_p"), q = v("n_q");
  std::string k = n.fresh();
  TreeRef body =
      n.ite(v(k) - p, n.element("a", {v(k)}), n.element("c", {v(k) - p}));
  TreeRef whole = n.bind("sum", k, p + q, body);
  std::string k1 = n.fresh(), k2 = n.fresh();
  TreeRef parts = n.add(n.bind("sum", k1, p, n.element("a", {v(k1)})),
                        n.bind("sum", k2, q, n.element("c", {v(k2)})));
  EXPECT_EQ(whole->str(), parts->str());
}

TEST(RealExprTest, ExpIdentities) {
  Normalizer n;
  TreeRef a = n.element("a", {}), b = n.element("b", {});
  EXPECT_EQ(n.fn("exp", {n.add(a, b)})->str(),
            n.mul(n.fn("exp", {a}), n.fn("exp", {b}))->str());
  EXPECT_EQ(n.fn("exp", {n.sub(a, b)})->str(),
            n.mul(n.fn("exp", {a}), n.recip(n.fn("exp", {b})))->str());
  EXPECT_EQ(n.fn("exp", {n.cst(Rat(0))})->str(), "1");
  EXPECT_NE(n.fn("exp", {n.add(a, b)})->str(),
            n.add(n.fn("exp", {a}), n.fn("exp", {b}))->str());
}

TEST(RealExprTest, ExactModeKeepsTheOperations) {
  Normalizer n(/*exact=*/true);
  TreeRef a = n.element("a", {}), b = n.element("b", {}),
          c = n.element("c", {});
  EXPECT_EQ(n.add(a, b)->str(), n.add(b, a)->str());
  EXPECT_NE(n.add(n.add(a, b), c)->str(), n.add(a, n.add(b, c))->str());
  EXPECT_EQ(n.mul(a, n.cst(Rat(1)))->str(), a->str());
}

} // namespace
