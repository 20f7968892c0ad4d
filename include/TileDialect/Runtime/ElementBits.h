//===- ElementBits.h - Host doubles to device element bytes ---*- C++ -*-===//
//
// Converts between the host's doubles and the bytes of a device buffer:
// f16 and bf16 bit patterns (rounded to nearest even), f32, f64 and i1 (one
// byte, 0 or 1). Little-endian, as every supported GPU host is.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_ELEMENTBITS_H
#define TILEDIALECT_RUNTIME_ELEMENTBITS_H

#include "TileDialect/Support/HostTensor.h"

#include <cstdint>

namespace mlir::tileir::runtime {

/// IEEE binary16 bits of `value` rounded to nearest even; overflow gives
/// infinity, NaN gives a quiet NaN.
uint16_t toF16Bits(double value);
/// The exact value of binary16 bits.
double fromF16Bits(uint16_t bits);
/// bfloat16 bits of `value` rounded to nearest even.
uint16_t toBF16Bits(double value);
/// The exact value of bfloat16 bits.
double fromBF16Bits(uint16_t bits);

/// Writes `n` elements of `values` as `kind` into `bytes` (n * elementSize).
void encodeElements(ElementKind kind, const double *values, int64_t n,
                    void *bytes);
/// Reads `n` elements of `kind` from `bytes` into `values`, exactly.
void decodeElements(ElementKind kind, const void *bytes, int64_t n,
                    double *values);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_ELEMENTBITS_H
