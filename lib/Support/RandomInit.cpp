//===- RandomInit.cpp - Seeded random inputs ------------------------------===//

#include "TileDialect/Support/RandomInit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

using namespace mlir::tileir;

uint64_t mlir::tileir::splitmix64(uint64_t &state) {
  state += 0x9E3779B97F4A7C15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Fewest element pairs worth a thread of their own.
static constexpr size_t kPairsPerThread = size_t(1) << 18;

/// A double in (0, 1) from the top 53 bits of a draw.
static double unitInterval(uint64_t &state) {
  return (static_cast<double>(splitmix64(state) >> 11) + 0.5) *
         0x1.0p-53;
}

/// A draw as an element of `kind`: rounded, and for i1 (a boolean mask)
/// true where the draw is positive, so that normal(0, 1) sets half the
/// elements (rounding would set every nonzero draw).
static double drawToElement(ElementKind kind, double v) {
  if (kind == ElementKind::I1)
    return v > 0.0 ? 1.0 : 0.0;
  return roundToElement(kind, v);
}

/// Fills the element pairs [firstPair, lastPair) of `tensor` from the
/// stream that starts at `start`. splitmix64's state advances by a constant
/// per draw, so pair p draws from the states start + (2p + 1) and
/// start + (2p + 2) increments: any range can be filled on its own.
static void fillPairs(HostTensor &tensor, uint64_t start, size_t firstPair,
                      size_t lastPair, const InitSpec &spec) {
  uint64_t state = start + 2 * uint64_t(firstPair) * 0x9E3779B97F4A7C15ull;
  size_t n = tensor.data.size();
  for (size_t p = firstPair; p < lastPair; ++p) {
    size_t i = 2 * p;
    double u1 = unitInterval(state), u2 = unitInterval(state);
    double v1, v2;
    if (spec.kind == InitSpec::Normal) {
      // Box-Muller: two normals from two uniforms.
      double r = std::sqrt(-2.0 * std::log(u1));
      double theta = 2.0 * M_PI * u2;
      v1 = spec.a + spec.b * r * std::cos(theta);
      v2 = spec.a + spec.b * r * std::sin(theta);
    } else {
      v1 = spec.a + (spec.b - spec.a) * u1;
      v2 = spec.a + (spec.b - spec.a) * u2;
    }
    tensor.data[i] = drawToElement(tensor.elementKind, v1);
    if (i + 1 < n)
      tensor.data[i + 1] = drawToElement(tensor.elementKind, v2);
  }
}

void mlir::tileir::fillRandom(HostTensor &tensor, uint64_t seed,
                              unsigned argIndex, const InitSpec &spec) {
  // One independent stream per argument: its start is a draw of the seed's
  // stream advanced by the argument index.
  uint64_t state = seed;
  uint64_t start = splitmix64(state) ^ (0xD1B54A32D192ED03ull * (argIndex + 1));
  size_t pairs = (tensor.data.size() + 1) / 2;
  // Large tensors (the decode weights: 10^8 elements, seconds on one core)
  // are filled in ranges on several threads, element for element the same.
  size_t threads =
      std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                       pairs / kPairsPerThread);
  if (threads <= 1)
    return fillPairs(tensor, start, 0, pairs, spec);
  std::vector<std::thread> workers;
  size_t per = (pairs + threads - 1) / threads;
  for (size_t t = 0; t < threads; ++t) {
    size_t first = t * per, last = std::min(pairs, first + per);
    if (first < last)
      workers.emplace_back(fillPairs, std::ref(tensor), start, first, last,
                           std::cref(spec));
  }
  for (std::thread &worker : workers)
    worker.join();
}

InitSpec mlir::tileir::defaultInitFor(const std::string &name) {
  auto normal = [](double mean, double stddev) {
    return InitSpec{InitSpec::Normal, mean, stddev};
  };
  if (!name.empty() && name[0] == 'W')
    return normal(0.0, 0.02);
  if (name == "Kc" || name == "K_cache")
    return normal(0.0, 0.3);
  if (name == "noise")
    return normal(0.0, 0.1);
  if (!name.empty() && name[0] == 'g' &&
      (name.size() == 1 || name == "gq" || name == "gk" || name == "gamma"))
    return normal(1.0, 0.1);
  return normal(0.0, 1.0);
}

std::optional<InitSpec> InitSpec::parse(const std::string &text) {
  InitSpec spec;
  std::string name;
  size_t open = text.find('(');
  size_t close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos ||
      close < open || close + 1 != text.size())
    return std::nullopt;
  name = text.substr(0, open);
  while (!name.empty() && name.back() == ' ')
    name.pop_back();
  if (name == "normal")
    spec.kind = Normal;
  else if (name == "uniform")
    spec.kind = Uniform;
  else
    return std::nullopt;
  std::string args = text.substr(open + 1, close - open - 1);
  size_t comma = args.find(',');
  if (comma == std::string::npos)
    return std::nullopt;
  char *end;
  std::string first = args.substr(0, comma), second = args.substr(comma + 1);
  spec.a = std::strtod(first.c_str(), &end);
  if (end == first.c_str() || *end != '\0')
    return std::nullopt;
  spec.b = std::strtod(second.c_str(), &end);
  if (end == second.c_str() || (*end != '\0' && *end != ' '))
    return std::nullopt;
  if (spec.kind == Normal ? spec.b < 0 : spec.b < spec.a)
    return std::nullopt;
  return spec;
}

std::string InitSpec::str() const {
  std::ostringstream os;
  os << (kind == Normal ? "normal(" : "uniform(") << a << ", " << b << ")";
  return os.str();
}
