//===- HostMemory.cpp - What the host can hold ----------------------------===//

#include "TileDialect/Support/HostMemory.h"

#include <cstdio>
#include <limits>
#include <unistd.h>

using namespace mlir::tileir;

static constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

uint64_t mlir::tileir::addBytes(uint64_t a, uint64_t b) {
  return a > kMax - b ? kMax : a + b;
}

uint64_t mlir::tileir::mulBytes(uint64_t a, uint64_t n) {
  return n != 0 && a > kMax / n ? kMax : a * n;
}

uint64_t mlir::tileir::hostTensorBytes(const std::vector<int64_t> &shape) {
  uint64_t bytes = sizeof(double);
  for (int64_t d : shape)
    bytes = mulBytes(bytes, d < 0 ? 0 : uint64_t(d));
  return bytes;
}

/// The machine's physical memory (16 GiB where the system does not say).
static uint64_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(16) << 30;
  return mulBytes(uint64_t(pages), uint64_t(pageSize));
}

uint64_t mlir::tileir::defaultHostMemoryLimit() {
  return physicalMemory() / 2;
}

std::string mlir::tileir::formatBytes(uint64_t bytes) {
  if (bytes == kMax)
    return "more than 16 EiB";
  char text[64];
  double gib = double(bytes) / double(uint64_t(1) << 30);
  if (gib >= 1)
    std::snprintf(text, sizeof(text), "%.1f GiB", gib);
  else
    std::snprintf(text, sizeof(text), "%.1f MiB",
                  double(bytes) / double(uint64_t(1) << 20));
  return text;
}

std::optional<std::string> mlir::tileir::exceedsHostMemory(uint64_t bytes,
                                                           uint64_t limit) {
  if (limit == 0)
    limit = defaultHostMemoryLimit();
  // A limit above the machine's memory would end in the allocator's abort.
  if (bytes > physicalMemory())
    return "needs " + formatBytes(bytes) + " of host memory, more than " +
           "this machine's " + formatBytes(physicalMemory());
  if (bytes <= limit)
    return std::nullopt;
  return "needs " + formatBytes(bytes) + " of host memory, more than the " +
         "limit of " + formatBytes(limit);
}
