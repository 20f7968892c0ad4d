//===- Passes.td - Tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TILEDIALECT_TRANSFORMS_PASSES_TD
#define TILEDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileProgramStats : Pass<"tile-program-stats", "::mlir::ModuleOp"> {
  let summary = "Print a summary of each tile program";
  let description = [{
    Prints, for every `tile.program` in the module, its tensors by role, its
    top-level loop nests (the kernels a direct lowering would launch, as in
    the Trinity paper's kernel count), its loop variables with their ranges
    and steps, its symbolic tile sizes, the size of the op DAG against the
    size of the program tree it denotes (how much hash-consing shares), and
    the count of each op kind. The IR is not changed.

    Example: `tile-opt examples/vanilla.mlir --tile-program-stats -o /dev/null`
  }];
  let options = [
    Option<"outputPath", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the summary: a file path, or '-' for stderr">
  ];
  let statistics = [
    Statistic<"numPrograms", "programs", "Number of tile programs summarized">,
    Statistic<"numKernels", "top-level-loops",
              "Number of top-level loop nests over all programs">
  ];
}

#endif // TILEDIALECT_TRANSFORMS_PASSES_TD
