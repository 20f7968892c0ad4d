// linalg.softmax on bf16 logits (torch.softmax on a bf16 tensor): every op
// rounds to bf16 (test/GPU/emulate-regressions.test).
func.func @softmax_bf16(
    %X: tensor<7x50xbf16> {tile.name = "X", tile.init = "normal(0.0, 3.0)"}
) -> (tensor<7x50xbf16> {tile.name = "P"}) {
  %e = tensor.empty() : tensor<7x50xbf16>
  %P = linalg.softmax dimension(1) ins(%X : tensor<7x50xbf16>)
                                   outs(%e : tensor<7x50xbf16>) -> tensor<7x50xbf16>
  return %P : tensor<7x50xbf16>
}
