//===- HostMemory.h - What the host can hold ------------------*- C++ -*-===//
//
// The interpreters, the linalg reference and the optimizer's check hold
// every tensor on the host as doubles. A program whose tensors need more
// memory than the machine has is refused with a message saying so, before
// anything is allocated (an allocation that fails aborts the process).
// No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SUPPORT_HOSTMEMORY_H
#define TILEDIALECT_SUPPORT_HOSTMEMORY_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir {

/// Bytes of a host tensor of `shape` (8 per element), saturating at
/// UINT64_MAX instead of overflowing.
uint64_t hostTensorBytes(const std::vector<int64_t> &shape);

/// a + b, saturating.
uint64_t addBytes(uint64_t a, uint64_t b);
/// a * n, saturating.
uint64_t mulBytes(uint64_t a, uint64_t n);

/// The default limit on what one run may hold: half the machine's physical
/// memory (8 GiB where it cannot be read).
uint64_t defaultHostMemoryLimit();

/// "12.5 GiB".
std::string formatBytes(uint64_t bytes);

/// Why `bytes` cannot be held under `limit` (0: the default limit) and in
/// the machine's physical memory, whatever the limit, or nothing if it can:
/// "needs 74.5 GiB of host memory, more than the limit of 11.7 GiB".
std::optional<std::string> exceedsHostMemory(uint64_t bytes,
                                             uint64_t limit = 0);

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_HOSTMEMORY_H
