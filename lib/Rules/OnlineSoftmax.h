//===- OnlineSoftmax.h - Natives of the online-softmax rules ----*- C++ -*-===//
//
// The guard and the computed rewrite of the online-softmax rules
// (OnlineSoftmax.pdll): a running-max loop fused with the loop of
// accumulations that read the max, repaired by exp(M_old - M_new).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_RULES_ONLINESOFTMAX_H
#define TILEDIALECT_LIB_RULES_ONLINESOFTMAX_H

#include "TileDialect/Rules/Natives.h"

namespace mlir::tileir {

/// Adds OnlineSoftmaxLegal and OnlineSoftmaxFuse.
void registerOnlineSoftmaxNatives(NativeRegistry &registry);

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_RULES_ONLINESOFTMAX_H
