module {
  pdl.pattern @Mystery : benefit(1) {
    %a = operand
    %root = operation "tile.exp"(%a : !pdl.value)
    apply_native_constraint "IsMysterious"(%a : !pdl.value)
    rewrite %root {
      replace %root with (%a : !pdl.value)
    }
  }
  pdl.pattern @MysteryRewrite : benefit(1) {
    %a = operand
    %root = operation "tile.exp"(%a : !pdl.value)
    rewrite %root {
      %new = apply_native_rewrite "Mysterize"(%a : !pdl.value) : !pdl.value
      replace %root with (%new : !pdl.value)
    }
  }
}
