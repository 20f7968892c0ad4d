//===- DotTest.cpp - Graphviz output --------------------------------------===//

#include "TestLanguage.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir::tileir::egraph;
using namespace mlir::tileir::egraph::test;

namespace {

TEST(DotTest, ClustersNodesAndEdges) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  Id s = add(g, a, b);
  std::string text;
  llvm::raw_string_ostream os(text);
  g.writeDot(os, label);
  EXPECT_NE(text.find("digraph"), std::string::npos);
  EXPECT_NE(text.find("compound=true"), std::string::npos);
  for (Id id : {a, b, s})
    EXPECT_NE(text.find("subgraph cluster_" + std::to_string(id)),
              std::string::npos);
  EXPECT_NE(text.find("label=\"x0\""), std::string::npos);
  EXPECT_NE(text.find("label=\"+\""), std::string::npos);
  std::string sa = "\"" + std::to_string(s) + ".0\" -> \"" +
                   std::to_string(a) + ".0\" [lhead=cluster_" +
                   std::to_string(a);
  std::string sb = "\"" + std::to_string(s) + ".0\" -> \"" +
                   std::to_string(b) + ".0\" [lhead=cluster_" +
                   std::to_string(b);
  EXPECT_NE(text.find(sa), std::string::npos) << text;
  EXPECT_NE(text.find(sb), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(DotTest, EscapesLabels) {
  EGraph g;
  var(g, 0);
  std::string text;
  llvm::raw_string_ostream os(text);
  g.writeDot(os, [](const ENode &) { return std::string("a\"b\\c\nd"); });
  EXPECT_NE(text.find("label=\"a\\\"b\\\\c\\nd\""), std::string::npos) << text;
}

TEST(DotTest, SelfLoopsHaveNoClusterClip) {
  EGraph g;
  Id a = var(g, 0);
  g.merge(a, f(g, a));
  g.rebuild();
  std::string text;
  llvm::raw_string_ostream os(text);
  g.writeDot(os, label);
  Id id = g.find(a);
  EXPECT_EQ(text.find("lhead=cluster_" + std::to_string(id)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-> \"" + std::to_string(id) + ".0\""),
            std::string::npos);
}

} // namespace
