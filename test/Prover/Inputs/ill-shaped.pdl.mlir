// (a / bcast(s, [0])) @ c -> (a @ c) / BroadcastTo(s, [0], a @ c): s has
// a's column extent but the broadcast to a @ c needs c's: the replacement
// is ill-shaped unless the two agree.
module {
  pdl.pattern @DivMatmulIllShaped : benefit(1) {
    %a = operand
    %s = operand
    %c = operand
    %dims = attribute = array<i64: 0>
    %b = operation "tile.bcast"(%s : !pdl.value) {"dims" = %dims}
    %rb = result 0 of %b
    %d = operation "tile.div"(%a, %rb : !pdl.value, !pdl.value)
    %rd = result 0 of %d
    %root = operation "tile.matmul"(%rd, %c : !pdl.value, !pdl.value)
    rewrite %root {
      %m = operation "tile.matmul"(%a, %c : !pdl.value, !pdl.value)
      %rm = result 0 of %m
      %sb = apply_native_rewrite "BroadcastTo"(%s, %dims, %rm : !pdl.value, !pdl.attribute, !pdl.value) : !pdl.value
      %new = operation "tile.div"(%rm, %sb : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
}
