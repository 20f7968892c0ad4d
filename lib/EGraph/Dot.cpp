//===- Dot.cpp - Graphviz output of an e-graph ----------------------------===//
//
// One cluster per e-class, one box per e-node named `<class>.<index>`, and an
// edge from each node to the first node of each child class, clipped at the
// child's cluster (`compound=true`, `lhead`).
//
//===----------------------------------------------------------------------===//

#include "TileDialect/EGraph/EGraph.h"

using namespace mlir::tileir::egraph;

namespace {
/// Writes `text` as the contents of a DOT double-quoted string.
void writeEscaped(llvm::raw_ostream &os, llvm::StringRef text) {
  for (char c : text) {
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      break;
    default:
      os << c;
    }
  }
}
} // namespace

void EGraph::writeDot(
    llvm::raw_ostream &os,
    llvm::function_ref<std::string(const ENode &)> label) const {
  os << "digraph egraph {\n"
     << "  compound=true\n"
     << "  clusterrank=local\n";
  std::vector<Id> ids = classIds();
  for (Id id : ids) {
    const EClass &cls = getClass(id);
    os << "  subgraph cluster_" << id << " {\n"
       << "    style=dotted\n"
       << "    label=\"e" << id << "\"\n";
    for (size_t i = 0, e = cls.nodes.size(); i != e; ++i) {
      os << "    \"" << id << '.' << i << "\" [shape=box, label=\"";
      writeEscaped(os, label(cls.nodes[i]));
      os << "\"]\n";
    }
    os << "  }\n";
  }
  for (Id id : ids) {
    const EClass &cls = getClass(id);
    for (size_t i = 0, e = cls.nodes.size(); i != e; ++i) {
      const ENode &node = cls.nodes[i];
      for (size_t c = 0, ce = node.children.size(); c != ce; ++c) {
        Id child = find(node.children[c]);
        os << "  \"" << id << '.' << i << "\" -> \"" << child << ".0\" [";
        // An edge into the node's own cluster cannot be clipped at it.
        if (child != id)
          os << "lhead=cluster_" << child << ", ";
        os << "label=\"" << c << "\"]\n";
      }
    }
  }
  os << "}\n";
}
