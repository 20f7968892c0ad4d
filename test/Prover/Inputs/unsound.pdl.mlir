// Deliberately unsound rules: tile-prove must refute each with a
// counterexample (test/Prover/refute-unsound.test).
module {
  // a - b -> b - a
  pdl.pattern @SubComm : benefit(1) {
    %a = operand
    %b = operand
    %root = operation "tile.sub"(%a, %b : !pdl.value, !pdl.value)
    rewrite %root {
      %new = operation "tile.sub"(%b, %a : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // exp(a + b) -> exp(a) + exp(b)
  pdl.pattern @ExpAddToAdd : benefit(1) {
    %a = operand
    %b = operand
    %s = operation "tile.add"(%a, %b : !pdl.value, !pdl.value)
    %rs = result 0 of %s
    %root = operation "tile.exp"(%rs : !pdl.value)
    rewrite %root {
      %ea = operation "tile.exp"(%a : !pdl.value)
      %rea = result 0 of %ea
      %eb = operation "tile.exp"(%b : !pdl.value)
      %reb = result 0 of %eb
      %new = operation "tile.add"(%rea, %reb : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // a * (b + c) -> a * b + c
  pdl.pattern @HalfDistribute : benefit(1) {
    %a = operand
    %b = operand
    %c = operand
    %s = operation "tile.add"(%b, %c : !pdl.value, !pdl.value)
    %rs = result 0 of %s
    %root = operation "tile.mul"(%a, %rs : !pdl.value, !pdl.value)
    rewrite %root {
      %ab = operation "tile.mul"(%a, %b : !pdl.value, !pdl.value)
      %rab = result 0 of %ab
      %new = operation "tile.add"(%rab, %c : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // rsum(a * b, axis) -> rsum(a, axis) * rsum(b, axis)
  pdl.pattern @SumOfProduct : benefit(1) {
    %a = operand
    %b = operand
    %axis = attribute
    %m = operation "tile.mul"(%a, %b : !pdl.value, !pdl.value)
    %rm = result 0 of %m
    %root = operation "tile.rsum"(%rm : !pdl.value) {"axis" = %axis}
    rewrite %root {
      %sa = operation "tile.rsum"(%a : !pdl.value) {"axis" = %axis}
      %rsa = result 0 of %sa
      %sb = operation "tile.rsum"(%b : !pdl.value) {"axis" = %axis}
      %rsb = result 0 of %sb
      %new = operation "tile.mul"(%rsa, %rsb : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // (a / bcast(s) along the rows) @ c -> (a @ c) / bcast(s): s is broadcast
  // along dimension 0, so it varies with the contraction index (square
  // tiles, so that the replacement is well-shaped).
  pdl.pattern @DivMatmulWrongDim : benefit(1) {
    %a = operand
    %s = operand
    %c = operand
    %dims = attribute = array<i64: 0>
    %rank2 = attribute = 2 : i64
    %b = operation "tile.bcast"(%s : !pdl.value) {"dims" = %dims}
    %rb = result 0 of %b
    %d = operation "tile.div"(%a, %rb : !pdl.value, !pdl.value)
    %rd = result 0 of %d
    %root = operation "tile.matmul"(%rd, %c : !pdl.value, !pdl.value)
    apply_native_constraint "RankIs"(%a, %rank2 : !pdl.value, !pdl.attribute)
    apply_native_constraint "SameType"(%a, %c : !pdl.value, !pdl.value)
    rewrite %root {
      %m = operation "tile.matmul"(%a, %c : !pdl.value, !pdl.value)
      %rm = result 0 of %m
      %sb = apply_native_rewrite "BroadcastTo"(%s, %dims, %rm : !pdl.value, !pdl.attribute, !pdl.value) : !pdl.value
      %new = operation "tile.div"(%rm, %sb : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // (+ (concat x z a) (concat y w a)) -> (concat (+ z w) (+ x y) a): the
  // halves swapped.
  pdl.pattern @ConcatSwapped : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %c0 = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a}
    %r1 = result 0 of %c1
    %root = operation "tile.add"(%r0, %r1 : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%x, %y : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%z, %w : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%x, %z : !pdl.value, !pdl.value)
    rewrite %root {
      %zw = operation "tile.add"(%z, %w : !pdl.value, !pdl.value)
      %rzw = result 0 of %zw
      %xy = operation "tile.add"(%x, %y : !pdl.value, !pdl.value)
      %rxy = result 0 of %xy
      %new = operation "tile.concat"(%rzw, %rxy : !pdl.value, !pdl.value) {"axis" = %a}
      replace %root with %new
    }
  }
  // (+ (concat x z a) (concat y w a)) -> (concat (+ x w) (+ z y) a): the
  // second operands' halves exchanged; shapes agree (all four alike).
  pdl.pattern @ConcatWrongPairing : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %c0 = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a}
    %r1 = result 0 of %c1
    %root = operation "tile.add"(%r0, %r1 : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%x, %y : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%z, %w : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%x, %z : !pdl.value, !pdl.value)
    rewrite %root {
      %xw = operation "tile.add"(%x, %w : !pdl.value, !pdl.value)
      %rxw = result 0 of %xw
      %zy = operation "tile.add"(%z, %y : !pdl.value, !pdl.value)
      %rzy = result 0 of %zy
      %new = operation "tile.concat"(%rxw, %rzy : !pdl.value, !pdl.value) {"axis" = %a}
      replace %root with %new
    }
  }
  // (matmul (concat a c 1) (concat b d 0)) -> (+ (matmul a d) (matmul c b)):
  // the contraction halves paired at the wrong offset.
  pdl.pattern @ConcatMatmulWrongOffset : benefit(1) {
    %a = operand
    %b = operand
    %c = operand
    %d = operand
    %a0 = attribute = 0 : i64
    %a1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %l = operation "tile.concat"(%a, %c : !pdl.value, !pdl.value) {"axis" = %a1}
    %rl = result 0 of %l
    %r = operation "tile.concat"(%b, %d : !pdl.value, !pdl.value) {"axis" = %a0}
    %rr = result 0 of %r
    %root = operation "tile.matmul"(%rl, %rr : !pdl.value, !pdl.value)
    apply_native_constraint "RankIs"(%a, %rank2 : !pdl.value, !pdl.attribute)
    apply_native_constraint "Contractible"(%a, %d : !pdl.value, !pdl.value)
    apply_native_constraint "Contractible"(%c, %b : !pdl.value, !pdl.value)
    rewrite %root {
      %ad = operation "tile.matmul"(%a, %d : !pdl.value, !pdl.value)
      %rad = result 0 of %ad
      %cb = operation "tile.matmul"(%c, %b : !pdl.value, !pdl.value)
      %rcb = result 0 of %cb
      %new = operation "tile.add"(%rad, %rcb : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
}
