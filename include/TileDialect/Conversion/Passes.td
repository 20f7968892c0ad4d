//===- Passes.td - Conversions into and out of tile --------*- tablegen -*-===//

#ifndef TILEDIALECT_CONVERSION_PASSES_TD
#define TILEDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToTile : Pass<"convert-linalg-to-tile", "::mlir::ModuleOp"> {
  let summary = "Convert functions on linalg tensors into naive tile programs";
  let description = [{
    Replaces every `func.func` with a body by one naive `tile.program` of the
    same name: one loop nest per op, with a symbolic tile size on each loop.

    Accepted input: static-shape float tensors; `linalg` structured ops
    (named ops such as matmul, batch_matmul and their transposed variants,
    transpose, broadcast, reduce, fill, the elementwise named ops, and
    `linalg.generic` whose indexing maps are projected permutations and whose
    bodies use `arith` / `math` ops); `linalg.softmax`, decomposed first;
    `tensor.empty`; `tensor.expand_shape` / `collapse_shape`; and
    `tensor.extract_slice` / `insert_slice` with static offsets and unit
    strides. Contractions become `tile.matmul`; reductions become
    accumulating stores; intermediates become intermediate tensors,
    arguments inputs, results outputs, and an `insert_slice` into an argument
    that the function returns becomes a store into an `inout` tensor.

    Loops over the same dimension of the same tensor share one loop variable
    and tile size across ops (`i0` / `tile_i0` for parallel dimensions, `r0` /
    `tile_r0` for reductions), so that later rewriting can fuse them;
    reshapes iterate with concrete steps and their own variables.

    `arith.maximumf` / `minimumf` map to `tile.max` / `tile.min`, which follow
    IEEE maxNum / minNum: the results differ only when an input is NaN.

    Argument and result names come from a `tile.name` attribute when present
    (`argN` / `resultN` otherwise). Tensors keep the order of the function's
    arguments, and the program's `tile.results` attribute lists the tensor
    holding each function result, so that `tile-run` can compare the two. Anything outside the subset is refused with
    an error on the op that cannot be converted, saying why, and the module is
    left unchanged.
  }];
  let dependentDialects = ["::mlir::tileir::TileDialect"];
  let statistics = [
    Statistic<"numPrograms", "programs", "Number of functions converted">,
    Statistic<"numLoopNests", "loop-nests", "Number of top-level statements emitted">
  ];
}

#endif // TILEDIALECT_CONVERSION_PASSES_TD
