import torch, statistics
def t(fn, reps=10, samples=40):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3): fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps): fn()
    ts = []
    for _ in range(samples):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) * 1000 / reps)
    return statistics.median(ts)
h = torch.float16
for K, N in [(4096, 12288), (4096, 4096)]:
    x = torch.randn(16, K, device="cuda", dtype=h)
    ws = [torch.randn(K, N, device="cuda", dtype=h) * 0.02 for _ in range(2)]
    i = [0]
    def f():
        i[0] ^= 1
        return torch.mm(x, ws[i[0]], out_dtype=torch.float32)
    us = t(f)
    print(f"cublas 16x{K}x{N} (f32 out): {us:.1f} us, {K*N*2/us/1e6:.3f} TB/s")
from torch.profiler import profile, ProfilerActivity
x = torch.randn(16, 4096, device="cuda", dtype=h); w = torch.randn(4096, 12288, device="cuda", dtype=h)
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(3): torch.mm(x, w, out_dtype=torch.float32)
    torch.cuda.synchronize()
for e in prof.key_averages(): print("kernel:", e.key[:200], f"{e.device_time:.1f}us x{e.count}")
