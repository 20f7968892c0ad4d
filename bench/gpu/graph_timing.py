"""CUDA-graph timing, shared by bench.py and the single-program GPU checks
(capi-torch.py, fx-llama.py): launch gaps out of the figure, as PyTorch
is timed."""

import statistics


def time_graph(fn, args, samples, replays):
    """Per-call us: fn(*args) captured once in a CUDA graph, replayed;
    median over `samples` of `replays` back-to-back replays. Returns the
    time and the graph's outputs (after the last replay)."""
    import torch

    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn(*args)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        outs = fn(*args)
    torch.cuda.synchronize()
    for _ in range(replays):
        g.replay()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(samples):
        start.record()
        for _ in range(replays):
            g.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / replays)
    return statistics.median(times), outs, g
