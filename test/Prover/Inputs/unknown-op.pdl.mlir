module {
  pdl.pattern @Frobnicate : benefit(1) {
    %a = operand
    %root = operation "tile.frobnicate"(%a : !pdl.value)
    rewrite %root {
      replace %root with (%a : !pdl.value)
    }
  }
}
