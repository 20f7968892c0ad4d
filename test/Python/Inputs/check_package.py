"""The tile_opt package on the host emulation (no GPU): compile, call, the
cache, check(), and every error a caller makes. Prints one line per check
for package.test's FileCheck."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.environ["TILE_SRC_ROOT"], "python"))
import tile_opt  # noqa: E402
import tile_opt.compiler as compiler  # noqa: E402

QUICKSTART = os.path.join(os.environ["TILE_SRC_ROOT"], "examples",
                          "quickstart.mlir")


def entries():
    return len([d for d in os.listdir(tile_opt.cache_dir())
                if os.path.isdir(os.path.join(tile_opt.cache_dir(), d))])


def reference(x, g, w):
    xf = x.float()
    xn = (xf / torch.sqrt((xf * xf).mean(1, keepdim=True) + 1e-6)
          * g.float()).half()
    return xn.float() @ w.float()


def rel(a, b):
    return ((a.double() - b.double()).abs().max() / b.double().abs().max()).item()


kernel = tile_opt.compile(QUICKSTART)
print("compiled:", kernel)
torch.manual_seed(1)
x = torch.randn(32, 512).half()
g = (1 + 0.1 * torch.randn(512)).half()
w = (0.02 * torch.randn(512, 256)).half()
y = kernel(x, g, w)
print("call: %s %s %s" % (list(y.shape), y.dtype,
                          "ok" if rel(y, reference(x, g, w)) < 1e-2 else "WRONG"))
out = torch.full((32, 256), 7.0).half()
r = kernel(x, g, w, out=out)
print("out=: %s %s" % (r is out, "ok" if rel(out, reference(x, g, w)) < 1e-2
                       else "WRONG"))
passed, report = kernel.check()
print("check: %s" % passed)

# The cache: the same source and options hit; other options, another source
# or another compiler version miss.
print("entries: %d" % entries())
tile_opt.compile(QUICKSTART)
print("same again: %d" % entries())
tile_opt.compile(QUICKSTART, optimize=False)
print("optimize=False: %d" % entries())
with open(QUICKSTART) as f:
    text = f.read()
tile_opt.compile(text.replace("1.0e-06", "1.0e-05"))
print("other source: %d" % entries())
real_version = compiler._version
compiler._version = lambda tools: "tile-opt 99.0.0 (git other)"
tile_opt.compile(QUICKSTART)
compiler._version = real_version
print("other compiler version: %d" % entries())

# Errors: each names the argument and what was expected.
for what, call in [
        ("dtype", lambda: kernel(x.float(), g, w)),
        ("shape", lambda: kernel(x[:, :8], g, w)),
        ("contiguity", lambda: kernel(x.t().contiguous().t(), g, w)),
        ("count", lambda: kernel(x, g)),
        ("type", lambda: kernel(x.numpy(), g, w))]:
    try:
        call()
        print("%s: NOT RAISED" % what)
    except (TypeError, ValueError) as e:
        print("%s: %s: %s" % (what, type(e).__name__, e))

unsupported = """
func.func @pad(%x: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p : tensor<6x6xf32>
}
"""
try:
    tile_opt.compile(unsupported)
    print("unsupported: NOT RAISED")
except tile_opt.CompileError as e:
    print("unsupported: %s" % str(e).splitlines()[0])

os.environ["TILE_OPT_TOOLS"] = "/nonexistent"
try:
    tile_opt.compile(QUICKSTART)
    print("tools: NOT RAISED")
except tile_opt.ToolsNotFound as e:
    print("tools: %s" % e)
