//===- InterpreterTestUtil.h - Fixture for the interpreter tests -*- C++
//-*-===//
//
// Parses tile programs from strings, makes their tensors, runs them through
// interpretTileProgram and records the diagnostics they emit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_UNITTESTS_INTERPRETER_INTERPRETERTESTUTIL_H
#define TILEDIALECT_UNITTESTS_INTERPRETER_INTERPRETERTESTUTIL_H

#include "TileDialect/Interpreter/TileInterpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <map>

namespace mlir::tileir {

class InterpreterTest : public ::testing::Test {
public:
  InterpreterTest() { context.loadDialect<TileDialect>(); }

  /// Parses and verifies `source`, which holds one tile.program; returns
  /// null (and fails the test) on an error.
  ProgramOp parse(llvm::StringRef source) {
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ParserConfig(&context));
    EXPECT_TRUE(module) << errors;
    if (!module)
      return {};
    auto programs = module->getBody()->getOps<ProgramOp>();
    EXPECT_FALSE(programs.empty());
    if (programs.empty())
      return {};
    ProgramOp program = *programs.begin();
    modules.push_back(std::move(module));
    return program;
  }

  /// Zero-filled tensors with the names, shapes and element types of the
  /// program's tensor arguments.
  static std::vector<HostTensor> makeTensors(ProgramOp program) {
    std::vector<HostTensor> tensors;
    for (BlockArgument arg : program.getBodyBlock().getArguments()) {
      auto type = cast<TensorRefType>(arg.getType());
      std::string element;
      llvm::raw_string_ostream os(element);
      os << type.getElementType();
      tensors.emplace_back(program.getTensorName(arg.getArgNumber()).str(),
                           std::vector<int64_t>(type.getShape()),
                           *parseElementKind(element));
    }
    return tensors;
  }

  /// The tensor called `name`.
  static HostTensor &get(std::vector<HostTensor> &tensors,
                         llvm::StringRef name) {
    for (HostTensor &tensor : tensors)
      if (tensor.name == name)
        return tensor;
    ADD_FAILURE() << "no tensor " << name.str();
    static HostTensor none;
    return none;
  }

  /// Interprets `program`; the diagnostics (with their notes) go to
  /// `diagnostics`, one per line.
  LogicalResult run(ProgramOp program, std::vector<HostTensor> &tensors,
                    Precision precision = Precision::F64,
                    llvm::StringMap<int64_t> sizes = {}) {
    diagnostics.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      for (Diagnostic &note : diag.getNotes())
        diagnostics += "note: " + note.str() + "\n";
      return success();
    });
    TileInterpreterOptions options;
    options.precision = precision;
    options.tileSizes = std::move(sizes);
    return interpretTileProgram(program, tensors, options);
  }

  /// Parses `source`, fills the named inputs, runs it and returns the data
  /// of tensor `output` (empty on failure).
  std::vector<double>
  runProgram(llvm::StringRef source,
             const std::map<std::string, std::vector<double>> &inputs,
             Precision precision = Precision::F64,
             llvm::StringMap<int64_t> sizes = {},
             llvm::StringRef output = "O") {
    ProgramOp program = parse(source);
    if (!program)
      return {};
    std::vector<HostTensor> tensors = makeTensors(program);
    for (const auto &[name, data] : inputs) {
      HostTensor &tensor = get(tensors, name);
      EXPECT_EQ(tensor.data.size(), data.size()) << name;
      tensor.data = data;
    }
    if (failed(run(program, tensors, precision, std::move(sizes)))) {
      ADD_FAILURE() << diagnostics;
      return {};
    }
    return get(tensors, output).data;
  }

  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::string diagnostics;
};

/// Expects `actual` to equal `expected` element by element, within `tol`
/// (relative to max(1, |expected|)).
inline void expectNear(const std::vector<double> &actual,
                       const std::vector<double> &expected,
                       double tol = 1e-12) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i],
                tol * std::max(1.0, std::fabs(expected[i])))
        << "at element " << i;
}

} // namespace mlir::tileir

#endif // TILEDIALECT_UNITTESTS_INTERPRETER_INTERPRETERTESTUTIL_H
