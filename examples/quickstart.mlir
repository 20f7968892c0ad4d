// The program of the README's quick start: an RMS normalization followed by
// a projection, Y = rms(X, g) @ W with rms(x, g) = x / sqrt(mean(x*x) + 1e-6) * g.
// f16 storage, f32 arithmetic. test/Docs/quickstart.test runs the quick start
// on it.

#rows = affine_map<(m, k) -> (m)>
#elems = affine_map<(m, k) -> (m, k)>
#cols = affine_map<(m, k) -> (k)>

func.func @rmsnorm_matmul(
    %X: tensor<32x512xf16> {tile.name = "X"},
    %g: tensor<512xf16> {tile.name = "g"},
    %W: tensor<512x256xf16> {tile.name = "W"}
) -> (tensor<32x256xf16> {tile.name = "Y"}) {
  %zero = arith.constant 0.0 : f32

  // ss[m] = sum_k X[m, k]^2
  %ss_init = tensor.empty() : tensor<32xf32>
  %ss_zero = linalg.fill ins(%zero : f32) outs(%ss_init : tensor<32xf32>) -> tensor<32xf32>
  %ss = linalg.generic {indexing_maps = [#elems, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<32x512xf16>) outs(%ss_zero : tensor<32xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %sq = arith.mulf %xf, %xf : f32
    %sum = arith.addf %acc, %sq : f32
    linalg.yield %sum : f32
  } -> tensor<32xf32>

  // Xn[m, k] = X[m, k] / sqrt(ss[m] / 512 + 1e-6) * g[k]
  %xn_init = tensor.empty() : tensor<32x512xf16>
  %Xn = linalg.generic {indexing_maps = [#elems, #rows, #cols, #elems], iterator_types = ["parallel", "parallel"]}
      ins(%X, %ss, %g : tensor<32x512xf16>, tensor<32xf32>, tensor<512xf16>) outs(%xn_init : tensor<32x512xf16>) {
  ^bb0(%x: f16, %s: f32, %gk: f16, %out: f16):
    %n = arith.constant 512.0 : f32
    %eps = arith.constant 1.0e-06 : f32
    %mean = arith.divf %s, %n : f32
    %var = arith.addf %mean, %eps : f32
    %den = math.sqrt %var : f32
    %xf = arith.extf %x : f16 to f32
    %gf = arith.extf %gk : f16 to f32
    %q = arith.divf %xf, %den : f32
    %y = arith.mulf %q, %gf : f32
    %yh = arith.truncf %y : f32 to f16
    linalg.yield %yh : f16
  } -> tensor<32x512xf16>

  // Y = Xn @ W, accumulated in f32 and stored as f16
  %acc_init = tensor.empty() : tensor<32x256xf32>
  %acc_zero = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<32x256xf32>) -> tensor<32x256xf32>
  %acc = linalg.matmul ins(%Xn, %W : tensor<32x512xf16>, tensor<512x256xf16>)
                       outs(%acc_zero : tensor<32x256xf32>) -> tensor<32x256xf32>
  %y_init = tensor.empty() : tensor<32x256xf16>
  %Y = linalg.generic {indexing_maps = [#elems, #elems], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<32x256xf32>) outs(%y_init : tensor<32x256xf16>) {
  ^bb0(%a: f32, %out: f16):
    %ah = arith.truncf %a : f32 to f16
    linalg.yield %ah : f16
  } -> tensor<32x256xf16>
  return %Y : tensor<32x256xf16>
}
