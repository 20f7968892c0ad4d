//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "TileDialect/IR/TileBase.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_GPUConfigAttr : Tile_Attr<"GPUConfig", "gpu_config"> {
  let summary = "How a tile program is lowered to GPU kernels";
  let description = [{
    Every knob of the GPU lowering, as `key = value` pairs: integers,
    booleans and `tile_sizes = {NAME = N, ...}`. A field that is absent
    takes its default; the fields, their defaults and what they do are
    declared once, in `include/TileDialect/IR/GPUConfigKnobs.def`, and
    listed in docs/GPULowering.md.

    ```mlir
    #tile.gpu_config<mma = true, split_k = 8, min_blocks = 2048,
                     tile_sizes = {tile_i0 = 64}>
    ```

    `--tile-select-gpu-config` records the configuration it chooses for a
    program as its `tile.gpu_config` attribute; explicit options and tuning
    entries override it field by field (`overriddenBy`);
    `--tile-lower-to-gpu` reads it and copies it onto the host function and
    the kernels' `gpu.module`, where the later passes read theirs.
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$fields);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The configuration with no field set: every knob at its default.
    static GPUConfigAttr get(::mlir::MLIRContext *context);
    /// Parses the body of `#tile.gpu_config<...>` (`k_slices = 4, mma =
    /// true`; surrounding braces or quotes are dropped), as options and
    /// tuning entries spell it. Emits nothing; on failure `error` says why.
    static ::mlir::FailureOr<GPUConfigAttr>
    parseBody(::mlir::MLIRContext *context, ::llvm::StringRef text,
              std::string &error);
    /// The body text `parseBody` reads back: the set fields in declaration
    /// order.
    std::string getBody() const;

    /// Whether `key` is set (not left to its default).
    bool isSet(::llvm::StringRef key) const;
    /// This configuration with every field `other` sets taken from `other`
    /// (tile sizes name by name).
    GPUConfigAttr overriddenBy(GPUConfigAttr other) const;
    /// This configuration with `key` set to `value` (an integer or a
    /// boolean knob).
    GPUConfigAttr with(::llvm::StringRef key, int64_t value) const;
    /// This configuration with `key` set only if it is not set yet.
    GPUConfigAttr withDefault(::llvm::StringRef key, int64_t value) const;
    /// This configuration without `key`.
    GPUConfigAttr without(::llvm::StringRef key) const;

    /// Explicit tile sizes (`tile_sizes`), possibly empty.
    ::mlir::DictionaryAttr getTileSizes() const;
    GPUConfigAttr withTileSize(::llvm::StringRef name, int64_t value) const;

    // One accessor per knob: its value, or its default when unset.
#define TILE_GPU_INT_KNOB(Name, Key, Default, Min, Max, Doc)                  \
  int64_t get##Name() const;
#define TILE_GPU_BOOL_KNOB(Name, Key, Default, Doc) bool get##Name() const;
#include "TileDialect/IR/GPUConfigKnobs.def"
  }];
}

#endif // TILE_ATTRS_TD
