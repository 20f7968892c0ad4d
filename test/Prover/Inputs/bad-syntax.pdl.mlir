module {
  pdl.pattern @Broken : benefit(1) {
    %a = operand
    %root = operation "tile.exp"(%a : !pdl.value
  }
}
