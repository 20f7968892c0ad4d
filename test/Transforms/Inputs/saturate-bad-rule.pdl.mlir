module {
  pdl.pattern @UsesUnknownNative : benefit(1) {
    %x = operand
    %root = operation "tile.exp"(%x : !pdl.value)
    apply_native_constraint "NoSuchGuard"(%x : !pdl.value)
    rewrite %root {
      replace %root with (%x : !pdl.value)
    }
  }
}
