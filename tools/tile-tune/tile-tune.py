#!/usr/bin/env python3
"""tile-tune: choose a program's GPU configuration by measurement.

    tile-tune PROGRAM.mlir --cache CACHE.json [--chip sm_90] [--budget 120]

PROGRAM is a linalg function (converted with --convert-linalg-to-tile) or a
tile program. Beside it, the optimizer's best `--candidates` programs
(`--tile-optimize=top-k=K` or `--tile-extract`, checked) are measured with
the strategy's configuration. The search starts from the configuration the
strategy chooses
(`--tile-select-gpu-config`) and tries, one knob at a time, the values of
the knobs that matter for the program's kind around it, then the best value
of every knob that helped, together. Each variant is compiled (in parallel,
`tile-run --compile-only`), checked against the linalg reference on the
device and timed there with CUDA graphs (`tile-gpu-run --graph`: warm-up,
repetitions, median and spread); a variant whose check fails never wins,
one far slower than the best so far after a short run is not timed
further, and one whose kernels and launches are an earlier variant's is
not run. The winner goes into the tuning cache, keyed by program hash, chip,
device and compiler version, with its time, spread and the runners-up; the
write merges under a lock and replaces the file atomically. `tile-run
--tuning`, `--tile-select-gpu-config="tuning=..."` and the lowering
pipelines read it (docs/GPULowering.md, "Tuning by measurement").

Without a GPU (`--device emulate`) every variant is checked in the host
emulation instead: correctness only, no timing, nothing written.

On a host with several GPUs of one kind, `--devices 0,1,2,3` measures that
many variants at once, each on one device (`tile-gpu-run --device-index`);
the cache entry names the first listed device's model.

Where the compiler and the GPU are on different machines:

    tile-tune PROGRAM.mlir --prepare DIR        # here: compile the variants
    tile-tune --measure DIR --cache CACHE.json  # there: check, time, record

Python 3 standard library only; the tools come from --bin (default: the
build tree's bin/ next to this checkout, or PATH).
"""

import argparse
import concurrent.futures
import datetime
import fcntl
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The knobs tried around the strategy's choice, by the program's kind.
MATMUL_KNOBS = {
    "thread_elements": [8, 16, 32],
    "k_slices": [2, 4, 8, 16],
    "split_k": [1, 2, 4, 8, 16],
    "max_tile_size": [32, 64, 128],
    "pipeline_loads": [0, 1, 2],
    "mma": ["true", "false"],
    "block_matmul": ["true", "false"],
}
ROW_KNOBS = {
    "max_tile_size": [256, 512, 1024],
    "split_k": [1, 4, 16],
    "element_loops": ["true", "false"],
    "min_blocks": [132, 264, 528, 1056],
}

# A variant slower than this times the best after the short run is dropped.
EARLY_EXIT = 2.0


class ToolError(Exception):
    pass


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run(cmd, what, check=True):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise ToolError("%s failed (exit %d):\n%s%s" % (
            what, proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]))
    return proc


def find_bin(given):
    candidates = [given] if given else [
        os.path.join(HERE, "..", "..", "build", "bin")]
    for d in candidates:
        if d and os.path.exists(os.path.join(d, "tile-opt")):
            return os.path.abspath(d)
    path = shutil.which("tile-opt")
    if path:
        return os.path.dirname(path)
    raise ToolError("no tile-opt: build the project or pass --bin")


def compiler_version(bin_dir):
    line = run([os.path.join(bin_dir, "tile-opt"), "--version"],
               "tile-opt --version").stdout.splitlines()[0]
    return line.split(" ", 1)[1].strip()  # "0.2.0 (git ...)"


# -- configurations ------------------------------------------------------------


def parse_config(text):
    """'a = 1, b = true, tile_sizes = {...}' -> ordered dict (tile_sizes
    dropped: the variants let the lowering size their tiles)."""
    text = re.sub(r",?\s*tile_sizes\s*=\s*\{[^}]*\}", "", text)
    fields = {}
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            fields[k.strip()] = v.strip()
    return fields


def config_text(fields):
    return ", ".join("%s = %s" % kv for kv in fields.items())


def override_args(fields):
    """tile-run's option for a variant's overrides (none: the strategy's)."""
    return ["--gpu-config=" + config_text(fields)] if fields else []


def variants_around(default, kind):
    """Round one: the strategy's choice (no override), then one knob changed
    at a time. A variant is the fields it overrides: the strategy still
    configures the rest, and the statements it configures apart (a
    softmax's reductions beside GEMMs) keep their own settings."""
    knobs = MATMUL_KNOBS if kind == "matmul" else ROW_KNOBS
    out = [("default", {})]
    for knob, values in knobs.items():
        for v in values:
            if default.get(knob) == str(v):
                continue
            out.append(("%s=%s" % (knob, v), {knob: str(v)}))
    return out


def combined(results):
    """Round two: the best value of each knob that beat the default,
    together (when two or more did)."""
    base = next((r for r in results if r["variant"] == "default"), None)
    if not base or base.get("median_us") is None:
        return []
    best = {}
    for r in results:
        if not r.get("passed") or r.get("median_us") is None or \
                "=" not in r["variant"] or "+" in r["variant"] or \
                r["median_us"] >= base["median_us"]:
            continue
        knob, value = r["variant"].split("=", 1)
        if knob not in best or r["median_us"] < best[knob][1]:
            best[knob] = (value, r["median_us"])
    if len(best) < 2:
        return []
    fields = {knob: value for knob, (value, _) in sorted(best.items())}
    name = "+".join("%s=%s" % kv for kv in fields.items())
    return [(name, fields)]


# -- the program ---------------------------------------------------------------


def prepare_program(bin_dir, source, entry, work):
    """(tile program path, linalg reference path or None, program name)."""
    with open(source) as f:
        text = f.read()
    program = os.path.join(work, "program.mlir")
    reference = None
    if "tile.program" in text:
        shutil.copy(source, program)
    else:
        reference = os.path.join(work, "source.mlir")
        shutil.copy(source, reference)
        cmd = [os.path.join(bin_dir, "tile-opt"), reference]
        if entry:
            cmd += ["--symbol-privatize=exclude=" + entry, "--symbol-dce"]
        run(cmd + ["--convert-linalg-to-tile", "-o", program],
            "tile-opt --convert-linalg-to-tile")
    with open(program) as f:
        names = re.findall(r"tile\.program @([\w.$-]+)", f.read())
    if len(names) != 1:
        raise ToolError("%s: one tile.program expected, found %d (choose a "
                        "function with --entry)" % (source, len(names)))
    return program, reference, names[0]


def split_programs(text):
    """The `tile.program` ops of a printed module, each as a module text:
    [(name, text)]."""
    lines = text.splitlines()
    out, start, name = [], None, None
    for i, line in enumerate(lines):
        m = re.match(r"  tile\.program @([\w.$-]+)\(", line)
        if m:
            start, name = i, m.group(1)
        elif start is not None and line == "  }":
            out.append((name, "module {\n%s\n}\n" % "\n".join(
                lines[start:i + 1])))
            start = None
    return out


def extract_candidates(bin_dir, program, reference, count, budget, work):
    """Up to `count` checked candidates of the optimizer: [(name, path)]."""
    if count <= 0:
        return []
    out = os.path.join(work, "candidates.mlir")
    # One more: the optimizer keeps the input first when it estimates every
    # candidate slower, and the input is measured already.
    options = "top-k=%d budget=%d" % (count + 1, max(1, int(budget)))
    if reference:
        cmd = [os.path.join(bin_dir, "tile-opt"), reference,
               "--tile-optimize=" + options]
    else:
        cmd = [os.path.join(bin_dir, "tile-opt"), program,
               "--tile-extract=" + options + " check=true"]
    proc = run(cmd + ["-o", out], "tile-opt (the optimizer's candidates)",
               check=False)
    if proc.returncode != 0:
        log("tile-tune: no candidates: %s" % (
            (proc.stdout + proc.stderr).strip().splitlines() or ["?"])[-1])
        return []
    with open(out) as f:
        found = split_programs(f.read())
    with open(program) as f:
        original = f.read()
    paths = []
    for name, text in found:
        header = next(l for l in text.splitlines() if "tile.program @" in l)
        if "tile.program @%s(" % name in original or \
                re.search(r"\btile\.input\b", header):
            continue  # the input itself: already measured
        path = os.path.join(work, "candidate-%s.mlir" % name)
        with open(path, "w") as f:
            f.write(text)
        paths.append((name, path))
    return paths[:count]


def has_batch_matmul(path):
    """Whether the tile program at `path` has a matmul of rank-3 tiles."""
    with open(path) as f:
        return any(re.search(r"tile\.matmul .*: !tile\.tile<\[[^],]+,[^],]+,"
                             r"[^],]+\]", line) for line in f)


# tile-run's remark for a program the cache has no entry for names its hash.
HASH = re.compile(r"no entry for @\S+ \((0x[0-9a-f]+)\)")


def probe(bin_dir, program, work, device_args, what, check):
    """tile-run on `program` with an empty tuning cache: its output, which
    names the program's hash (the key of its entries) and configuration."""
    empty = os.path.join(work, "empty-cache.json")
    if not os.path.exists(empty):
        with open(empty, "w") as f:
            json.dump({"entries": []}, f)
    out = run([os.path.join(bin_dir, "tile-run"), program, "--tuning",
               empty] + device_args, what, check=check)
    return out.stdout + out.stderr


def program_hash(bin_dir, program, work):
    text = probe(bin_dir, program, work, ["--device", "emulate",
                                          "--compile-only"],
                 "tile-run (a candidate's hash)", check=False)
    h = HASH.search(text)
    return h.group(1) if h else None


def strategy(bin_dir, program, device, chip, work):
    """The strategy's configuration, the program's hash and its kind."""
    if device == "cuda":
        args = ["--device", "cuda", "--chip", chip, "--compile-only",
                "--emulate-check=false", "--artifact",
                os.path.join(work, "probe")]
    else:
        args = ["--device", "emulate"]
    text = probe(bin_dir, program, work, args,
                 "tile-run (the strategy's configuration)", check=True)
    h = HASH.search(text)
    c = re.search(r"^gpu config: (.*)$", text, re.M)
    if not h or not c:
        raise ToolError("tile-run printed no hash or configuration:\n" + text)
    with open(program) as f:
        body = f.read()
    kind = "matmul" if "tile.matmul" in body else "rows"
    return parse_config(c.group(1)), h.group(1), kind


def compile_variant(bin_dir, program, reference, chip, name, fields, art):
    cmd = [os.path.join(bin_dir, "tile-run"), program, "--device", "cuda",
           "--chip", chip, "--compile-only", "--emulate-check=false",
           "--artifact", art] + override_args(fields)
    if reference:
        cmd += ["--reference", reference]
    proc = run(cmd, "compiling " + name, check=False)
    if proc.returncode != 0:
        return (proc.stdout + proc.stderr).strip().splitlines()[-1:] or \
            ["failed"]
    return None


def check_emulated(bin_dir, program, reference, name, fields, inject):
    cmd = [os.path.join(bin_dir, "tile-run"), program, "--device",
           "emulate"] + override_args(fields)
    if reference:
        cmd += ["--reference", reference]
    proc = run(cmd, "checking " + name, check=False)
    ok = proc.returncode == 0 and "PASS" in proc.stdout
    note = (proc.stdout + proc.stderr).strip().splitlines()[-1:]
    if inject and name == inject:
        ok, note = False, ["check failed (injected)"]
    return ok, note


def kernels_digest(art):
    """A digest of what an artifact runs: its binary and its launches (the
    manifest's kernel lines); None if it cannot be read."""
    try:
        with open(os.path.join(art, "manifest.txt")) as f:
            lines = f.read().splitlines()
        binary = next(l.split(None, 1)[1] for l in lines
                      if l.startswith("binary "))
        h = hashlib.sha256()
        with open(os.path.join(art, binary), "rb") as f:
            h.update(f.read())
        for l in lines:
            if l.startswith("kernel "):
                h.update(l.encode())
        return h.hexdigest()
    except (OSError, StopIteration):
        return None


def measure(runner, art, name, repetitions, inject, device=0):
    """(passed, median, min, max, kernels, note) of one artifact, run on
    device `device` of the host."""
    cmd = [runner, art, "--graph", "--repetitions", str(repetitions),
           "--warmup", "3", "--device-index", str(device)]
    proc = run(cmd, "timing " + name, check=False)
    text = proc.stdout + proc.stderr
    m = re.search(r"median_us=([\d.]+) min_us=([\d.]+) max_us=([\d.]+)"
                  r"(?: runs=\d+)?(?: kernels=(\d+))?", text)
    passed = proc.returncode == 0 and "PASS" in text
    if inject and name == inject:
        passed = False  # test hook: a variant whose check fails
    if not m:
        return passed, None, None, None, None, (text.strip().splitlines()
                                                 or ["no time"])[-1]
    kernels = int(m.group(4)) if m.group(4) else None
    return (passed, float(m.group(1)), float(m.group(2)),
            float(m.group(3)), kernels, "")


# -- the cache -----------------------------------------------------------------


def write_cache(path, entry):
    """Merges `entry` into the cache at `path` under a lock, replacing any
    entry of the same program hash, chip and device, atomically."""
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = {"entries": []}
        if os.path.exists(path):
            with open(path) as f:
                try:
                    data = json.load(f)
                except json.JSONDecodeError as e:
                    raise ToolError("tuning cache '%s' is not JSON (%s); "
                                    "left as it is" % (path, e))
            if not isinstance(data.get("entries"), list):
                raise ToolError("tuning cache '%s' has no 'entries' array; "
                                "left as it is" % path)
        key = (entry["program_hash"], entry["chip"], entry.get("device"))
        data["entries"] = [e for e in data["entries"] if (
            e.get("program_hash"), e.get("chip"), e.get("device")) != key]
        data["entries"].append(entry)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                                   prefix=".tile-tune-")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)


# -- the search ----------------------------------------------------------------


def table(results):
    timed = [r["median_us"] for r in results if r.get("passed") and
             r.get("median_us") is not None]
    best = min(timed) if timed else None
    lines = ["%-40s %8s %10s %16s %7s  %s" % (
        "variant", "kernels", "median us", "spread us", "x best", "check")]
    for r in sorted(results, key=lambda r: (r.get("median_us") is None,
                                            r.get("median_us") or 0)):
        us = r.get("median_us")
        lines.append("%-40s %8s %10s %16s %7s  %s" % (
            r["variant"][:40], r.get("kernels") or "-",
            "%.1f" % us if us is not None else "-",
            "%.1f-%.1f" % (r["min_us"], r["max_us"]) if us is not None
            else "-",
            "%.2f" % (us / best) if us is not None and best else "-",
            check_column(r)))
    return "\n".join(lines)


def check_column(r):
    """The table's last column: PASS or FAIL and the note, or, for a
    variant not run (its kernels are another's, or the budget was spent),
    which failed nothing, the note alone."""
    note = r.get("note") or ""
    if not r.get("passed") and note.startswith("not run"):
        return note
    return ("PASS" if r.get("passed") else "FAIL") + (" " + note if note else "")


def main(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[2:]))
    p.add_argument("program", nargs="?")
    p.add_argument("--entry", help="the linalg function to tune")
    p.add_argument("--cache", help="the tuning cache to record the winner in")
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--device", choices=["cuda", "emulate"], default="cuda")
    p.add_argument("--budget", type=float, default=120.0,
                   help="seconds for the whole search (default 120)")
    p.add_argument("--candidates", type=int, default=2,
                   help="the optimizer's best programs measured beside the "
                   "input (default 2; 0: the input only)")
    p.add_argument("--repetitions", type=int, default=50)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--bin", help="directory of tile-opt and tile-run")
    p.add_argument("--runner", help="tile-gpu-run (default: next to the "
                   "tools, or PATH)")
    p.add_argument("--work", help="keep the variants here (default: a "
                   "temporary directory)")
    p.add_argument("--prepare", metavar="DIR",
                   help="compile the variants into DIR and stop")
    p.add_argument("--measure", metavar="DIR",
                   help="check, time and record the variants of DIR")
    p.add_argument("--devices", default="0", metavar="I,J,...",
                   help="device indices of this host to measure on at once, "
                   "one variant per device (default: 0)")
    p.add_argument("--inject-wrong", metavar="VARIANT",
                   help=argparse.SUPPRESS)  # tests: that check fails
    args = p.parse_args(argv)
    try:
        args.devices = sorted({int(d) for d in args.devices.split(",")})
        if not args.devices or min(args.devices) < 0:
            raise ValueError
    except ValueError:
        p.error("--devices takes device indices, e.g. 0,1")
    try:
        if args.measure:
            return measure_dir(args, args.measure)
        if not args.program:
            p.error("a PROGRAM (or --measure DIR)")
        return tune(args)
    except ToolError as e:
        log("tile-tune: %s" % e)
        return 1
    except OSError as e:
        log("tile-tune: %s" % e)
        return 1


def tune(args):
    bin_dir = find_bin(args.bin)
    start = time.monotonic()
    work = args.prepare or args.work or tempfile.mkdtemp(prefix="tile-tune-")
    os.makedirs(work, exist_ok=True)
    program, reference, name = prepare_program(bin_dir, args.program,
                                               args.entry, work)
    default, phash, kind = strategy(bin_dir, program, args.device, args.chip,
                                    work)
    log("tile-tune: @%s (%s), %s program, strategy: %s" % (
        name, phash, kind, config_text(default)))
    # (name, overrides, program path, program name, hash)
    variants = [(v, f, program, name, phash)
                for v, f in variants_around(default, kind)]
    share = args.budget * 0.4
    for cname, cpath in extract_candidates(bin_dir, program, reference,
                                           args.candidates, share, work):
        chash = program_hash(bin_dir, cpath, work)
        variants.append(("candidate " + cname, {}, cpath, cname, chash))
        # Matmuls over a batch dimension (attention's heads) run as loops
        # over it, one head a block, or not (`batch_loops`): the other
        # setting than the strategy's too.
        if has_batch_matmul(cpath):
            other = "false" if default.get("batch_loops") == "true" else "true"
            variants.append(("candidate %s batch_loops=%s" % (cname, other),
                             {"batch_loops": other}, cpath, cname, chash))
    log("tile-tune: %d variants (%d of the optimizer's candidates)" % (
        len(variants), len({v[3] for v in variants
                            if v[0].startswith("candidate ")})))
    meta = {"program": name, "program_hash": phash, "chip": args.chip,
            "kind": kind, "compiler": compiler_version(bin_dir),
            "default": config_text(default), "variants": []}
    if args.device == "emulate":
        results = []
        for i, (vname, fields, vprogram, _, _) in enumerate(variants):
            if time.monotonic() - start > args.budget:
                log("tile-tune: budget spent after %d of %d variants" % (
                    i, len(variants)))
                break
            ok, note = check_emulated(bin_dir, vprogram, reference, vname,
                                      fields, args.inject_wrong)
            log("[%d/%d] %s %s" % (i + 1, len(variants), vname,
                                   "PASS" if ok else "FAIL"))
            results.append({"variant": vname, "passed": ok,
                            "note": "" if ok else " ".join(note)})
        print(table(results))
        failed = [r["variant"] for r in results if not r["passed"]]
        print("checked %d variants in the host emulation (no timing): %d "
              "passed, %d failed%s" % (len(results), len(results) -
                                       len(failed), len(failed),
                                       ": " + ", ".join(failed) if failed
                                       else ""))
        return 0
    # Compile every variant, in parallel.
    def build(item):
        vname, fields, vprogram, pname, vhash = item
        art = os.path.join(work, "variants", re.sub(r"[^\w.=+-]", "_", vname))
        error = compile_variant(bin_dir, vprogram, reference, args.chip,
                                vname, fields, art)
        return vname, fields, art, error, vprogram, pname, vhash
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(build, variants))
    # Variants whose kernels and launches are those of an earlier one (a
    # knob that changes nothing for this program) are not run again.
    first_of = {}
    for vname, fields, art, error, vprogram, pname, vhash in built:
        digest = None if error else kernels_digest(art)
        same = first_of.get(digest) if digest else None
        if digest and not same:
            first_of[digest] = vname
        meta["variants"].append({"variant": vname, "gpu_config":
                                 config_text(fields), "artifact":
                                 os.path.relpath(art, work),
                                 "program": os.path.relpath(vprogram, work),
                                 "program_name": pname, "program_hash": vhash,
                                 "compile_error": error, "same_as": same})
        log("compiled %s%s" % (vname, ": " + error[0] if error else
                               " (the kernels of %s)" % same if same else ""))
    with open(os.path.join(work, "tune.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if args.prepare:
        print("prepared %d variants in %s: run tile-tune --measure %s "
              "--cache CACHE on the GPU machine" % (len(variants), work, work))
        return 0
    return measure_dir(args, work, start)


def measure_dir(args, work, start=None):
    start = start or time.monotonic()
    with open(os.path.join(work, "tune.json")) as f:
        meta = json.load(f)
    runner = args.runner or shutil.which("tile-gpu-run")
    if not runner:
        try:
            runner = os.path.join(find_bin(args.bin), "tile-gpu-run")
        except ToolError:
            runner = None
    if not runner or not os.path.exists(runner):
        raise ToolError("no tile-gpu-run: pass --runner")
    results, best = [], None
    todo = list(meta["variants"])
    # One variant per device at a time; `best` is shared.
    free = queue.Queue()
    for d in args.devices:
        free.put(d)
    lock = threading.Lock()

    def run_variant(i, v):
        device = free.get()
        try:
            return run_variant_on(i, v, device)
        finally:
            free.put(device)

    def run_variant_on(i, v, device):
        nonlocal best
        r = {"variant": v["variant"], "gpu_config": v["gpu_config"],
             "program": v.get("program", "program.mlir"),
             "program_name": v.get("program_name", meta["program"]),
             "program_hash": v.get("program_hash", meta["program_hash"])}
        if v.get("compile_error"):
            r.update(passed=False, note="compile: " + v["compile_error"][0])
            return r
        if v.get("same_as"):
            r.update(passed=False,
                     note="not run: the kernels of " + v["same_as"])
            return r
        if time.monotonic() - start > args.budget:
            r.update(passed=False, note="not run: budget spent")
            return r
        art = os.path.join(work, v["artifact"])
        # A short run first; far slower than the best so far: dropped.
        passed, us, lo, hi, kernels, note = measure(
            runner, art, v["variant"], 5, args.inject_wrong, device)
        with lock:
            worth = best is None or us is None or us < EARLY_EXIT * best
        if passed and us is not None and worth:
            passed, us, lo, hi, kernels, note = measure(
                runner, art, v["variant"], args.repetitions,
                args.inject_wrong, device)
        elif passed and us is not None:
            note = "dropped after a short run (> %.1fx best)" % EARLY_EXIT
        r.update(passed=passed, median_us=us, min_us=lo, max_us=hi,
                 kernels=kernels, note=note)
        if not passed and not r["note"]:
            r["note"] = "check failed"
        with lock:
            if passed and us is not None and (best is None or us < best):
                best = us
        log("[%d/%d] %s: %s" % (i + 1, len(todo), v["variant"],
                                "%.1f us" % us if us is not None else "-")
            + ("" if passed else " FAIL")
            + (" (device %d)" % device if len(args.devices) > 1 else ""))
        return r

    def run_round(first):
        """Measures todo[first:], on the devices at once; results in
        order."""
        with concurrent.futures.ThreadPoolExecutor(
                len(args.devices)) as pool:
            results.extend(pool.map(lambda iv: run_variant(*iv),
                                    list(enumerate(todo))[first:]))

    run_round(0)
    # Round two, once round one is done: the helpful knobs together.
    if not any("+" in t["variant"] for t in todo):
        first = len(todo)
        for cname, fields in combined(results):
            art = os.path.join(work, "variants", re.sub(
                r"[^\w.=+-]", "_", cname))
            try:
                bin_dir = find_bin(args.bin)
            except ToolError:
                break  # the measuring machine has no compiler
            program = os.path.join(work, "program.mlir")
            reference = os.path.join(work, "source.mlir")
            error = compile_variant(
                bin_dir, program, reference if os.path.exists(reference)
                else None, meta["chip"], cname, fields, art)
            todo.append({"variant": cname, "gpu_config":
                         config_text(fields), "artifact":
                         os.path.relpath(art, work),
                         "compile_error": error})
        run_round(first)
    print(table(results))
    winners = sorted((r for r in results if r.get("passed") and
                      r.get("median_us") is not None),
                     key=lambda r: r["median_us"])
    if not winners:
        raise ToolError("no variant passed its check")
    win = winners[0]
    base = next((r for r in results if r["variant"] == "default"), None)
    print("winner: %s, %.1f us%s" % (
        win["variant"], win["median_us"],
        " (default %.1f us, %.2fx)" % (base["median_us"], base["median_us"] /
                                       win["median_us"])
        if base and base.get("median_us") else ""))
    if args.cache:
        device = device_name(runner, args.devices[0])
        entry = {"program": win["program_name"],
                 "program_hash": win["program_hash"], "chip": meta["chip"],
                 "device": device, "platform": "cuda",
                 "compiler": meta["compiler"],
                 "gpu_config": win["gpu_config"], "variant": win["variant"],
                 "median_us": round(win["median_us"], 2),
                 "spread_us": [win["min_us"], win["max_us"]],
                 "date": datetime.date.today().isoformat(),
                 "tuned_by": "tile-tune",
                 "runners_up": [{"variant": r["variant"],
                                 "gpu_config": r["gpu_config"],
                                 "median_us": r["median_us"]}
                                for r in winners[1:4]]}
        if win["program_hash"] != meta["program_hash"]:
            # An optimizer's candidate won: the entry is for that program
            # (tile-run --tuning on it applies the configuration), and
            # records the program it came from and its text.
            entry["source_program"] = meta["program"]
            entry["source_hash"] = meta["program_hash"]
            with open(os.path.join(work, win["program"])) as f:
                entry["candidate_program"] = f.read()
        write_cache(args.cache, entry)
        print("recorded in %s" % args.cache)
    return 0


def device_name(runner, index):
    proc = run([runner, "--probe", "--device-index", str(index)],
               "tile-gpu-run --probe", check=False)
    m = re.search(r"device: (.*?)(?:,| \(|$)", proc.stdout + proc.stderr,
                  re.M)
    return m.group(1).strip() if m else "unknown"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
