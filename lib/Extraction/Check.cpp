//===- Check.cpp - Numerical check of a candidate against its input -------===//

#include "TileDialect/Extraction/Check.h"
#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/RandomInit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileir;

/// Fresh tensors for `program`: inputs and inout tensors filled from the
/// stream of their argument index, the rest zero.
static FailureOr<std::vector<HostTensor>> makeTensors(ProgramOp program,
                                                      uint64_t seed) {
  std::vector<HostTensor> tensors;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    std::optional<ElementKind> kind = elementKindOf(type.getElementType());
    if (!kind)
      return failure();
    std::string name = program.getTensorName(arg.getArgNumber()).str();
    HostTensor t(name,
                 std::vector<int64_t>(type.getShape().begin(),
                                      type.getShape().end()),
                 *kind);
    if (type.getRole() == TensorRole::Input ||
        type.getRole() == TensorRole::InOut)
      fillRandom(t, seed, arg.getArgNumber(), defaultInitFor(name));
    tensors.push_back(std::move(t));
  }
  return tensors;
}

static LogicalResult run(ProgramOp program, std::vector<HostTensor> &tensors) {
  TileInterpreterOptions options;
  options.precision = Precision::F64;
  options.tileSizes = chooseDefaultTileSizes(program);
  return interpretTileProgram(program, tensors, options);
}

CandidateChecker::CandidateChecker(ProgramOp reference, uint64_t seed,
                                   double tolerance)
    : reference(reference), seed(seed), tolerance(tolerance) {
  FailureOr<std::vector<HostTensor>> ref = makeTensors(reference, seed);
  if (failed(ref)) {
    error = "the input program has unsupported tensor types";
    return;
  }
  // Drawing the inputs costs more than copying them: keep one copy.
  initial = *ref;
  if (failed(run(reference, *ref))) {
    error = "the input program failed to run";
    return;
  }
  FailureOr<SmallVector<unsigned>> outs = getProgramOutputs(reference);
  if (failed(outs)) {
    error = "the input program names an unknown result tensor";
    return;
  }
  for (unsigned i : *outs)
    outputs.push_back(std::move((*ref)[i].data));
}

CheckResult CandidateChecker::check(ProgramOp candidate) const {
  CheckResult result;
  result.error = error;
  if (!error.empty())
    return result;
  // A candidate has the input's tensors (it is built from them); check.
  FailureOr<SmallVector<unsigned>> outs = getProgramOutputs(candidate);
  Block &block = candidate.getBodyBlock();
  bool same = succeeded(outs) && block.getNumArguments() == initial.size() &&
              outs->size() == outputs.size();
  for (unsigned i = 0; same && i < initial.size(); ++i) {
    auto type = cast<TensorRefType>(block.getArgument(i).getType());
    same = candidate.getTensorName(i) == initial[i].name &&
           llvm::equal(type.getShape(), initial[i].shape);
  }
  if (!same) {
    result.error = "the candidate's tensors differ from the input's";
    return result;
  }
  std::vector<HostTensor> cand = initial;
  if (failed(run(candidate, cand))) {
    result.error = "the candidate failed to run";
    return result;
  }
  double maxErr = 0, maxRef = 0;
  for (size_t o = 0; o < outs->size(); ++o) {
    const std::vector<double> &a = cand[(*outs)[o]].data, &b = outputs[o];
    if (a.size() != b.size()) {
      result.error = "the candidate's outputs have other shapes";
      return result;
    }
    for (size_t j = 0; j < b.size(); ++j) {
      double err = std::fabs(a[j] - b[j]);
      maxErr = std::isnan(err) ? INFINITY : std::max(maxErr, err);
      maxRef = std::max(maxRef, std::fabs(b[j]));
    }
  }
  result.maxRelError = maxRef > 0 ? maxErr / maxRef : maxErr;
  result.passed = result.maxRelError <= tolerance;
  return result;
}
