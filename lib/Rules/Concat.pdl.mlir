// Concat rules of Trinity Appendix A.2, written in PDL directly: tile.concat
// is variadic, and PDLL (with the ODS definition in scope) only lets a
// pattern name its operands as one range, while these rules match binary
// concats operand by operand. The e-matcher reads PDL either way.
// Native constraints and rewrites: lib/Rules/Natives.cpp.
module {
  // (concat (concat x z 0) (concat y w 0) 1) -> (concat (concat x y 1) (concat z w 1) 0)
  pdl.pattern @GeometryOfConcat : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a0 = attribute = 0 : i64
    %a1 = attribute = 1 : i64
    %c0 = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a0}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a0}
    %r1 = result 0 of %c1
    %root = operation "tile.concat"(%r0, %r1 : !pdl.value, !pdl.value) {"axis" = %a1}
    apply_native_constraint "Concatenable"(%x, %y, %a1 : !pdl.value, !pdl.value, !pdl.attribute)
    apply_native_constraint "Concatenable"(%z, %w, %a1 : !pdl.value, !pdl.value, !pdl.attribute)
    rewrite %root {
      %xy = apply_native_rewrite "ConcatOf"(%x, %y, %a1 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %zw = apply_native_rewrite "ConcatOf"(%z, %w, %a1 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %new = apply_native_rewrite "ConcatOf"(%xy, %zw, %a0 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      replace %root with (%new : !pdl.value)
    }
  }
  // (concat (concat x y 1) (concat z w 1) 0) -> (concat (concat x z 0) (concat y w 0) 1)
  pdl.pattern @GeometryOfConcatInv : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a0 = attribute = 0 : i64
    %a1 = attribute = 1 : i64
    %c0 = operation "tile.concat"(%x, %y : !pdl.value, !pdl.value) {"axis" = %a1}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%z, %w : !pdl.value, !pdl.value) {"axis" = %a1}
    %r1 = result 0 of %c1
    %root = operation "tile.concat"(%r0, %r1 : !pdl.value, !pdl.value) {"axis" = %a0}
    apply_native_constraint "Concatenable"(%x, %z, %a0 : !pdl.value, !pdl.value, !pdl.attribute)
    apply_native_constraint "Concatenable"(%y, %w, %a0 : !pdl.value, !pdl.value, !pdl.attribute)
    rewrite %root {
      %xz = apply_native_rewrite "ConcatOf"(%x, %z, %a0 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %yw = apply_native_rewrite "ConcatOf"(%y, %w, %a0 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %new = apply_native_rewrite "ConcatOf"(%xz, %yw, %a1 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      replace %root with (%new : !pdl.value)
    }
  }
  // (+ (concat x z a) (concat y w a)) -> (concat (+ x y) (+ z w) a)
  pdl.pattern @OperatorComm6 : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %t = type
    %c0 = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a}
    %r1 = result 0 of %c1
    %root = operation "tile.add"(%r0, %r1 : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    apply_native_constraint "SameType"(%x, %y : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%z, %w : !pdl.value, !pdl.value)
    rewrite %root {
      %xy = operation "tile.add"(%x, %y : !pdl.value, !pdl.value)
      %rxy = result 0 of %xy
      %zw = operation "tile.add"(%z, %w : !pdl.value, !pdl.value)
      %rzw = result 0 of %zw
      %new = operation "tile.concat"(%rxy, %rzw : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      replace %root with %new
    }
  }
  // (concat (+ x y) (+ z w) a) -> (+ (concat x z a) (concat y w a))
  pdl.pattern @OperatorComm6Inv : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %t = type
    %s0 = operation "tile.add"(%x, %y : !pdl.value, !pdl.value)
    %r0 = result 0 of %s0
    %s1 = operation "tile.add"(%z, %w : !pdl.value, !pdl.value)
    %r1 = result 0 of %s1
    %root = operation "tile.concat"(%r0, %r1 : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
    rewrite %root {
      %xz = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      %rxz = result 0 of %xz
      %yw = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      %ryw = result 0 of %yw
      %new = operation "tile.add"(%rxz, %ryw : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // (* (concat x z a) (concat y w a)) -> (concat (* x y) (* z w) a)
  pdl.pattern @OperatorComm7 : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %t = type
    %c0 = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a}
    %r0 = result 0 of %c0
    %c1 = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a}
    %r1 = result 0 of %c1
    %root = operation "tile.mul"(%r0, %r1 : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    apply_native_constraint "SameType"(%x, %y : !pdl.value, !pdl.value)
    apply_native_constraint "SameType"(%z, %w : !pdl.value, !pdl.value)
    rewrite %root {
      %xy = operation "tile.mul"(%x, %y : !pdl.value, !pdl.value)
      %rxy = result 0 of %xy
      %zw = operation "tile.mul"(%z, %w : !pdl.value, !pdl.value)
      %rzw = result 0 of %zw
      %new = operation "tile.concat"(%rxy, %rzw : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      replace %root with %new
    }
  }
  // (concat (* x y) (* z w) a) -> (* (concat x z a) (concat y w a))
  pdl.pattern @OperatorComm7Inv : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %w = operand
    %a = attribute
    %t = type
    %s0 = operation "tile.mul"(%x, %y : !pdl.value, !pdl.value)
    %r0 = result 0 of %s0
    %s1 = operation "tile.mul"(%z, %w : !pdl.value, !pdl.value)
    %r1 = result 0 of %s1
    %root = operation "tile.concat"(%r0, %r1 : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
    rewrite %root {
      %xz = operation "tile.concat"(%x, %z : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      %rxz = result 0 of %xz
      %yw = operation "tile.concat"(%y, %w : !pdl.value, !pdl.value) {"axis" = %a} -> (%t : !pdl.type)
      %ryw = result 0 of %yw
      %new = operation "tile.mul"(%rxz, %ryw : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
  // (matmul x (concat y z 1)) -> (concat (matmul x y) (matmul x z) 1), 2-d tiles
  pdl.pattern @ConcatAndMatmul0 : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %a1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %t = type
    %c = operation "tile.concat"(%y, %z : !pdl.value, !pdl.value) {"axis" = %a1}
    %rc = result 0 of %c
    %root = operation "tile.matmul"(%x, %rc : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    apply_native_constraint "RankIs"(%x, %rank2 : !pdl.value, !pdl.attribute)
    rewrite %root {
      %xy = apply_native_rewrite "MatmulOf"(%x, %y, %root : !pdl.value, !pdl.value, !pdl.operation) : !pdl.value
      %xz = apply_native_rewrite "MatmulOf"(%x, %z, %root : !pdl.value, !pdl.value, !pdl.operation) : !pdl.value
      %new = operation "tile.concat"(%xy, %xz : !pdl.value, !pdl.value) {"axis" = %a1} -> (%t : !pdl.type)
      replace %root with %new
    }
  }
  // (concat (matmul x y) (matmul x z) 1) -> (matmul x (concat y z 1)), 2-d tiles
  pdl.pattern @ConcatAndMatmul0Inv : benefit(1) {
    %x = operand
    %y = operand
    %z = operand
    %a1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %t = type
    %m0 = operation "tile.matmul"(%x, %y : !pdl.value, !pdl.value)
    %r0 = result 0 of %m0
    %m1 = operation "tile.matmul"(%x, %z : !pdl.value, !pdl.value)
    %r1 = result 0 of %m1
    %root = operation "tile.concat"(%r0, %r1 : !pdl.value, !pdl.value) {"axis" = %a1} -> (%t : !pdl.type)
    apply_native_constraint "RankIs"(%x, %rank2 : !pdl.value, !pdl.attribute)
    apply_native_constraint "Concatenable"(%y, %z, %a1 : !pdl.value, !pdl.value, !pdl.attribute)
    rewrite %root {
      %yz = apply_native_rewrite "ConcatOf"(%y, %z, %a1 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %new = operation "tile.matmul"(%x, %yz : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      replace %root with %new
    }
  }
  // (+ (matmul a b) (matmul c d)) -> (matmul (concat a c 1) (concat b d 0)), 2-d tiles
  pdl.pattern @ConcatAndMatmul1 : benefit(1) {
    %a = operand
    %b = operand
    %c = operand
    %d = operand
    %a0 = attribute = 0 : i64
    %a1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %t = type
    %m0 = operation "tile.matmul"(%a, %b : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    %r0 = result 0 of %m0
    %m1 = operation "tile.matmul"(%c, %d : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    %r1 = result 0 of %m1
    %root = operation "tile.add"(%r0, %r1 : !pdl.value, !pdl.value)
    apply_native_constraint "RankIs"(%a, %rank2 : !pdl.value, !pdl.attribute)
    apply_native_constraint "Concatenable"(%a, %c, %a1 : !pdl.value, !pdl.value, !pdl.attribute)
    apply_native_constraint "Concatenable"(%b, %d, %a0 : !pdl.value, !pdl.value, !pdl.attribute)
    rewrite %root {
      %ac = apply_native_rewrite "ConcatOf"(%a, %c, %a1 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %bd = apply_native_rewrite "ConcatOf"(%b, %d, %a0 : !pdl.value, !pdl.value, !pdl.attribute) : !pdl.value
      %new = operation "tile.matmul"(%ac, %bd : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      replace %root with %new
    }
  }
  // (matmul (concat a c 1) (concat b d 0)) -> (+ (matmul a b) (matmul c d)), 2-d tiles
  pdl.pattern @ConcatAndMatmul1Inv : benefit(1) {
    %a = operand
    %b = operand
    %c = operand
    %d = operand
    %a0 = attribute = 0 : i64
    %a1 = attribute = 1 : i64
    %rank2 = attribute = 2 : i64
    %t = type
    %l = operation "tile.concat"(%a, %c : !pdl.value, !pdl.value) {"axis" = %a1}
    %rl = result 0 of %l
    %r = operation "tile.concat"(%b, %d : !pdl.value, !pdl.value) {"axis" = %a0}
    %rr = result 0 of %r
    %root = operation "tile.matmul"(%rl, %rr : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    apply_native_constraint "RankIs"(%a, %rank2 : !pdl.value, !pdl.attribute)
    apply_native_constraint "Contractible"(%a, %b : !pdl.value, !pdl.value)
    apply_native_constraint "Contractible"(%c, %d : !pdl.value, !pdl.value)
    rewrite %root {
      %ab = operation "tile.matmul"(%a, %b : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      %rab = result 0 of %ab
      %cd = operation "tile.matmul"(%c, %d : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      %rcd = result 0 of %cd
      %new = operation "tile.add"(%rab, %rcd : !pdl.value, !pdl.value)
      replace %root with %new
    }
  }
}
