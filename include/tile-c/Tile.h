/*===-- tile-c/Tile.h - C API of tile-opt ------------------------*- C -*-===*\
|*                                                                            *|
|* The tile dialect, passes and pipelines for programs that drive MLIR        *|
|* through its C API (mlir-c): register them into an MlirDialectRegistry and  *|
|* the global pass registry, then run textual pipelines on an MlirModule,     *|
|* with the diagnostics handed to the caller. docs/Ecosystem.md has an        *|
|* example; test/CAPI/tile-capi.c exercises every function.                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_TILE_H
#define TILE_C_TILE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__tile__(): the tile dialect alone. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

/* Adds the tile dialect and every dialect and interface its pipelines use,
 * from linalg in to NVVM / ROCDL device binaries out (what tile-opt
 * registers). */
MLIR_CAPI_EXPORTED void tileRegisterAllDialects(MlirDialectRegistry registry);

/* Registers the tile passes and pipelines (--tile-lower-to-nvvm,
 * --tile-lower-to-rocdl) and the upstream passes they use, so that
 * mlirParsePassPipeline and tileRunPassPipeline know them. Idempotent. */
MLIR_CAPI_EXPORTED void tileRegisterAllPasses(void);

/* Registers the tile passes and pipelines alone. Idempotent. */
MLIR_CAPI_EXPORTED void tileRegisterPasses(void);

/* Parses `pipeline`, a textual pass pipeline on the module
 * ("convert-linalg-to-tile,tile-optimize{top-k=2}" or
 * "builtin.module(...)"), and runs it on `module`. Every diagnostic the
 * parse or the passes emit (errors, warnings, remarks) goes to `callback`,
 * when given, as one line ("error: ..."), with `userData`. Returns failure if
 * the pipeline does not parse or a pass fails; the module may then be
 * partially transformed. Never aborts on bad input. */
MLIR_CAPI_EXPORTED MlirLogicalResult
tileRunPassPipeline(MlirModule module, MlirStringRef pipeline,
                    MlirStringCallback callback, void *userData);

/* The project's version and git revision, "0.2.0 (git 3b63af70c1d2)". */
MLIR_CAPI_EXPORTED MlirStringRef tileGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_TILE_H */
