//===- ReferenceTestSupport.h - Fixture for reference evaluator tests -----===//

#ifndef TILEDIALECT_UNITTESTS_REFERENCE_REFERENCETESTSUPPORT_H
#define TILEDIALECT_UNITTESTS_REFERENCE_REFERENCETESTSUPPORT_H

#include "TileDialect/Reference/LinalgInterpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <random>
#include <string>
#include <vector>

namespace mlir::tileir::testing {

/// A tensor of `kind` with the given shape and row-major data.
inline HostTensor makeTensor(std::vector<int64_t> shape,
                             std::vector<double> data,
                             ElementKind kind = ElementKind::F32) {
  HostTensor tensor("", std::move(shape), kind);
  EXPECT_EQ(static_cast<int64_t>(data.size()), tensor.numElements());
  tensor.data = std::move(data);
  return tensor;
}

/// A tensor of uniform random values in [-1, 1), rounded to `kind`.
inline HostTensor randomTensor(std::vector<int64_t> shape, unsigned seed,
                               ElementKind kind = ElementKind::F32) {
  HostTensor tensor("", std::move(shape), kind);
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double &value : tensor.data)
    value = roundToElement(kind, uniform(generator));
  return tensor;
}

/// Parses a module of linalg functions and evaluates one of them, recording
/// the messages of the diagnostics it emits.
class ReferenceTest : public ::testing::Test {
protected:
  ReferenceTest()
      : handler(&context, [this](Diagnostic &diagnostic) {
          diagnostics.push_back(diagnostic.str());
          return success();
        }) {
    context.loadDialect<func::FuncDialect, linalg::LinalgDialect,
                        tensor::TensorDialect, arith::ArithDialect,
                        math::MathDialect>();
  }

  /// Parses `source` and returns its function `name` (its first function
  /// when `name` is empty); null (with a test failure) if that fails.
  func::FuncOp parse(StringRef source, StringRef name = "") {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module) {
      ADD_FAILURE() << "cannot parse the test program: "
                    << (diagnostics.empty() ? "" : diagnostics.back());
      return nullptr;
    }
    for (auto func : module->getOps<func::FuncOp>())
      if (name.empty() || func.getSymName() == name)
        return func;
    ADD_FAILURE() << "no function " << name.str();
    return nullptr;
  }

  /// Evaluates the function of `source` on `args`.
  FailureOr<std::vector<HostTensor>> run(StringRef source,
                                         ArrayRef<HostTensor> args,
                                         Precision precision = Precision::F64,
                                         StringRef name = "") {
    func::FuncOp func = parse(source, name);
    if (!func)
      return failure();
    return interpretLinalgFunction(func, args, precision);
  }

  /// The single result of evaluating `source` on `args`, which must succeed.
  HostTensor runOne(StringRef source, ArrayRef<HostTensor> args,
                    Precision precision = Precision::F64) {
    FailureOr<std::vector<HostTensor>> results = run(source, args, precision);
    if (failed(results) || results->size() != 1) {
      ADD_FAILURE() << "evaluation failed: "
                    << (diagnostics.empty() ? "" : diagnostics.back());
      return HostTensor();
    }
    return std::move(results->front());
  }

  MLIRContext context;
  ScopedDiagnosticHandler handler;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> diagnostics;
};

/// Expects `actual` to have `shape`, `kind` and `expected` data to within
/// `tolerance` (absolute); infinities must match exactly.
inline void expectTensor(const HostTensor &actual,
                         const std::vector<int64_t> &shape,
                         const std::vector<double> &expected,
                         double tolerance = 0.0,
                         std::optional<ElementKind> kind = std::nullopt) {
  EXPECT_EQ(actual.shape, shape);
  if (kind)
    EXPECT_EQ(actual.elementKind, *kind);
  ASSERT_EQ(actual.data.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual.data[i] == expected[i]) // also equal infinities
      continue;
    EXPECT_NEAR(actual.data[i], expected[i], tolerance) << "at element " << i;
  }
}

} // namespace mlir::tileir::testing

#endif // TILEDIALECT_UNITTESTS_REFERENCE_REFERENCETESTSUPPORT_H
