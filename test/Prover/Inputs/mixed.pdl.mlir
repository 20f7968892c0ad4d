// A statement rule (skipped) next to a value rule with a reduction, a
// transpose and a splat constant (proved).
module {
  // (seq a b) -> (seq b a): legality is per application.
  pdl.pattern @SeqSwap : benefit(1) {
    %a = operand
    %b = operand
    %root = operation "tile.seq"(%a, %b : !pdl.value, !pdl.value)
    rewrite %root {
      %new = operation "tile.seq"(%b, %a : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // rsum(x * bcast(s), axis) -> rsum(x, axis) * s when s is broadcast along
  // the reduced axis of a 2-d tile.
  pdl.pattern @SumScale : benefit(1) {
    %x = operand
    %s = operand
    %one = attribute = 1 : i64
    %dims = attribute = array<i64: 1>
    %rank2 = attribute = 2 : i64
    %b = operation "tile.bcast"(%s : !pdl.value) {"dims" = %dims}
    %rb = result 0 of %b
    %m = operation "tile.mul"(%x, %rb : !pdl.value, !pdl.value)
    %rm = result 0 of %m
    %root = operation "tile.rsum"(%rm : !pdl.value) {"axis" = %one}
    apply_native_constraint "RankIs"(%x, %rank2 : !pdl.value, !pdl.attribute)
    rewrite %root {
      %sx = operation "tile.rsum"(%x : !pdl.value) {"axis" = %one}
      %rsx = result 0 of %sx
      %new = operation "tile.mul"(%rsx, %s : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // transpose(a @ b) -> transpose(b) @ transpose(a), 2-d.
  pdl.pattern @TransposeMatmul : benefit(1) {
    %a = operand
    %b = operand
    %d0 = attribute = 0 : i64
    %d1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %m = operation "tile.matmul"(%a, %b : !pdl.value, !pdl.value)
    %rm = result 0 of %m
    %root = operation "tile.transpose"(%rm : !pdl.value) {"dim0" = %d0, "dim1" = %d1}
    apply_native_constraint "RankIs"(%a, %rank2 : !pdl.value, !pdl.attribute)
    rewrite %root {
      %tb = operation "tile.transpose"(%b : !pdl.value) {"dim0" = %d0, "dim1" = %d1}
      %rtb = result 0 of %tb
      %ta = operation "tile.transpose"(%a : !pdl.value) {"dim0" = %d0, "dim1" = %d1}
      %rta = result 0 of %ta
      %new = operation "tile.matmul"(%rtb, %rta : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // x * 1 -> x with a splat one.
  pdl.pattern @MulOne : benefit(1) {
    %x = operand
    %one = operand
    %v = attribute = 1.0 : f64
    %root = operation "tile.mul"(%x, %one : !pdl.value, !pdl.value)
    apply_native_constraint "IsSplat"(%one, %v : !pdl.value, !pdl.attribute)
    rewrite %root {
      replace %root with (%x : !pdl.value)
    }
  }
}
