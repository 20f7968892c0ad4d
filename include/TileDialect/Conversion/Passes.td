//===- Passes.td - Conversions into and out of tile --------*- tablegen -*-===//

#ifndef TILEDIALECT_CONVERSION_PASSES_TD
#define TILEDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToTile : Pass<"convert-linalg-to-tile", "::mlir::ModuleOp"> {
  let summary = "Convert functions on linalg tensors into naive tile programs";
  let description = [{
    Replaces every `func.func` with a body by one naive `tile.program` of the
    same name: one loop nest per op, with a symbolic tile size on each loop.

    Accepted input: static-shape float tensors, and i1 tensors (boolean
    masks, read by `arith.select`); `linalg` structured ops
    (named ops such as matmul, batch_matmul and their transposed variants,
    transpose, broadcast, reduce, fill, the elementwise named ops, and
    `linalg.generic` whose indexing maps are projected permutations and whose
    bodies use `arith` / `math` ops; an input may also index a dimension of
    extent 1 by the constant 0, as torch-mlir broadcasts a size-1 dimension:
    it is read through a `collapse_shape` without that dimension);
    `linalg.softmax` and `tensor.concat`, decomposed first (a concat into
    the insert_slices of its operands);
    `tensor.empty`; `tensor.expand_shape` / `collapse_shape`; and
    `tensor.extract_slice` / `insert_slice` with static offsets and unit
    strides. Contractions become `tile.matmul`; reductions become
    accumulating stores; intermediates become intermediate tensors,
    arguments inputs, results outputs, and an `insert_slice` into an argument
    that the function returns becomes a store into an `inout` tensor (so
    does each insert of a chain into one argument, several tokens written
    into a KV cache, when nothing reads a value of the chain after the next
    insert; otherwise the rest of the chain writes a copy). When
    the inserted tensor is a fresh result of a linalg op (one that does not
    read its init) that nothing else reads, and nothing uses the argument
    between that op and the insert, the op writes straight into the slice
    (its loops over the sliced dimensions run whole: `tile.full` on its
    inputs, `tile.const_tile` on the argument) and no copy is left: the cast
    of K into the KV cache is one statement.

    Loops over the same dimension of the same tensor share one loop variable
    and tile size across ops (`i0` / `tile_i0` for parallel dimensions, `r0` /
    `tile_r0` for reductions), so that later rewriting can fuse them;
    reshapes iterate with concrete steps and their own variables. A
    dimension that a reshape splits off as the outer part of a group (the
    heads H of [M, H*d] -> [M, H, d]) is walked one element at a time
    (`tile.size 1`, `tile.elem`) wherever it is iterated, as the reshape's
    own loop walks it, and parallel loops over either side of a split group
    (H, or H*d) are the outermost loops of their nests: the optimizer can
    then reindex and fuse those loops with the reshape's (Trinity Figure
    4(e)-(f)), which is how the converted attention workloads reach one
    kernel. A group that only adds or drops unit dimensions (a grouped-query
    decode's [KVH, G, 1, d] -> [KVH, G, d]) splits nothing: the reshape
    moves it whole, with no loop, and the loops over it keep symbolic sizes,
    so that the group's query rows can share a tile.

    With `own-reduction-variables`, a reduction loop is grouped only with
    the dimensions of the arguments it reads, not with those of
    intermediates: the K loop of a GEMM that reads a normalization's result
    gets a variable of its own (`r1`) instead of the normalization's column
    variable, so its tile size (the K tile) is chosen apart from that width.
    32-row K tiles under 64-wide columns measured 3-4 us faster on each
    decode ffn on an H100 than one size for both
    (bench/results/h100-80gb-hbm3-2026-11-27-k-tiles.md, hand-written
    programs of this form). Off by default: the optimizer fuses loops that
    share a variable (the FlashAttention loop over the KV length needs the
    softmax's and P.V's loops to share one), so `--tile-optimize` converts
    without it.

    A body that uses `linalg.index d` (causal and sliding-window masks,
    ALiBi's distances) reads the positions of loop d from a `positions`
    tensor (`!tile.tensor<Nxf32, positions>`, one per extent, element n
    holding n), so a position is a load whose index names the loop
    variable, like any other read, and every rule and the legality analysis
    treat it as one. The integer arithmetic on positions becomes f32
    arithmetic: `addi`, `subi`, `muli`, `maxsi`, `minsi`, the casts between
    integers and to floats, `affine.apply` of sums and products (what
    elementwise fusion writes), `cmpi` (to `tile.cmp`), `andi` / `ori` of
    conditions (to `tile.select`) and `xori` with true of a `cmpi` (the
    inverse comparison). The conversion bounds every integer from the loop
    extents and the constants and refuses a body where one may pass 2^24,
    beyond the integers f32 holds exactly, a division or remainder, or an
    unsigned operation on a value that may be negative. A contraction whose
    body uses positions is refused, and elementwise fusion does not put
    positions into a contraction's prologue. The runtime fills positions
    tensors when it loads an artifact (`positions` initializer,
    docs/Runtime.md); `tile-run` and the optimizer's check fill them too.

    `arith.maximumf` / `minimumf` map to `tile.max` / `tile.min`, which follow
    IEEE maxNum / minNum: the results differ only when an input is NaN.

    Argument and result names come from a `tile.name` attribute when present
    (`argN` / `resultN` otherwise). Tensors keep the order of the function's
    arguments, and the program's `tile.results` attribute lists the tensor
    holding each function result, so that `tile-run` can compare the two. Anything outside the subset is refused with
    an error on the op that cannot be converted, saying why, and the module is
    left unchanged.

    With `fuse` (the default), elementwise producers are fused into the
    linalg ops that read them before planning (upstream
    `linalg::fuseElementwiseOps`), so that elementwise chains do not
    round-trip through memory between kernels: an all-parallel
    `linalg.generic` (named elementwise ops, transposes and broadcasts are
    generalized first) is fused into every reader that is not a
    contraction, reductions included, and recomputed in each when it has
    several. Into a contraction, a pure permutation (the transpose of
    `Q @ transpose(K)`), which the contraction then reads through a permuted
    indexing map, its body still a multiply-add; and, with `prologues` (the
    default), any all-parallel producer of its left operand (the `m`-side:
    a cast, an RMS normalization's scaling, a softmax's division), whose
    body then computes that operand, `out + x(inputs) * y(inputs)`: it
    converts to a `tile.matmul` whose left operand is that expression of
    loaded tiles (a named contraction such as `batch_matmul` is generalized
    first). The right operand takes only permutations, so that weights and
    caches stay plain loads. Every tile of the result's columns recomputes
    the prologue, so it is fused only where the contraction has at most
    `prologue-max-columns` (default 64, one matrix-unit warp tile)
    columns: P.V with 64-wide heads, not a projection or Q.K^T. Measured on
    an H100 (bench/results/h100-80gb-hbm3-2026-11-22-notes.md, seventh
    run): falcon's P.V (n = 64) with its division fused, 78.1 -> 76.3 us for
    vanilla; llama's (n = 128, two tiles) 60.4 -> 61.2; an RMS scaling or a
    SiLU product recomputed per tile of a 4096-column projection made
    prenorm and ffn 1.4-1.5x slower. A
    producer that reads an argument updated in place before the reader is
    not fused, nor one whose fused body would pass 64 ops (recomputing a
    producer read twice doubles its body). Before fusing, reshapes move
    out from between elementwise ops (upstream's fold of reshapes by
    expansion: a `tensor.expand_shape` of an elementwise result goes above
    the op, a `tensor.collapse_shape` an elementwise op reads goes below
    it, the op running over the expanded loops), so that the cast after a
    projection fuses with the head transpose after its reshape; the reshapes
    left sit next to a contraction, a reduction, an argument or a result,
    where `tile-lower-to-gpu` can give both tensors one buffer
    (`elide_copies`). `fuse=false` converts op by op.
  }];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse elementwise producers into their readers before converting">,
    Option<"prologues", "prologues", "bool", /*default=*/"true",
           "With fuse: also fuse elementwise producers into the left operand "
           "of contractions">,
    Option<"prologueMaxColumns", "prologue-max-columns", "int64_t",
           /*default=*/"64",
           "Fuse a prologue only into contractions with at most this many "
           "result columns (n): every tile of n recomputes it">,
    Option<"ownReductionVariables", "own-reduction-variables", "bool",
           /*default=*/"false",
           "Give reduction loops variables apart from the dimensions of the "
           "intermediates they read, so that their tile sizes are tuned on "
           "their own (the optimizer's fusions need the shared ones)">
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect"];
  let statistics = [
    Statistic<"numPrograms", "programs", "Number of functions converted">,
    Statistic<"numLoopNests", "loop-nests", "Number of top-level statements emitted">
  ];
}

def TileSelectGPUConfig : Pass<"tile-select-gpu-config", "::mlir::ModuleOp"> {
  let summary = "Choose each tile program's GPU lowering configuration";
  let description = [{
    Records on every `tile.program` the `#tile.gpu_config` that
    `--tile-lower-to-gpu` lowers it with, as its `tile.gpu_config`
    attribute. The fields come, each from the first of these that sets it:
    the `config` option; the attribute the program already carries; the
    program's entry in the tuning cache `tuning` for the chip; the strategy,
    which chooses from the target (its SM count and features, shared with
    the cost model) and the program's shapes (docs/GPULowering.md,
    "Choosing a configuration"); the knob's default. Features the target
    lacks (matrix units, vector atomics, L2 prefetches) are then turned
    off.

    ```mlir
    tile.program @ffn(...) attributes {tile.gpu_config =
        #tile.gpu_config<max_tile_size = 64, min_blocks = 2048, split_k = 8,
                         mma = true, vector_atomics = true, ...>}
    ```

    Under the strategy's choice (no tuning entry, no attribute of the
    program's own, `statement_configs` on), a top-level statement whose
    work differs from the program's (rows reduced without a matmul in a
    softmax-style program of GEMMs: a softmax's max and sum) gets fields of
    its own, recorded as the `tile.gpu_config` of the statement's op (the
    `config` option's fields override them too), and its loop variables and
    tile sizes are renamed `<name>_s<statement>` so that its tiles are
    sized apart:

    ```mlir
    %l = tile.loop %r0_s1 = 0 to 4096 step %tile_r0_s1 body %s
        {tile.gpu_config = #tile.gpu_config<max_tile_size = 1024,
                           min_blocks = 264, element_loops = false,
                           split_k = 16>}
    ```
  }];
  let options = [
    Option<"backend", "backend", "std::string", "\"nvvm\"",
           "Vendor backend: nvvm or rocdl">,
    Option<"chip", "chip", "std::string", "\"\"",
           "Target chip (sm_80, sm_90; gfx942); empty: the backend's "
           "default (sm_90, gfx942)">,
    Option<"features", "features", "std::string", "\"\"",
           "Target features (NVVM default: +ptx81, or the chip's first "
           "PTX ISA where later: +ptx86 for sm_100, +ptx87 for sm_120; a "
           "+ptxNN older than the chip needs is refused)">,
    Option<"config", "config", "std::string", "\"\"",
           "Fields of #tile.gpu_config that override every other source">,
    Option<"tuning", "tuning", "std::string", "\"\"",
           "Tuning cache (bench/tuning/<device>.json) whose entry for a "
           "program's hash and the chip overrides the strategy">,
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect"];
  let statistics = [
    Statistic<"numTuned", "tuned-programs",
              "Number of programs configured from a tuning entry">,
    Statistic<"numStatements", "configured-statements",
              "Number of top-level statements given a configuration of "
              "their own">,
  ];
}

def TileLowerToGPU : Pass<"tile-lower-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower tile programs to GPU kernels and a host function that "
                "launches them";
  let description = [{
    Replaces every `tile.program` by a `gpu.module` of kernels and a host
    `func.func` of the same name whose body is the launch sequence
    (`gpu.launch_func`, one per kernel, in program order). The host function
    takes one flat memref per tensor of the program (i1 tensors as i8), in
    the program's order, each annotated with `tile.name` and `tile.role`,
    then, when a kernel spills tile buffers, one f32 scratch memref
    (`tile.role = "scratch"`); it carries the program's `tile.results` and
    the tile sizes used (`tile.tile_sizes`).

    Kernels: one per top-level statement of the program (Trinity section
    5.2). The outermost loops of a statement whose iterations are provably
    independent (every pair of a write and another access of one tensor is
    told apart by a dimension indexed by that loop's variable, or by
    disjoint constant slices) become the grid, flattened into `blockIdx.x`;
    loops with carried dependences and everything inside them run within
    each block. Below the grid loops, a sequence of parallel loops whose
    iterations line up (whatever one writes, the others touch only in the
    same iteration number) runs side by side: iteration b of each on block
    b, a barrier between them. Each tile value is computed element by element by the
    block's threads; elementwise chains, layout changes and casts are
    recomputed where they are used; matmuls, reductions and their operands
    that are not plain loads are buffered in workgroup memory (up to
    `shared_memory` bytes per kernel) or, beyond that, in the block's slice
    of the global scratch; a barrier follows every buffered value and every
    store. Arithmetic is f32; f16 and bf16 values are rounded to their type
    after each op, as `tile-run --precision f32` does.

    Configuration: every knob below is a field of the program's
    `tile.gpu_config` attribute (`#tile.gpu_config`, chosen by
    `--tile-select-gpu-config`; absent: every knob's default), overridden
    field by field by the `config` option. The configuration is copied onto
    the host function and the `gpu.module`, where `--tile-merge-kernels`,
    `--tile-programmatic-launch` and `--tile-pipeline-loads` read theirs.

    Symbolic tile sizes take their values from `tile_sizes`, then from the
    program's `tile.tile_sizes` dictionary attribute, then the largest power
    of two up to `max_tile_size` (default 32; 0: none) that divides
    every loop stepping by the size; sizes
    bound that way that step grid loops are then halved, the largest first,
    while a kernel with a loop below its grid has fewer than `min_blocks`
    blocks, except sizes stepping the grid of
    a split accumulation (`split_k`). Before that, with `mma` and
    `warp_loops`, a size bound that way whose loops all span one range takes
    the whole range when that makes more kernels warp loops (the loop then
    has one trip and folds, below), and keeps it. Explicit sizes are never
    changed. An unbound size is an error. f64 tensors and tiles are refused.

    With the sizes bound, a loop of one trip around a store, among the
    statements of a sequence inside another loop, is replaced by the store
    (its variable's indices become the constant slices they select), and an
    accumulation `T[r] = T[r] + g` that is the only store to an
    intermediate or output starting as zeros, run once per iteration of
    loops that each move r and named in no `tile.may_alias`, becomes the
    store `T[r] = g` (the scores of a FlashAttention loop converted from
    linalg, summed over the head dimension in one tile, become the matmul
    store that warp loops are made of).

    A kernel that only copies a tensor into another of the same element
    type and row-major layout (what `tensor.expand_shape` and
    `tensor.collapse_shape` become) is dropped when the two can share a
    buffer (`elide_copies`): a copy into an intermediate that nothing else
    writes and nothing reads before the copy, from a tensor nothing writes
    after it, makes the launches pass the source's memref for the
    intermediate; a copy of an intermediate into an output that nothing
    else touches, with nothing writing the intermediate after it, makes
    them pass the output's memref for the intermediate. Tensors named in
    `tile.may_alias` are left alone.

    `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl` continue from here to
    `gpu.binary` (see docs/GPULowering.md).
  }];
  let options = [
    Option<"config", "config", "std::string", "\"\"",
           "Fields of #tile.gpu_config (`k_slices = 4, mma = true, "
           "tile_sizes = {tile_i0 = 16}`) that override the program's "
           "tile.gpu_config attribute (docs/GPULowering.md)">,
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numKernels", "kernels", "Number of kernels emitted">,
    Statistic<"numGridLoops", "grid-loops", "Number of loops mapped to the grid">,
    Statistic<"numSplitEpilogues", "split-epilogues",
              "Number of kernels run as split accumulations' epilogues">,
    Statistic<"numElidedCopies", "elided-copies",
              "Number of copy kernels dropped for a shared buffer">,
    Statistic<"numPrivatized", "privatized-tensors",
              "Number of intermediates given one copy per loop iteration">,
    Statistic<"numFoldedLoops", "folded-loops",
              "Number of loops of one trip replaced by their bodies">,
    Statistic<"numStoredAccumulations", "stored-accumulations",
              "Number of accumulations into starting zeros made stores">
  ];
}

def TileMergeKernels : Pass<"tile-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Launch independent kernels of a host function as one grid";
  let description = [{
    Every kernel launch costs a launch, a ramp-up of its first blocks and a
    tail of its last ones; a short kernel is mostly that (the casts and
    cache appends of the attention workloads take ~3 us each on an H100 for
    a few hundred KB). This pass groups the launches of each host function
    (a straight line of `gpu.launch_func`s, as `--tile-lower-to-gpu` emits)
    and launches every group of several as one kernel: its grid is the
    members' grids one after another, and block b runs the member whose
    range holds b with `gpu.block_id x` (and `gpu.grid_dim x`) taken
    relative to that range (each member's code under an `scf.if` marked
    `tile.member`). Each launch, in order, joins the earliest group
    that comes after the last group holding a launch it depends on and that
    it fits, or starts a new group; groups run in order. So three
    projections that read one input and write three tensors become one
    launch, and so do their three casts after them.

    Two launches depend on each other when one may write a buffer the other
    reads or writes: what a kernel does with each memref argument comes from
    the memory effects of the ops using it (an op of unknown effects, or one
    that makes a view of it, counts as reading and writing). Buffers are the
    host function's arguments, distinct unless its `tile.may_alias`
    attribute (pairs of argument numbers, which `--tile-lower-to-gpu` sets
    from the program's) pairs them.

    A launch joins a group only when it is synchronous, one-dimensional, of
    constant grid and block size without clusters or dynamic shared memory,
    its kernel has one block, a matching `known_block_size`, no private
    memory, no other grid-dependent ops than `gpu.block_id x` and
    `gpu.grid_dim x`; when the group has the same block size; and when the
    group's workgroup memory stays within `shared_memory` bytes. A block
    runs one member, so the members' workgroup buffers share one buffer
    (each member's views of it start at its beginning, 16-byte aligned):
    the merged kernel's workgroup memory is its largest member's, and
    merging does not lower how many blocks fit on a multiprocessor. Other
    launches are not moved and nothing moves across them. A host function with other ops than constants,
    launches and the return is left alone.

    With `zero_in_kernels`, the launches also clear the buffers that a call
    expects to start as zeros (arguments of role `intermediate`, `output` or
    `scratch`: split accumulations add into them), so that the caller need
    not clear them before every call. Each such buffer is cleared by a
    member added to an existing group, with that group's block size: to the
    first group when no launch of the first group touches it (marked
    `tile.zero = "start"` on the host argument: the call clears it before
    its first use), else, for a buffer that is not an output, to the group
    after the last one that touches it (`"restored"`: the call leaves it
    zero for the next one; the caller clears it once before the first
    call). A buffer no launch touches is marked `"unused"`; one touched by
    the first and the last group, an output touched by the first group, one
    that may alias an input, and every buffer when a launch cannot join a
    group are left to the caller. A buffer the lowering marked
    `tile.overwritten` (its first kernel writes all of it and reads none of
    it, or reads only zeros it starts its accumulators from) needs no
    clearing: it is marked `"overwritten"` and gets no member. The runtime
    then clears only the unmarked ones before every call (docs/Runtime.md,
    `zero once`).
  }];
  let options = [
    Option<"config", "config", "std::string", "\"\"",
           "Fields of #tile.gpu_config overriding each host function's "
           "tile.gpu_config: merge_kernels (off: nothing is merged), "
           "shared_memory (most bytes of workgroup memory of a merged "
           "kernel), zero_in_kernels (clear the buffers that start as zeros "
           "inside existing launches)">,
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numMerged", "merged-launches",
              "Number of launches merged into another's grid">,
    Statistic<"numZeroed", "zeroed-buffers",
              "Number of buffers cleared by a member added to a group">
  ];
}

def TileProgrammaticLaunch
    : Pass<"tile-programmatic-launch", "::mlir::ModuleOp"> {
  let summary = "Make kernels safe to launch with programmatic stream "
                "serialization (sm_90 and later), and let short ones launch "
                "their successors early";
  let description = [{
    Launched with programmatic stream serialization (the runtime does so for
    artifacts that say `launch programmatic`, docs/Runtime.md), a kernel may
    start before the kernel before it in the stream has finished; it must
    then run `griddepcontrol.wait` before it touches memory that kernel
    writes. This pass puts a wait at the start of every kernel of the
    module's `gpu.module`s, or, in a kernel that `--tile-merge-kernels`
    made (members under `scf.if`s marked `tile.member`), at the start of
    every member, unless the kernel or member already has one (the
    lowering's prefetching kernels wait after their L2 prefetches,
    the `prefetch_bytes` field).

    A kernel's successor is launched when every block of the kernel has
    exited or run `griddepcontrol.launch_dependents`. A kernel of at most
    `early_launch_blocks` blocks (all of them resident at once, on an H100)
    runs it at entry when the next launch of its host function prefetches
    or itself does so: the successor's blocks then start on the free
    multiprocessors, issue their prefetches while this kernel runs, and
    wait. Larger kernels trigger nothing (early blocks of their successor
    would take the multiprocessors from their own later blocks).
  }];
  let options = [
    Option<"config", "config", "std::string", "\"\"",
           "Fields of #tile.gpu_config overriding each host function's "
           "tile.gpu_config: early_launch_blocks (most blocks of a kernel "
           "that launches its successor at entry when a prefetching kernel "
           "follows; 0: never)">,
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numWaits", "waits", "Number of griddepcontrol.wait inserted">,
    Statistic<"numEarly", "early-launches",
              "Number of kernels that launch their successor at entry">
  ];
}

def TilePipelineLoads : Pass<"tile-pipeline-loads", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Issue a kernel loop's global-memory loads iterations ahead "
                "of the arithmetic that uses them (software pipelining)";
  let description = [{
    A loop that reads global memory and computes on what it read (the k loop
    of a matmul, a row sum) waits for its loads once per iteration: a thread
    issues the loads, stalls for the memory latency, computes, and only then
    issues the next iteration's loads. With few iterations per thread and a
    grid of one wave (the decode GEMMs: 16 rows, a 4096-deep k split among
    blocks) the memory system idles between the round trips. This pass
    rewrites such a loop with upstream's `scf` loop pipeliner
    (`scf::pipelineForLoop`): the loads and the index arithmetic they need
    run `pipeline_loads` iterations ahead, carried to the computation in
    registers; a prologue issues the first iterations' loads before the
    loop. Loops with static bounds get a peeled epilogue; loops with
    dynamic bounds run the loads for the iterations past the end under
    `scf.if` (no access out of bounds).

    A loop is rewritten when (1) its own body (not a nested loop's) loads
    from global memory (`vector.load` or `memref.load` of a memref outside
    the workgroup and private address spaces), (2) nothing in it writes
    memory, synchronizes, or has effects the pass does not know, so moving
    a load earlier cannot change what it reads, (3) the loads' addresses
    depend on the induction variable and values defined outside the loop
    only, through ops that may be executed speculatively, not on values it
    carries, and (4) it runs at least `pipeline_loads` + 1 times when its trip
    count is static. Everything else in the body keeps its order. Nested
    loops are rewritten innermost first.
  }];
  let options = [
    Option<"config", "config", "std::string", "\"\"",
           "Fields of #tile.gpu_config overriding the gpu.module's "
           "tile.gpu_config: pipeline_loads (iterations the loads run ahead "
           "of their use; 0: off)">,
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numPipelined", "pipelined-loops",
              "Number of loops whose loads were issued ahead">
  ];
}

def TileGPUToHost : Pass<"tile-gpu-to-host", "::mlir::ModuleOp"> {
  let summary = "Run the kernels of a lowered tile program on the host, "
                "blocks and threads one after another";
  let description = [{
    Takes the output of `--tile-lower-to-gpu` and makes it run on the CPU,
    to check the kernels' arithmetic and indexing without a GPU
    (`tile-run --device emulate`). Each kernel becomes a `func.func` named
    `<module>__<kernel>` that runs one block, given its block index as three
    trailing `index` arguments; each `gpu.launch_func` becomes a loop over
    the grid calling it; the `gpu.module`s are removed.

    Inside a kernel the threads of a block run one after another between
    barriers. That is exact for the kernels `--tile-lower-to-gpu` emits,
    where threads only exchange values across a `gpu.barrier` and thread
    dependent code is confined to loops `scf.for %e = %thread_id to ...`
    with no barrier inside: each such loop is run for every thread in turn,
    barriers are dropped, workgroup buffers become stack allocations of the
    block. Matrix-unit ops (`gpu.subgroup_mma_*`, one 16x16 tile per warp)
    must sit in warp loops (`scf.for %w = %thread_id / 32 to ...`), which
    run for warp 0, 1, ... in turn; each matrix value becomes a 16x16 f32
    stack buffer (f16 operands widened exactly), the product accumulates
    into the accumulator's buffer in place. A kernel outside that form
    (another use of the thread or warp index, a barrier inside a thread or
    warp loop, a matrix op outside a warp loop) is refused with an error. A missing barrier cannot be found this way: the
    emulation checks what each thread computes, not how threads are
    synchronized.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILEDIALECT_CONVERSION_PASSES_TD
