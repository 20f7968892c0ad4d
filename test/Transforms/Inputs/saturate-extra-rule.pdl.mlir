// A rule loaded at run time with rules=PATH: x * 2 -> x + x.
module {
  pdl.pattern @DoubleToAdd : benefit(1) {
    %x = operand
    %two = operand
    %t = type
    %root = operation "tile.mul"(%x, %two : !pdl.value, !pdl.value) -> (%t : !pdl.type)
    %v = attribute = 2.0 : f64
    apply_native_constraint "IsSplat"(%two, %v : !pdl.value, !pdl.attribute)
    rewrite %root {
      %sum = operation "tile.add"(%x, %x : !pdl.value, !pdl.value)
      replace %root with %sum
    }
  }
}
