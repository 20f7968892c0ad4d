//===- KernelEmitterImpl.h - The kernel emitter's steps ---------*- C++ -*-===//
//
// The steps that emit one kernel's body (KernelEmitter.h), as one class over
// an `EmissionContext`, its methods defined in one file per op family:
//
//   KernelEmitter.cpp          entry: arguments, grid, parts, split epilogues
//   EmitLoops.cpp              statements, loops, element loops, L2 prefetches
//   EmitLanes.cpp              elements and lanes spread over the threads
//   EmitMemory.cpp             index arithmetic, element kinds, tensor and
//                              buffer accesses
//   EmitExpressions.cpp        elementwise ops and layout changes, per element
//                              and in runs
//   EmitReductions.cpp         reductions, per thread and by groups of threads
//   EmitMatmul.cpp             matmuls on the vector units, lane blocks
//   EmitMatrixUnits.cpp        matmuls on the matrix units (mma.sync lanes,
//                              wmma buffers)
//   EmitStores.cpp             stores, lanes stored as vectors, transposes
//   EmitSplitAccumulation.cpp  split accumulations, k slices, atomic adds
//   EmitWarpLoop.cpp           warp loops (FlashAttention-style)
//   EmitBlockMatmul.cpp        matmul tiles staged in shared memory
//   EmitNVIDIA.cpp             NVIDIA-only ops (EmitNVIDIA.h)
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTERIMPL_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTERIMPL_H

#include "EmitterContext.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <optional>
#include <utility>

namespace mlir::tileir::gpu_lowering {

/// The bytes of one element of `kind` in a vector load, or 0 if tensors of
/// that kind are not loaded as vectors (only floating-point ones are).
int64_t vectorElementBytes(MLIRContext *ctx, ElementKind kind);

/// Emits one kernel's body over the context `cx`: every block runs the
/// kernel's body statement with its grid variables taken from the block
/// index, each tile value evaluated per element by the block's threads.
class KernelEmitter {
public:
  explicit KernelEmitter(EmissionContext &cx);

  /// Emits the whole body at the start of the function's entry block.
  void run();

private:
  //===--------------------------------------------------------------------===//
  // Entry and split epilogues (KernelEmitter.cpp)
  //===--------------------------------------------------------------------===//

  /// Runs the context's kernel as the epilogue of `producer`
  /// (`Kernel::epilogue`) at `producer`'s insertion point, with its tensors,
  /// threads and grid variables.
  void runAsEpilogue(const EmissionContext &producer);
  /// After a split accumulation's atomic adds: counts the block on its
  /// tile's counter (`gridPoint`), and the last block of the tile runs the
  /// epilogue and clears the counter.
  void emitEpilogue(Value gridPoint);
  /// Counts the block on counter `slot` after its writes (a barrier, then
  /// thread 0's fenced atomic add) and returns, to every thread, whether it
  /// was the last of `arrivals` blocks (through shared element
  /// `flagElement`), the others' writes then visible to it.
  Value countArrival(Value slot, int64_t arrivals, int64_t flagElement);

  //===--------------------------------------------------------------------===//
  // Statements and loops (EmitLoops.cpp)
  //===--------------------------------------------------------------------===//

  /// Emits statement `id` for the whole block.
  void emitStmt(unsigned id);
  /// A loop of `Kernel::perElementLoops`: each thread runs every iteration
  /// for its elements.
  void emitPerElementLoop(const interp::StmtNode &loop);
  /// The first and end iteration values of loop `id` this block runs: the
  /// block's chunk of a split kernel body, else all of them.
  std::pair<Value, Value> iterationBounds(unsigned id);
  /// The block's L2 prefetches of `Kernel::prefetchLoads` over its first
  /// `Kernel::prefetchIterations` iterations of the body loop, one
  /// `prefetch.global.L2` per 128-byte line of each tile (the threads take
  /// the lines in turn), then `griddepcontrol.wait` (marked
  /// `tile.prefetched`).
  void emitPrefetches();

  //===--------------------------------------------------------------------===//
  // Elements and lanes over the threads (EmitLanes.cpp)
  //===--------------------------------------------------------------------===//

  /// `body(e)` for every element index e of an n-element tile, spread over
  /// the block's threads.
  void forEachElement(int64_t n, llvm::function_ref<void(Value)> body);
  /// A loop `for i in [0, n)` carrying f32 values (one per lane).
  Lanes reduceLoop(int64_t n, ValueRange inits,
                   llvm::function_ref<Lanes(Value, ValueRange)> step);
  /// `body(flats, valid)` for every group of `lanes` elements of an
  /// n-element tile, spread over the block's threads: lane i of the group a
  /// thread starts at element g is element g + i * threads. Lanes past the
  /// tile compute element n - 1 and are not valid (`valid` is empty when
  /// every lane of every group is inside the tile). With a `block`, a
  /// group is instead a block of rows x width elements (`LaneBlock`), group
  /// q of the tile's (n / lanes) at rows (q / (rowLength / width)) * rows
  /// and columns (q mod (rowLength / width)) * width.
  void forEachLaneGroup(int64_t n, int64_t lanes,
                        llvm::function_ref<void(ValueRange, ValueRange)> body,
                        std::optional<LaneBlock> block = std::nullopt);
  /// The lanes a thread runs for an n-element element loop.
  int64_t lanesFor(int64_t n) const;
  /// The lanes (element indices) of group `group` of a lane block.
  Lanes blockFlats(Value group, const LaneBlock &block);
  /// `body()` with `flats` the lanes of the current lane-block group.
  void inLaneBlock(ValueRange flats, const LaneBlock &block,
                   llvm::function_ref<void()> body);
  /// The lane block `flats` are the lanes of, if any.
  const LaneBlock *getBlockOf(ValueRange flats) const;
  /// `body()` where lane `i` is valid.
  void ifValid(ValueRange valid, unsigned i, llvm::function_ref<void()> body);

  //===--------------------------------------------------------------------===//
  // Index arithmetic and memory (EmitMemory.cpp)
  //===--------------------------------------------------------------------===//

  // Index arithmetic, folded where both sides are constants.
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y);
  Value mul(Value x, int64_t c);
  Value div(Value x, int64_t c);
  Value rem(Value x, int64_t c);
  /// An f32 constant.
  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }

  /// A value stored as `kind` (its storage type) in f32, and back; `round`
  /// is both, the f32 value rounded to `kind`.
  Value toF32(Value stored, ElementKind kind);
  Value fromF32(Value v, ElementKind kind);
  Value round(Value v, ElementKind kind);

  /// The offset in its tensor of element `flat` of the region `access`
  /// selects, the region having shape `tileShape`.
  Value tensorOffset(const interp::Access &access, ArrayRef<int64_t> tileShape,
                     Value flat);
  /// The source element of a copy's (gather's) element `flat`.
  Value gatherSource(const interp::StridedCopy &copy, Value flat);
  /// Whether runs of `count` elements of the region `access` selects, each
  /// starting at a multiple of `count` in the region's innermost dimension,
  /// are aligned vectors in the tensor.
  bool accessRuns(const interp::Access &access, int64_t count) const;
  /// One aligned `vector.load` of `width` elements of tensor `tensor`,
  /// starting at tensor offset `offset`, in its storage type.
  Value loadVector(unsigned tensor, Value offset, int64_t width);
  /// One aligned `vector.store` of the f32 `values`, in tensor `tensor`'s
  /// storage type, at tensor offset `offset`.
  void storeVector(unsigned tensor, Value offset, ValueRange values);
  /// Whether `tensor` is a positions tensor (element n holds n): its
  /// loads are computed from their offsets, not read.
  bool isPositions(unsigned tensor) const {
    return tensor < cx.tensorRoles.size() &&
           cx.tensorRoles[tensor] == TensorRole::Positions;
  }
  /// The global address (i64) of element `offset` of `tensor`, from `base`,
  /// its buffer's aligned pointer.
  Value globalAddress(unsigned tensor, Value base, Value offset);

  /// The address of element `flat` of `buffer`, and in `memref` the memref
  /// that holds it (shared f32 or f16, or the global scratch).
  Value bufferAddress(const Buffer &buffer, Value flat, Value &memref);
  /// Element `flat` of `buffer`, in f32.
  Value loadBuffer(const Buffer &buffer, Value flat);
  /// Stores the f32 `v` as element `flat` of `buffer` (rounded to f16 in an
  /// f16 buffer).
  void storeBuffer(const Buffer &buffer, Value flat, Value v);

  //===--------------------------------------------------------------------===//
  // Expressions (EmitExpressions.cpp)
  //===--------------------------------------------------------------------===//

  /// Elements `flats` of expression `id`: from its buffer if it has one.
  /// Within one evaluation (`ExprMemo`) each (id, flats) is emitted once.
  Lanes element(unsigned id, ValueRange flats);
  /// Elements `flats` of expression `id`, computed from its operands. A
  /// matmul or reduction of several lanes is one loop carrying them all, so
  /// that an operand element the lanes share is loaded once.
  Lanes formula(unsigned id, ValueRange flats);
  Value unary(interp::UnaryFn fn, Value x);
  Value binary(interp::BinaryFn fn, Value x, Value y);
  /// Element `flat` of a concatenation, from the operand that holds it.
  Value concat(const interp::ExprNode &node, Value flat);
  /// Element `flat` of the non-splat constant `id`, from a constant global
  /// of the module.
  Value denseConstant(unsigned id, Value flat);
  /// Elements flat0 .. flat0 + count - 1 of expression `id`, flat0 a
  /// multiple of count and the elements in one row of its innermost
  /// dimension: tensor loads as aligned vector loads where the layout
  /// allows, else element by element.
  Lanes elementRun(unsigned id, Value flat0, int64_t count);
  /// `elementRun` emitted anew.
  Lanes computeRun(unsigned id, Value flat0, int64_t count);
  /// The values `element(id, flats)` (`run` 0) or `elementRun(id, flats[0],
  /// run)` emitted earlier in this evaluation, if they dominate the
  /// insertion point.
  const Lanes *findEvaluated(unsigned id, ValueRange flats, int64_t run);
  /// Records `values` as those of (id, flats, run) and returns them.
  Lanes remember(unsigned id, ValueRange flats, int64_t run, Lanes values);
  /// Whether `v` is defined before the builder's insertion point, in its
  /// block or in a block enclosing it.
  bool dominatesInsertion(Value v) const;
  /// `elementRun` of an elementwise op (unary, binary, cast) over runs of
  /// its operands, or of a broadcast along the innermost dimension (one
  /// element); nothing for other nodes and buffered ones.
  std::optional<Lanes> elementwiseRun(unsigned id, Value flat0, int64_t count);
  /// Whether `elementRun(id, ., count)` loads vectors.
  bool loadsRun(unsigned id, int64_t count) const;

  //===--------------------------------------------------------------------===//
  // Reductions (EmitReductions.cpp)
  //===--------------------------------------------------------------------===//

  /// Elements `flats` of reduction `id`, each thread combining the whole
  /// extent (or, for the split addend cut among `Kernel::reduceLanes`
  /// threads, its lane's share of it).
  Lanes reductionLanes(unsigned id, ValueRange flats);
  /// `x` and `y` combined by reduction `fn`.
  Value combine(interp::ReduceFn fn, Value x, Value y);
  /// Computes reduction `id` into its buffer `result` by groups of threads
  /// (`GroupReduction`), as many per result element as the block's threads
  /// allow, up to `reduction.group`; false, emitting nothing, when that is
  /// fewer than two.
  bool emitGroupReduction(unsigned id, const Buffer &result,
                          const GroupReduction &reduction);

  //===--------------------------------------------------------------------===//
  // Matmuls on the vector units (EmitMatmul.cpp)
  //===--------------------------------------------------------------------===//

  /// Elements `flats` of matmul `id`: on the matrix units for a matrix-unit
  /// block they fit, as a lane block's rows sharing their operands' loads,
  /// else one sum over k per lane.
  Lanes matmulLanes(unsigned id, ValueRange flats);
  /// Elements `flats` of the split addend matmul `id` cut along k among
  /// `Kernel::reduceLanes` lanes (`getKLaneWidth`): this lane's share of
  /// each sum, read in runs of `Kernel::kLaneWidth` along the rows of the
  /// transposed operand and of A.
  Lanes kLaneMatmulLanes(unsigned id, ValueRange flats);
  /// Whether expression `id` is computed per element without a loop of its
  /// own: no reduction or matmul below it but in the store's buffers.
  bool withoutLoops(unsigned id) const;
  /// The lanes `flats` of matmul `id`, whose right operand is the transpose
  /// of S (`getTransposedOperand`), summed by k lane `lane` of `lanes`: each
  /// over the runs [(s * lanes + lane) * width, + width) of A's row and S's
  /// row, the loads of up to 4 steps first. `oneColumn`: the lanes are rows
  /// of one column and share S's runs.
  Lanes transposedRunLanes(unsigned id, ValueRange flats, Value lane,
                           int64_t lanes, int64_t width, bool oneColumn);
  /// The outputs group `group` of k lanes computes (`Kernel::kLaneRows`
  /// rows of one column of the split matmul's output).
  Lanes kLaneRowFlats(Value group);
  /// The lane block of an element loop over tiles of `shape` with `lanes`
  /// lanes, if it should have one: its stores compute a matmul with the
  /// tile's row length whose right operand loads rows of `width` elements
  /// as vectors; the lanes of one column then share those loads and the
  /// lanes of one row the left operand's.
  std::optional<LaneBlock>
  getLaneBlock(ArrayRef<const interp::StmtNode *> stores,
               ArrayRef<int64_t> shape, int64_t lanes) const;

  //===--------------------------------------------------------------------===//
  // Matmuls on the matrix units (EmitMatrixUnits.cpp)
  //===--------------------------------------------------------------------===//

  /// Whether `halfRun(id, ., count)` may be used: `id` is a load of an f16
  /// (bf16) tensor as f16 (bf16) whose runs of `count` load as vectors.
  /// ("Half" here is either 16-bit float the matrix units take.)
  bool loadsHalf(unsigned id, int64_t count) const;
  /// Elements flat0 .. flat0 + count - 1 of `id` as one vector of its
  /// 16-bit kind (`loadsHalf(id, count)`).
  Value halfRun(unsigned id, Value flat0, int64_t count);
  /// Whether `id` is f16 or bf16 and computable element by element for a
  /// matrix unit's left operand: a vector load (`loadsHalf(id, 4)`), or an
  /// expression of loads of tensors not carried in registers, constants,
  /// elementwise ops, copies and casts (a prologue: no reductions or
  /// matmuls, which would be recomputed per element).
  bool computesHalf(unsigned id) const;
  /// Elements flat0 .. flat0 + count - 1 of `id` (`computesHalf(id)`) as
  /// one vector of its 16-bit kind: `halfRun` when they load as one, else
  /// computed and rounded.
  Value halfOperandRun(unsigned id, Value flat0, int64_t count);
  /// The load under `id` when `id` is the transpose (a permute swapping the
  /// last two dimensions) of an f16 or bf16 load whose runs of 4 along its
  /// innermost dimension load as vectors: B^T of Q K^T, read along k.
  std::optional<unsigned> transposedHalf(unsigned id) const;
  /// Whether matmul `id` can compute the lanes of the matrix-unit block
  /// `block`: f16 operands, or bf16 ones, loaded as vectors (A along k, 4
  /// at a time; B along its rows, width / 2 at a time, or, transposed, along
  /// k, 4 at a time), an f32 result, rows of the block's length, m and k
  /// multiples of 16, width 4, 8 or 16.
  bool fitsMatrixUnits(unsigned id, const LaneBlock &block) const;
  /// The lanes of a matrix-unit block (`LaneBlock::mma`) of matmul `id`:
  /// per 16 steps of k, one `nvgpu.mma.sync` per 16 x 8 tile.
  Lanes matrixUnitLanes(unsigned id, ValueRange flats, const LaneBlock &block);
  /// Matmul `id` of `StoreBuffers::mma` with gpu.subgroup_mma ops (wmma on
  /// NVIDIA): one warp per 16x16 result tile, from the f16 operand buffers
  /// into the f32 result buffer.
  void emitMatrixUnitMatmul(unsigned id);

  //===--------------------------------------------------------------------===//
  // Stores (EmitStores.cpp)
  //===--------------------------------------------------------------------===//

  /// Emits store `id` with its buffers (`Kernel::stores`): each buffered
  /// value, then the stored value (or a split loop's addend, added
  /// atomically), a barrier after each.
  void emitStore(unsigned id);
  /// Writes `v` (f32) as element `flat` of the region `store` writes.
  void storeElement(const interp::StmtNode &store, Value v, Value flat);
  /// Stores `values` at the lanes `flats` (those `valid`, see
  /// forEachLaneGroup): the rows of a lane block whose runs are aligned
  /// vectors in the tensor as vector stores of up to 16 bytes, else element
  /// by element.
  void storeLanes(const interp::StmtNode &store, ValueRange values,
                  ValueRange flats, ValueRange valid);
  /// The elements `store` writes at the lanes `flats`, loaded as
  /// `storeLanes` stores them, in f32.
  Lanes loadLanes(const interp::StmtNode &store, ValueRange flats,
                  ValueRange valid);
  /// The vector width (elements) in which the lanes `flats` of `store`'s
  /// region load and store: the widest power of two up to 16 bytes that
  /// divides the rows of their lane block, when those rows are aligned
  /// vectors in the tensor; else 1.
  int64_t laneRunWidth(const interp::StmtNode &store, ValueRange flats,
                       ValueRange valid) const;
  /// The widest power of two of elements, up to 16 bytes of `store`'s
  /// tensor, that divides `rowElements` and the stored region's rows and
  /// whose runs are aligned vectors in the tensor (`accessRuns`); 1 if none
  /// (or the tensor is not loaded as vectors).
  int64_t widestRun(const interp::StmtNode &store, int64_t rowElements) const;
  /// Emits `store` of a permuted load that moves the loaded tensor's
  /// innermost dimension (a transpose) in 8 x 8 blocks per thread: 8 vector
  /// loads along the source's rows, 8 vector stores along the destination's;
  /// false (emitting nothing) when the store is no such copy.
  bool emitTransposedStore(const interp::StmtNode &store);

  //===--------------------------------------------------------------------===//
  // Split accumulations (EmitSplitAccumulation.cpp)
  //===--------------------------------------------------------------------===//

  /// The kernel's split accumulation loop (this block's chunk of iterations
  /// combined per element, then into the accumulator atomically), or a
  /// loop of `Kernel::slicedLoops` (all iterations summed in k slices, the
  /// sums stored). False, emitting nothing, for a sliced loop whose lanes
  /// do not line up with the block's threads.
  bool emitSplitAccumulation(const interp::StmtNode &loop);
  /// How accumulation `store` combines (`S = S + g`, `max(S, g)` or
  /// `min(S, g)`: Add, Max or Min), and that function's identity.
  interp::BinaryFn combineFn(const interp::StmtNode &store) const;
  Value combineIdentity(interp::BinaryFn fn);
  /// The run width (elements) in which a split accumulation adds to the
  /// region `store` writes (`Kernel::vectorAtomics`, f32 tensors, sums):
  /// `widestRun` (4, 2 or 1), else 1.
  int64_t atomicRunWidth(const interp::StmtNode &store,
                         int64_t rowElements) const;
  /// Combines `values` (f32) atomically into the elements `store`'s region
  /// holds at `flat` and the next ones: for a sum one
  /// `red.global.add.v4.f32` (or v2) for a run, else `memref.atomic_rmw`
  /// (`addf`, `maxnumf`, `minnumf`) per value.
  void atomicAddRun(const interp::StmtNode &store, Value flat,
                    ValueRange values);

  //===--------------------------------------------------------------------===//
  // Warp loops (EmitWarpLoop.cpp)
  //===--------------------------------------------------------------------===//

  /// The kernel's warp loop (`Kernel::warpLoop`): false, emitting nothing,
  /// when its tile's matmuls or its products' right operands do not load as
  /// the matrix-unit lanes need (the block then runs the loop as any other).
  bool emitWarpLoop(const interp::StmtNode &loop);
  /// A warp loop's partial sums (`sums`, this lane's) added up over the
  /// block's warps in shared memory (`WarpLoop::reduceInBlock`): the first
  /// warp's result holds the block's.
  SmallVector<Value> reduceWarpSums(ArrayRef<Value> sums, Value lane,
                                    Value warpId);
  /// `v` combined by `fn` over the four lanes of the quad that holds a row
  /// of a matrix-unit accumulator (shuffles with lane xor 1 and 2).
  Value quadCombine(interp::ReduceFn fn, Value v);
  /// An m16n8 accumulator fragment (vector<2x2xf32>, rows g and g + 8)
  /// with row r multiplied by `factors[r]`.
  Value scaleRows(Value fragment, ArrayRef<Value> factors);
  /// The end of an online warp loop (`WarpLoop::Online`), from each
  /// warp's `state` (its maxima of rows g and g + 8, then its partial
  /// sums): the warps' states merged in shared memory, then the block's
  /// merged by the first warp with the tensors' contents and stored.
  void finishOnlineWarpLoop(ArrayRef<Value> state, Value lane, Value warpId);
  /// `body()` where row g + 8r of the warp's 16 is a row of the tile
  /// (`WarpLoop::rows`; not a copy) and `also` (if given) holds.
  void ifRealRow(Value g, int64_t r, Value also,
                 llvm::function_ref<void()> body);
  /// The end of an online warp loop split across blocks
  /// (`Kernel::splitsOnline`): the first warp writes the block's state
  /// (`maxima`, then the warp-merged `sums`) to its scratch, the block
  /// counts itself, and the last block of the grid point merges every
  /// chunk's state with the tensors' and sets `EmissionContext::lastBlock`.
  void mergeOnlineChunks(ArrayRef<Value> maxima, ArrayRef<Value> sums,
                         Value lane, Value warpId);
  /// Calls `fn(flat, r, h, first)` for each run of c consecutive columns
  /// of an n-column warp-loop product that this lane holds (c = 8, 4 or 2
  /// per pass of 64, 32 or 16 columns): `flat` the run's first element in
  /// the product's [16, n] tile (row g + 8r), its values element (r, h) of
  /// accumulators first .. first + c - 1.
  void forEachProductRun(
      int64_t n, Value g, Value t,
      llvm::function_ref<void(Value, int64_t, int64_t, int64_t)> fn);
  /// Calls `fn(store, offset, flat, value, r)` for each element of an
  /// online warp loop's sums (`sums`, the merged ones of the first warp)
  /// that this lane holds, under `if` so that each element is visited
  /// once: a row sum (added over its quad) by the quad's first lane. `store`
  /// is the accumulation, `offset` where its sums start in a block's state
  /// (after the 16 maxima), `flat` the element in its tile, r the lane's row
  /// (g + 8r).
  void forEachOnlineSum(
      ArrayRef<Value> sums, Value g, Value t,
      llvm::function_ref<void(const interp::StmtNode &, int64_t, Value, Value,
                              int64_t)>
          fn);
  /// The weight of an online state of maximum `x` in one of maximum `to`:
  /// exp(x - to), and 0 for a state that has seen nothing (x = -inf).
  Value stateWeight(Value x, Value to);
  /// `body()` under `if (cond)`.
  void ifThen(Value cond, llvm::function_ref<void()> body);
  /// Element `flat` of the region `store` writes, in f32.
  Value loadElement(const interp::StmtNode &store, Value flat);

  //===--------------------------------------------------------------------===//
  // Block matmuls (EmitBlockMatmul.cpp)
  //===--------------------------------------------------------------------===//

  /// The kernel's block matmul (`Kernel::blockMatmul`): false, emitting
  /// nothing, when its operands do not load in aligned 16-byte runs or the
  /// block's threads do not divide their runs (the loop then runs as any
  /// element loop).
  bool emitBlockMatmul(const interp::StmtNode &loop);

  /// The expression values emitted during one evaluation: from the
  /// outermost `element` or `elementRun` call to its return (stores and
  /// barriers come between evaluations, never inside one). A value several
  /// operands share is then emitted once per element instead of once per
  /// use, which is exponential in the depth of a shared DAG (each level
  /// using the one below twice: 2^depth). Entries whose values do not
  /// dominate the insertion point (emitted in a loop or branch since left)
  /// are not reused.
  struct ExprMemo {
    struct Entry {
      SmallVector<Value> flats;
      int64_t run;
      Lanes values;
    };
    llvm::DenseMap<unsigned, SmallVector<Entry, 1>> entries;
    unsigned depth = 0;
  };
  /// Opens an evaluation for its lifetime; the outermost one clears the
  /// memo when it ends.
  class Evaluation {
  public:
    explicit Evaluation(ExprMemo &memo) : memo(memo) { ++memo.depth; }
    ~Evaluation() {
      if (--memo.depth == 0)
        memo.entries.clear();
    }

  private:
    ExprMemo &memo;
  };
  ExprMemo evaluated;

  /// The state emitted over.
  EmissionContext &cx;
  // Shorthands for the context's fixed fields.
  const interp::Plan &plan;
  const Kernel &kernel;
  ArrayRef<ElementKind> tensorKinds;
  OpBuilder &b;
  Location loc;
  Type f32;
};

} // namespace mlir::tileir::gpu_lowering

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_KERNELEMITTERIMPL_H
