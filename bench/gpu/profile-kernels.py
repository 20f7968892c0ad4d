#!/usr/bin/env python3
"""Profiles every kernel of runtime artifacts with Nsight Compute (ncu).

Runs on the GPU machine: for each artifact directory, `ncu` profiles one run
of `tile-gpu-run DIR --time --warmup 0 --repetitions 1` (each kernel alone,
L2 flushed before it, clocks not locked), and prints per kernel its time, the
DRAM bytes it moved and their rate, DRAM and SM throughput (% of peak),
achieved occupancy, registers, grid, and the largest warp stall reasons, with
a one-word reading of what limits it:

  dram       DRAM throughput >= 75 % of peak: the kernel streams at the
             memory's rate
  latency    DRAM and SM both below 60 %, most stalls on long scoreboard
             (global loads in flight): too few bytes in flight per SM
  sync       most stalls at barriers or memory fences
  compute    SM throughput >= 60 %
  short      under 5 us: launch, ramp-up and drain dominate

The run is launched more than once (tile-gpu-run checks a run before timing
one); each kernel's row is its median-time launch.
  mixed      none of these

Usage (from the repository root, on the GPU machine):
  python3 bench/gpu/profile-kernels.py --runner build/bin/tile-gpu-run \
      --out $OUT/profile.md DIR [DIR ...]
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

BASE = [
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__registers_per_thread",
    "launch__grid_size",
    "launch__block_size",
]
STALLS = {
    "long_scoreboard": "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
    "barrier": "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
    "membar": "smsp__warp_issue_stalled_membar_per_warp_active.pct",
    "lg_throttle": "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
    "mio_throttle": "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
    "short_scoreboard": "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
    "math_pipe": "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
    "wait": "smsp__warp_issue_stalled_wait_per_warp_active.pct",
}


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def run_ncu(ncu, runner, directory, metrics):
    """Returns the rows of ncu's raw CSV page, one per kernel, or None."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw",
               "--log-file", log, "--metrics", ",".join(metrics),
               runner, directory, "--time", "--warmup", "0",
               "--repetitions", "1", "--quiet"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.exists(log):
            sys.stderr.write(f"{directory}: ncu failed ({proc.returncode}):\n"
                             f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}\n")
            return None
        with open(log) as f:
            lines = [l for l in f if l.startswith('"')]
    rows = list(csv.DictReader(lines))
    # The row after the header holds the units.
    return [r for r in rows if r.get("ID", "").strip().isdigit()]


def one_run(rows):
    """tile-gpu-run launches the sequence more than once (a checked run, the
    timed ones): folds the rows to one run, each position the run with the
    median time."""
    names = [r.get("Kernel Name", "") for r in rows]
    period = next(p for p in range(1, len(rows) + 1)
                  if len(rows) % p == 0
                  and all(names[i] == names[i % p] for i in range(len(rows))))
    folded = []
    for j in range(period):
        runs = sorted(rows[j::period],
                      key=lambda r: number(r.get("gpu__time_duration.sum")) or 0)
        folded.append(runs[len(runs) // 2])
    return folded, len(rows) // period


def reading(time_us, dram, sm, stalls):
    if dram is not None and dram >= 75:
        return "dram"
    if sm is not None and sm >= 60:
        return "compute"
    if time_us is not None and time_us < 5:
        return "short"
    top = max(stalls, key=lambda k: stalls[k] or 0) if stalls else None
    if top == "long_scoreboard":
        return "latency"
    if top in ("barrier", "membar"):
        return "sync"
    return "mixed"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    p.add_argument("dirs", nargs="+", help="artifact directories")
    p.add_argument("--runner", default="build/bin/tile-gpu-run")
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--out", help="also write the table to this file")
    args = p.parse_args()

    metrics = BASE + list(STALLS.values())
    lines = ["| artifact | # | kernel | us | DRAM MB | TB/s | DRAM % | SM % | "
             "occupancy % | regs | grid x block | top stalls (% of warp time) | "
             "limit |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for d in args.dirs:
        rows = run_ncu(args.ncu, args.runner, d, metrics)
        with_stalls = rows is not None
        if rows is None:  # an ncu without the stall metrics: the base set
            rows = run_ncu(args.ncu, args.runner, d, BASE)
        if rows is None:
            lines.append(f"| {os.path.basename(d)} | – | ncu failed | | | | | | | | | | |")
            continue
        rows, runs = one_run(rows) if rows else ([], 0)
        total = 0.0
        for i, r in enumerate(rows):
            ns = number(r.get("gpu__time_duration.sum"))
            us = ns / 1e3 if ns is not None else None
            total += us or 0
            moved = sum(number(r.get(m)) or 0
                        for m in ("dram__bytes_read.sum", "dram__bytes_write.sum"))
            dram = number(r.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"))
            sm = number(r.get("sm__throughput.avg.pct_of_peak_sustained_elapsed"))
            occ = number(r.get("sm__warps_active.avg.pct_of_peak_sustained_active"))
            stalls = ({k: number(r.get(m)) for k, m in STALLS.items()}
                      if with_stalls else {})
            top = sorted(((v, k) for k, v in stalls.items() if v), reverse=True)[:2]
            name = r.get("Kernel Name", "?").split("(")[0]
            lines.append(
                f"| {os.path.basename(d.rstrip('/'))} | {i} | {name} | "
                f"{us:.1f} | {moved / 1e6:.1f} | "
                f"{moved / 1e6 / us if us else 0:.2f} | {dram or 0:.0f} | "
                f"{sm or 0:.0f} | {occ or 0:.0f} | "
                f"{r.get('launch__registers_per_thread', '?')} | "
                f"{r.get('launch__grid_size', '?')} x {r.get('launch__block_size', '?')} | "
                f"{', '.join(f'{k} {v:.0f}' for v, k in top)} | "
                f"{reading(us, dram, sm, stalls)} |")
        lines.append(f"| {os.path.basename(d.rstrip('/'))} | | **sum** | "
                     f"**{total:.1f}** | | | | | | | | {runs} runs, the median each | |")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
