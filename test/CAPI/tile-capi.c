/* The C API (include/tile-c/Tile.h) driven from C as a user's program would:
 * register, parse a linalg program, run the tile pipelines on it, read the
 * diagnostics, and fail cleanly on bad input.
 *
 * RUN: tile-capi-test 2>&1 | FileCheck %s
 */

#include "tile-c/Tile.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printLine(MlirStringRef text, void *userData) {
  const char *prefix = *(const char **)userData;
  fprintf(stdout, "%s%.*s\n", prefix, (int)text.length, text.data);
}

/* Row sums of a 4x8 matrix: small enough to optimize in well under a
 * second. */
static const char *kProgram =
    "func.func @rowsum(%x: tensor<4x8xf32>) -> tensor<4xf32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %init = tensor.empty() : tensor<4xf32>\n"
    "  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<4xf32>)"
    " -> tensor<4xf32>\n"
    "  %sum = linalg.reduce ins(%x : tensor<4x8xf32>)"
    " outs(%fill : tensor<4xf32>) dimensions = [1]\n"
    "    (%in: f32, %acc: f32) {\n"
    "      %r = arith.addf %in, %acc : f32\n"
    "      linalg.yield %r : f32\n"
    "    }\n"
    "  return %sum : tensor<4xf32>\n"
    "}\n";

static MlirModule parse(MlirContext ctx) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kProgram));
}

static int run(MlirModule module, const char *pipeline, const char *label) {
  MlirLogicalResult result =
      tileRunPassPipeline(module, mlirStringRefCreateFromCString(pipeline),
                          printLine, &label);
  return mlirLogicalResultIsSuccess(result);
}

int main(void) {
  MlirStringRef version = tileGetVersion();
  fprintf(stdout, "version: %.*s\n", (int)version.length, version.data);
  // CHECK: version: {{[0-9]+\.[0-9]+\.[0-9]+}}

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();
  tileRegisterAllPasses(); /* idempotent */

  MlirDialect tile = mlirContextGetOrLoadDialect(
      ctx, mlirStringRefCreateFromCString("tile"));
  fprintf(stdout, "tile dialect loaded: %d\n", !mlirDialectIsNull(tile));
  // CHECK: tile dialect loaded: 1

  /* linalg in, the naive tile program out. */
  MlirModule module = parse(ctx);
  if (mlirModuleIsNull(module))
    return 1;
  fprintf(stdout, "convert: %d\n",
          run(module, "convert-linalg-to-tile", "convert: "));
  // CHECK: convert: 1
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  // CHECK: tile.program @rowsum
  mlirModuleDestroy(module);

  /* The optimizer with its check, wrapped pipeline form; its remark comes
   * back through the callback. */
  module = parse(ctx);
  fprintf(stdout, "optimize: %d\n",
          run(module, "builtin.module(tile-optimize{top-k=1})", "diag: "));
  // CHECK: diag: {{.*}}remark: extracted 1 candidate(s) of @rowsum
  // CHECK: optimize: 1
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  // CHECK: tile.program @rowsum_c0

  /* Lowered to kernels and launches for an sm_90 target. */
  fprintf(stdout, "lower: %d\n",
          run(module, "tile-select-gpu-config{chip=sm_90},tile-lower-to-gpu",
              "lower: "));
  // CHECK: lower: 1
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  // CHECK: gpu.launch_func
  // CHECK: gpu.module
  mlirModuleDestroy(module);

  /* The upstream C API's pass manager knows the tile passes too. */
  module = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(convert-linalg-to-tile)"),
      printToStdout, NULL);
  fprintf(stdout, "mlirParsePassPipeline: %d\n",
          mlirLogicalResultIsSuccess(parsed));
  // CHECK: mlirParsePassPipeline: 1
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  fprintf(stdout, "mlirPassManagerRunOnOp: %d\n",
          mlirLogicalResultIsSuccess(ran));
  // CHECK: mlirPassManagerRunOnOp: 1
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  /* Errors: an unknown pass, a bad option, a pass that fails. Each is a
   * failure with a message, never an abort. */
  module = parse(ctx);
  fprintf(stdout, "unknown pass: %d\n",
          run(module, "tile-no-such-pass", "bad: "));
  // CHECK: bad: error: cannot parse the pass pipeline 'tile-no-such-pass'
  // CHECK: unknown pass: 0
  fprintf(stdout, "bad option: %d\n",
          run(module, "tile-optimize{top-k=many}", "bad: "));
  // CHECK: bad: error: cannot parse the pass pipeline 'tile-optimize{top-k=many}'
  // CHECK: bad option: 0
  fprintf(stdout, "bad chip: %d\n",
          run(module, "convert-linalg-to-tile,tile-select-gpu-config{chip=sm90}",
              "bad: "));
  // CHECK: bad: {{.*}}error: unknown NVVM chip 'sm90'
  // CHECK: bad chip: 0
  mlirModuleDestroy(module);

  mlirContextDestroy(ctx);
  fprintf(stdout, "done\n");
  // CHECK: done
  return 0;
}
