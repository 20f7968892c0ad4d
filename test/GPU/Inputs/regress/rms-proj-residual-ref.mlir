#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m2r = affine_map<(d0, d1) -> (d0)>
#m2c = affine_map<(d0, d1) -> (d1)>
func.func @rms(%X: tensor<16x256xf16> {tile.name = "X"}, %g: tensor<256xf16> {tile.name = "g"}, %W: tensor<256x256xf16> {tile.name = "W"}, %R: tensor<16x256xf16> {tile.name = "R"}) -> (tensor<16x256xf16> {tile.name = "Y"}) {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<16xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<16xf32>) -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [#m2, #m2r], iterator_types = ["parallel", "reduction"]} ins(%X : tensor<16x256xf16>) outs(%z8 : tensor<16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %cz = arith.constant 0.0 : f32
    %xf = arith.extf %x : f16 to f32
    %d = arith.mulf %xf, %xf : f32
    %a = arith.addf %d, %o : f32
    linalg.yield %a : f32 } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16x256xf16>
  %nrm = linalg.generic {indexing_maps = [#m2, #m2r, #m2c, #m2], iterator_types = ["parallel", "parallel"]} ins(%X, %sq, %g : tensor<16x256xf16>, tensor<16xf32>, tensor<256xf16>) outs(%e : tensor<16x256xf16>) {
  ^bb0(%x: f16, %s: f32, %gg: f16, %o: f16):
    %cz = arith.constant 0.0 : f32
    %n = arith.constant 256.0 : f32
    %v = arith.divf %s, %n : f32
    %eps = arith.constant 1.0e-5 : f32
    %v2 = arith.addf %v, %eps : f32
    %r = math.rsqrt %v2 : f32
    %xf = arith.extf %x : f16 to f32
    %ggf = arith.extf %gg : f16 to f32
    %y = arith.mulf %xf, %r : f32
    %y2 = arith.mulf %y, %ggf : f32
    %y3 = arith.truncf %y2 : f32 to f16
    linalg.yield %y3 : f16 } -> tensor<16x256xf16>
  %i = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<16x256xf32>) -> tensor<16x256xf32>
  %y = linalg.matmul ins(%nrm, %W : tensor<16x256xf16>, tensor<256x256xf16>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %eo = tensor.empty() : tensor<16x256xf16>
  %o = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y, %R : tensor<16x256xf32>, tensor<16x256xf16>) outs(%eo : tensor<16x256xf16>) {
  ^bb0(%a: f32, %b: f16, %oo: f16):
    %cz = arith.constant 0.0 : f32
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %a, %bf : f32
    %s3 = arith.truncf %s : f32 to f16
    linalg.yield %s3 : f16 } -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}
