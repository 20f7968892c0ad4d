#!/usr/bin/env python3
"""A stand-in for tile-gpu-run in tile-tune's tests: deterministic times by
variant name (the artifact directory's), every check passing; --probe names
a fake device. Base 100 us; split_k=8 takes 10 off, pipeline_loads=0 5,
k_slices=16 makes it 50 (the test injects that one's check failing), an
optimizer's candidate 40. FAKE_RUNNER_LOG=FILE logs each run's device."""
import os
import sys

if "--probe" in sys.argv:
    print("device: Stub GPU (sm_90), driver 13.0")
    sys.exit(0)
name = os.path.basename(sys.argv[1].rstrip("/"))
# With FAKE_RUNNER_LOG set, each run appends "device I" (its --device-index).
if os.environ.get("FAKE_RUNNER_LOG"):
    device = sys.argv[sys.argv.index("--device-index") + 1] \
        if "--device-index" in sys.argv else "none"
    with open(os.environ["FAKE_RUNNER_LOG"], "a") as log:
        log.write("device %s\n" % device)
us = 100.0
if "split_k=8" in name:
    us -= 10
if "pipeline_loads=0" in name:
    us -= 5
if "k_slices=16" in name:
    us = 50.0
if "candidate" in name:
    us = 40.0
print("PASS: 1 outputs, tolerance 0.01, seed 0")
print("median_us=%.1f min_us=%.1f max_us=%.1f runs=5 kernels=4 "
      "graph_replays=10" % (us, us - 0.5, us + 0.5))
