#!/usr/bin/env python3
"""Builds a tuning cache from measured variants.

For every (config, workload) of a bench.py result, the fastest of our
variants that passed its check is looked up among the artifact directories
(`<config>-<workload>-<variant>`); its `tuning.json` (written by
`tile-run --device ... --artifact DIR`: the program's name and hash, the
platform, the chip, and `gpu_config`, the body of the `#tile.gpu_config` the
kernels were lowered with, tile sizes included) becomes the cache entry,
with the measured time, the variant and the device. `tile-run --device cuda
--tuning CACHE` (or the `tuning` option of `--tile-lower-to-nvvm`) then
lowers that program on that chip with the entry's fields, where an explicit
`--gpu-config` does not set them (docs/GPULowering.md, "Tuning by
measurement").

Usage: bench/gpu/tune.py RESULT.json ARTIFACT_ROOT [ARTIFACT_ROOT...]
                         [--out bench/tuning/<device>.json]
Entries of an existing cache file for other programs are kept; entries
without a `gpu_config` string (the format before it: one key per knob) set
nothing and are reported.
"""
import argparse
import json
import os
import re


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("result")
    p.add_argument("roots", nargs="+")
    p.add_argument("--out")
    opts = p.parse_args()
    result = json.load(open(opts.result))
    device = result.get("device", "unknown")
    slug = re.sub(r"[^a-z0-9]+", "-", device.lower()).strip("-")
    out = opts.out or os.path.join("bench", "tuning", slug + ".json")
    cache = {"device": device, "entries": []}
    if os.path.exists(out):
        cache = json.load(open(out))
    by_hash = {e["program_hash"]: e for e in cache.get("entries", [])}
    for e in by_hash.values():
        if not isinstance(e.get("gpu_config"), str):
            print("tune: entry for %s (%s) in %s has no gpu_config string: it "
                  "sets nothing" % (e.get("program", "?"), e["program_hash"], out))
    added = 0
    for w in result["workloads"]:
        best = w.get("ours_best")
        if not best:
            continue
        name = "%s-%s-%s" % (w["config"], w["workload"], best["variant"])
        for root in opts.roots:
            path = os.path.join(root, name, "tuning.json")
            if os.path.exists(path):
                break
        else:
            print("tune: no %s/tuning.json under %s" % (name, " ".join(opts.roots)))
            continue
        entry = json.load(open(path))
        if not isinstance(entry.get("gpu_config"), str):
            print("tune: %s has no gpu_config (made by an older tile-run?): skipped" % path)
            continue
        entry.update({"median_us": best["us"], "device": device,
                      "variant": best["variant"],
                      "config": w["config"], "workload": w["workload"],
                      "date": result.get("date")})
        old = by_hash.get(entry["program_hash"])
        if old and old.get("median_us", float("inf")) <= entry["median_us"]:
            continue
        by_hash[entry["program_hash"]] = entry
        added += 1
    cache["entries"] = sorted(by_hash.values(),
                              key=lambda e: (e.get("config", ""), e.get("workload", "")))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)
        f.write("\n")
    print("tune: %d entries updated, %d in %s" % (added, len(cache["entries"]), out))


if __name__ == "__main__":
    main()
