//===- RandomInit.h - Seeded random inputs --------------------*- C++ -*-===//
//
// The documented generator of test inputs (docs/RandomInputs.md), so that
// every tool that fills a tensor from a seed fills it with the same values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SUPPORT_RANDOMINIT_H
#define TILEDIALECT_SUPPORT_RANDOMINIT_H

#include "TileDialect/Support/HostTensor.h"

#include <optional>
#include <string>

namespace mlir::tileir {

/// A distribution to draw tensor elements from.
struct InitSpec {
  enum Kind { Normal, Uniform } kind = Normal;
  /// Normal: mean and standard deviation; Uniform: lower and upper bound.
  double a = 0.0, b = 1.0;

  /// Parses `normal(MEAN, STDDEV)` or `uniform(LOW, HIGH)`.
  static std::optional<InitSpec> parse(const std::string &text);
  std::string str() const;
};

/// The distribution of docs/Workloads.md for an input of that name, used when
/// nothing declares one: weights (`W...`) normal(0, 0.02), the key cache
/// (`Kc`, `K_cache`) normal(0, 0.3), `noise` normal(0, 0.1), norm weights
/// (`g`, `gq`, `gk`, `g...`) normal(1, 0.1), anything else normal(0, 1).
InitSpec defaultInitFor(const std::string &name);

/// Fills `tensor` with draws from `spec`, from the stream of argument
/// `argIndex` under `seed`, each rounded to the tensor's element type.
void fillRandom(HostTensor &tensor, uint64_t seed, unsigned argIndex,
                const InitSpec &spec);

/// The splitmix64 step the generator is built on (exposed for tests).
uint64_t splitmix64(uint64_t &state);

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_RANDOMINIT_H
