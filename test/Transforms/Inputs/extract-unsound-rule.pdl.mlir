// A deliberately unsound rule, exp(x) -> x, for the check of --tile-extract:
// the cheaper (wrong) program must be caught and dropped.
module {
  pdl.pattern @ExpIsIdentity : benefit(1) {
    %x = operand
    %t = type
    %root = operation "tile.exp"(%x : !pdl.value) -> (%t : !pdl.type)
    rewrite %root {
      replace %root with (%x : !pdl.value)
    }
  }
}
