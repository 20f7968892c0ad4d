#!/usr/bin/env python3
"""tile-render: pictures of tile-opt's reports and of benchmark results.

  tile-render.py saturation REPORT.json -o OUT.png   e-graph growth, rules
  tile-render.py extraction REPORT.json -o OUT.svg   candidates, estimates
  tile-render.py egraph GRAPH.dot -o OUT.svg         an e-graph, by dot
  tile-render.py bench RESULTS.json -o OUT.png       against PyTorch, floor

The output format follows the suffix of -o: .png or .svg. docs/Rendering.md
shows one picture of each kind and the commands that made them.

Inputs:

  saturation  the JSON of `tile-opt F --tile-saturate="report=R.json"` (one
              object, or an array of them when F has several programs), or
              an extraction report (its first round's saturation).
  extraction  the JSON of `tile-opt F --tile-extract="report=R.json"` or
              `--tile-optimize="report=R.json"` (an array, one entry per
              program).
  egraph      the Graphviz file of `tile-opt F --tile-saturate="dot=G.dot"`
              (any DOT file is drawn; tile-opt's are restyled first).
  bench       the JSON of bench/gpu/bench.py (the Trinity configs llama and
              falcon, the suite of bench/workloads/suite.py, or both).

Debian's python3 with python3-matplotlib and python3-numpy draws the charts
(Agg backend, no display needed); graphviz's `dot` draws e-graphs. Nothing
else is needed. A user mistake (a missing file, bad JSON, a report of
another kind, an unknown suffix) is one line `tile-render: error: ...` and
exit status 1.
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys

PROG = "tile-render"

FORMATS = (".png", ".svg")

# Colors of the rule families (docs/Rules.md), fixed so that every picture
# gives a family the same color.
FAMILY_COLORS = {
    "Sequence": "#4c72b0",
    "Fusion": "#dd8452",
    "Insertion": "#55a868",
    "Algebraic": "#c44e52",
    "Factoring": "#8172b3",
    "Concat": "#937860",
    "MixedPrecision": "#da8bc3",
    "OnlineSoftmax": "#8c8c8c",
}
OTHER_COLORS = ["#ccb974", "#64b5cd", "#2f4b7c", "#a05195", "#ff7c43"]

# Rules of the per-iteration split (matplotlib's tab10).
SPLIT_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

# Saturation phases, as per_iteration names them.
PHASES = [
    ("search_seconds", "search", "#4c72b0"),
    ("apply_seconds", "apply", "#dd8452"),
    ("rebuild_seconds", "rebuild", "#55a868"),
    ("hook_seconds", "hooks", "#8172b3"),
]

# Check results of an extraction candidate.
CHECK_COLORS = {"passed": "#55a868", "failed": "#c44e52", None: "#4c72b0"}

# bench.py's PyTorch variants, in its order.
PYTORCH_VARIANTS = ["eager", "eager+sdpa", "compile", "compile+sdpa"]
PYTORCH_COLORS = ["#9ecae1", "#6baed6", "#3182bd", "#08519c"]
OURS_COLORS = ["#fd8d3c", "#e6550d", "#a63603", "#fdae6b"]
FLOOR_COLOR = "#969696"


class RenderError(Exception):
    """A user mistake: reported as one line, exit status 1."""


# ---------------------------------------------------------------------------
# Reading the inputs
# ---------------------------------------------------------------------------


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise RenderError("cannot read '%s': no such file" % path)
    except IsADirectoryError:
        raise RenderError("cannot read '%s': it is a directory" % path)
    except UnicodeDecodeError:
        raise RenderError("cannot read '%s': not a text file" % path)
    except OSError as e:
        raise RenderError("cannot read '%s': %s" % (path, e.strerror))


def read_json(path):
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RenderError("'%s' is not valid JSON: %s at line %d, column %d"
                          % (path, e.msg, e.lineno, e.colno))


def report_kind(data):
    """Which of the known JSON files `data` is, or None."""
    def saturation(d):
        return isinstance(d, dict) and "per_iteration" in d and "rules" in d
    if saturation(data):
        return "saturation"
    if isinstance(data, list) and data and all(saturation(d) for d in data):
        return "saturation"
    if isinstance(data, list) and data and all(
            isinstance(d, dict) and "candidates" in d for d in data):
        return "extraction"
    if isinstance(data, dict) and isinstance(data.get("workloads"), list) \
            and "settings" in data:
        return "bench"
    if isinstance(data, dict) and isinstance(data.get("programs"), list):
        return "cost"
    return None


KIND_NAMES = {
    "saturation": "a saturation report (--tile-saturate=\"report=...\")",
    "extraction": "an extraction report (--tile-extract or --tile-optimize "
                  "\"report=...\")",
    "bench": "a benchmark result (bench/gpu/bench.py)",
    "cost": "a cost report (--tile-estimate-cost), which tile-render does "
            "not draw",
}


def expect_kind(data, path, wanted, also=()):
    kind = report_kind(data)
    if kind == wanted or kind in also:
        return kind
    if isinstance(data, list) and not data:
        raise RenderError("'%s' is an empty array: no program was reported"
                          % path)
    what = KIND_NAMES.get(kind, "not a report tile-render knows")
    hint = ("; draw it with 'tile-render %s'" % kind
            if kind in ("saturation", "extraction", "bench") else "")
    raise RenderError("'%s' is not %s: it is %s%s"
                      % (path, KIND_NAMES[wanted].split(" (")[0], what, hint))


def field(obj, key, where, types=None):
    """obj[key], with an error naming `where` when it is missing."""
    if not isinstance(obj, dict) or key not in obj:
        raise RenderError("%s has no '%s'" % (where, key))
    value = obj[key]
    if types is not None and not isinstance(value, types):
        raise RenderError("%s: '%s' is not %s" % (
            where, key, {(int, float): "a number", list: "an array",
                         dict: "an object", str: "a string"}.get(
                types, "of the expected type")))
    return value


def number(obj, key, where, default=None):
    """A numeric field (or `default` when it is absent or null)."""
    if not isinstance(obj, dict) or obj.get(key) is None:
        if default is not None:
            return default
        raise RenderError("%s has no '%s'" % (where, key))
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RenderError("%s: '%s' is not a number" % (where, key))
    return value


def select_program(reports, name, path):
    """The entry of `reports` (one per program) to draw."""
    names = [r.get("program", "?") for r in reports]
    if name is not None:
        for r in reports:
            if r.get("program") == name:
                return r
        raise RenderError("'%s' has no program '%s' (it has %s)"
                          % (path, name, ", ".join(names)))
    if len(reports) > 1:
        raise RenderError("'%s' has %d programs (%s): choose one with "
                          "--program" % (path, len(reports), ", ".join(names)))
    return reports[0]


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def output_format(path):
    """'png' or 'svg' from the suffix of `path`; the directory must exist."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in FORMATS:
        raise RenderError("cannot tell the format of '%s': the output must "
                          "end in %s" % (path, " or ".join(FORMATS)))
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise RenderError("cannot write '%s': no directory '%s'"
                          % (path, os.path.dirname(path)))
    return suffix[1:]


def pyplot():
    """matplotlib.pyplot on the Agg backend, or a RenderError."""
    try:
        import matplotlib
    except ImportError:
        raise RenderError(
            "matplotlib is not installed for %s (Debian: apt-get install "
            "python3-matplotlib python3-numpy; then run tile-render with "
            "/usr/bin/python3)" % (sys.executable or "python3"))
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "font.size": 9,
        "axes.titlesize": 10,
        "axes.titleweight": "bold",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "legend.fontsize": 8,
        "legend.frameon": False,
        # Text stays text in SVG (searchable, and checked by the tests);
        # the ids are stable from run to run.
        "svg.fonttype": "none",
        "svg.hashsalt": "tile-render",
    })
    return plt


def save(plt, fig, path, fmt, dpi):
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    try:
        fig.savefig(path, format=fmt, dpi=dpi, metadata=metadata)
    except OSError as e:
        raise RenderError("cannot write '%s': %s" % (path, e.strerror or e))
    finally:
        plt.close(fig)


def log_scale_wanted(values, ratio=30.0):
    positive = [v for v in values if v and v > 0]
    return bool(positive) and max(positive) / min(positive) > ratio


def iteration_axes(ax, x, title, ylabel):
    """A panel over the saturation iterations `x`."""
    ax.set_title(title)
    ax.set_xlabel("iteration")
    ax.set_ylabel(ylabel)
    ax.set_xticks(x)


def human(n):
    """12345 -> '12.3K'."""
    n = float(n)
    for unit, scale in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if abs(n) >= scale:
            return ("%.1f" % (n / scale)).rstrip("0").rstrip(".") + unit
    return "%d" % n if n == int(n) else "%.3g" % n


def us(value):
    return "%.1f" % value if value >= 10 else "%.2f" % value


# ---------------------------------------------------------------------------
# saturation
# ---------------------------------------------------------------------------


def family_color(family, assigned):
    if family in FAMILY_COLORS:
        return FAMILY_COLORS[family]
    if family not in assigned:
        assigned[family] = OTHER_COLORS[len(assigned) % len(OTHER_COLORS)]
    return assigned[family]


def cmd_saturation(args):
    fmt = output_format(args.output)
    data = read_json(args.report)
    kind = expect_kind(data, args.report, "saturation", also=("extraction",))
    if kind == "extraction":
        entry = select_program(data, args.program, args.report)
        report = field(entry, "saturation", "the extraction report of @%s"
                       % entry.get("program", "?"), dict)
        report = dict(report, program=entry.get("program"))
        source = "first round of --tile-extract"
    else:
        reports = data if isinstance(data, list) else [data]
        report = select_program(reports, args.program, args.report)
        source = "--tile-saturate"
    name = report.get("program", "?")
    where = "the saturation report of @%s" % name
    iters = field(report, "per_iteration", where, list)
    rules = field(report, "rules", where, list)
    if not iters:
        raise RenderError("%s has no iterations to draw" % where)
    rows = []
    for i, it in enumerate(iters):
        w = "%s: per_iteration[%d]" % (where, i)
        rows.append({
            "enodes": number(it, "enodes", w),
            "eclasses": number(it, "eclasses", w),
            "applied": number(it, "applied", w),
            "unions": number(it, "rebuild_unions", w, 0),
            "rules": it.get("rules") if isinstance(it.get("rules"), dict)
            else None,
            **{k: number(it, k, w, 0.0) for k, _, _ in PHASES}})
    rule_rows = []
    for i, r in enumerate(rules):
        w = "%s: rules[%d]" % (where, i)
        rule_rows.append({"name": str(field(r, "name", w)),
                          "family": str(r.get("family") or "?"),
                          "matches": number(r, "matches", w, 0),
                          "applied": number(r, "applied", w, 0),
                          "blocked": number(r, "blocked", w, 0)})

    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), layout="constrained")
    x = list(range(1, len(rows) + 1))
    assigned = {}

    # E-graph growth.
    ax = axes[0][0]
    ax.plot(x, [r["enodes"] for r in rows], "o-", color="#4c72b0",
            label="e-nodes")
    ax.plot(x, [r["eclasses"] for r in rows], "s-", color="#dd8452",
            label="e-classes")
    if log_scale_wanted([r["enodes"] for r in rows] +
                        [r["eclasses"] for r in rows]):
        ax.set_yscale("log")
    for key, dy in (("enodes", 6), ("eclasses", -12)):
        ax.annotate(human(rows[-1][key]), (x[-1], rows[-1][key]),
                    textcoords="offset points", xytext=(4, dy), fontsize=8)
    iteration_axes(ax, x, "E-graph growth", "size after the iteration")
    ax.legend(loc="best")

    # Rule applications per iteration: split by rule when the report has
    # the split (per_iteration[i].rules: {rule: applications}).
    ax = axes[0][1]
    split = all(r["rules"] is not None for r in rows)
    if split:
        totals = {}
        for r in rows:
            for rule, n in r["rules"].items():
                totals[rule] = totals.get(rule, 0) + n
        top = sorted(totals, key=lambda k: (-totals[k], k))[:args.top_split]
        bottom = [0] * len(rows)
        for k, rule in enumerate(top + ["other"]):
            heights = [sum(n for k, n in r["rules"].items() if k not in top)
                       if rule == "other" else r["rules"].get(rule, 0)
                       for r in rows]
            if not any(heights):
                continue
            color = "#d9d9d9" if rule == "other" else SPLIT_COLORS[k % 10]
            ax.bar(x, heights, bottom=bottom, color=color, label=rule,
                   edgecolor="white", linewidth=0.5)
            bottom = [b + h for b, h in zip(bottom, heights)]
        ax.legend(loc="upper left", ncol=1, fontsize=7,
                  bbox_to_anchor=(1.0, 1.0))
    else:
        bars = ax.bar(x, [r["applied"] for r in rows], color="#4c72b0",
                      label="rule applications")
        ax.bar_label(bars, labels=[human(r["applied"]) for r in rows],
                     fontsize=7, padding=2)
        if any(r["unions"] for r in rows):
            ax.plot(x, [r["unions"] for r in rows], "d--", color="#c44e52",
                    label="unions found by rebuilding")
        ax.legend(loc="upper right")
    iteration_axes(ax, x, "Rule applications per iteration", "applications")

    # Time per iteration, by phase.
    ax = axes[1][0]
    bottom = [0.0] * len(rows)
    for key, label, color in PHASES:
        heights = [r[key] for r in rows]
        ax.bar(x, heights, bottom=bottom, color=color, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    iteration_axes(ax, x, "Time per iteration", "seconds")
    ax.legend(loc="best")

    # The rules that matched most: applied (solid) within matches (outline).
    ax = axes[1][1]
    matched = [r for r in rule_rows if r["matches"] or r["applied"]]
    matched.sort(key=lambda r: (-r["applied"], -r["matches"], r["name"]))
    shown = list(reversed(matched[:args.top]))
    y = list(range(len(shown)))
    if shown:
        colors = [family_color(r["family"], assigned) for r in shown]
        ax.barh(y, [max(r["matches"], r["applied"]) for r in shown],
                color="none", edgecolor=colors, linewidth=1.0)
        ax.barh(y, [r["applied"] for r in shown], color=colors)
        ax.set_yticks(y, [r["name"] for r in shown], fontsize=8)
        ax.set_xscale("log")
        ax.set_xlim(left=0.8)
        for yi, r in zip(y, shown):
            ax.annotate("%s / %s" % (human(r["applied"]), human(r["matches"]))
                        + ("   blocked %s" % human(r["blocked"])
                           if r["blocked"] else ""),
                        (max(r["matches"], r["applied"], 1), yi),
                        textcoords="offset points", xytext=(3, -3),
                        fontsize=6.5, color="#444444", annotation_clip=False)
        families = []
        for r in reversed(shown):
            if r["family"] not in families:
                families.append(r["family"])
        handles = [plt.Rectangle((0, 0), 1, 1,
                                 color=family_color(f, assigned))
                   for f in families]
        ax.legend(handles, families, loc="upper center", fontsize=7,
                  bbox_to_anchor=(0.5, -0.12), ncol=min(len(families), 4))
        ax.margins(x=0.4)
    else:
        ax.text(0.5, 0.5, "no rule matched", ha="center", va="center",
                transform=ax.transAxes)
        ax.set_yticks([])
    ax.grid(axis="y", visible=False)
    never = len(rule_rows) - len(matched)
    ax.set_title("Rules: applied / matches (top %d of %d that matched; "
                 "%d never matched)" % (len(shown), len(matched), never))
    ax.set_xlabel("count (solid: applied, outline: matches)")

    programs = report.get("log10_programs")
    title = "@%s: saturation (%s), %d iteration%s, stop: %s — %s e-nodes, " \
            "%s e-classes" % (name, source, len(rows),
                              "" if len(rows) == 1 else "s",
                              report.get("stop_reason", "?"),
                              human(number(report, "enodes", where)),
                              human(number(report, "eclasses", where)))
    if isinstance(programs, (int, float)) and math.isfinite(programs):
        title += ", 10^%.1f programs" % programs
    if isinstance(report.get("seconds"), (int, float)):
        title += ", %.2f s" % report["seconds"]
    fig.suptitle(args.title or title, fontsize=11)
    save(plt, fig, args.output, fmt, args.dpi)


# ---------------------------------------------------------------------------
# extraction
# ---------------------------------------------------------------------------


def cmd_extraction(args):
    fmt = output_format(args.output)
    data = read_json(args.report)
    expect_kind(data, args.report, "extraction")
    report = select_program(data, args.program, args.report)
    name = report.get("program", "?")
    where = "the extraction report of @%s" % name
    cands = field(report, "candidates", where, list)

    def short(label):
        return label[len(name) + 1:] if label.startswith(name + "_") \
            else label

    rows = []
    inp = report.get("input")
    if report.get("input_first") and isinstance(inp, dict):
        rows.append({"label": "%s\n(the input)" % short(str(inp.get(
                         "name") or "input")),
                     "kernels": None, "loops": None, "crossings": None,
                     "repeated": None,
                     "estimated_us": inp.get("estimated_us"),
                     "value_cost": None, "check": "input", "dropped": False})
    for i, c in enumerate(cands):
        w = "%s: candidates[%d]" % (where, i)
        dropped = bool(c.get("dropped_for_input"))
        label = short(str(c.get("name") or "#%d" % i))
        status = c.get("check")
        if dropped:
            label += "\n(dropped for\nthe input)"
        elif status and status != "passed":
            label += "\n(%s)" % status
        rows.append({"label": label,
                     "kernels": number(c, "kernels", w),
                     "loops": number(c, "loops", w, 0),
                     "crossings": number(c, "crossings", w, 0),
                     "repeated": number(c, "repeated", w, 0),
                     "estimated_us": c.get("estimated_us"),
                     "value_cost": c.get("value_cost"),
                     "check": status, "dropped": dropped})
    if not rows:
        raise RenderError("%s has no candidates to draw" % where)
    rounds = report.get("rounds") if isinstance(report.get("rounds"),
                                                list) else []

    plt = pyplot()
    width = max(10.0, 3.5 + 0.9 * len(rows) * 2)
    fig, axes = plt.subplots(
        1, 3, figsize=(width, 4.8), layout="constrained",
        gridspec_kw={"width_ratios": [len(rows) + 1, len(rows) + 1,
                                      max(2, len(rounds)) * 1.1]})
    x = list(range(len(rows)))

    # Structure: what extraction ranks by.
    ax = axes[0]
    metrics = [("kernels", "#4c72b0"), ("loops", "#8c8c8c"),
               ("crossings", "#dd8452"), ("repeated", "#c44e52")]
    bw = 0.8 / len(metrics)
    for k, (key, color) in enumerate(metrics):
        xs = [xi - 0.4 + bw * (k + 0.5) for xi in x]
        vals = [r[key] if r[key] is not None else 0 for r in rows]
        bars = ax.bar(xs, vals, bw, color=color, label=key)
        if key == "kernels":
            ax.bar_label(bars, labels=[str(r[key]) if r[key] is not None
                                       else "" for r in rows],
                         fontsize=8, padding=1, fontweight="bold")
    for xi, r in zip(x, rows):
        if r["kernels"] is None:
            ax.text(xi, 0, "not in\nthe report", ha="center", va="bottom",
                    fontsize=7, color="#666666")
    ax.set_xticks(x, [r["label"] for r in rows], fontsize=8)
    ax.set_title("Structure of each candidate")
    ax.set_ylabel("count")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend(loc="best", ncol=2)
    ax.margins(y=0.3)

    # Estimate (or pass 2's cost when no target was given).
    ax = axes[1]
    has_us = any(isinstance(r["estimated_us"], (int, float)) for r in rows)
    key = "estimated_us" if has_us else "value_cost"
    vals = [r[key] if isinstance(r[key], (int, float)) else 0 for r in rows]
    colors = ["#8c8c8c" if r["check"] == "input" else
              CHECK_COLORS.get(r["check"], CHECK_COLORS[None]) for r in rows]
    bars = ax.bar(x, vals, 0.6, color=colors, edgecolor="white")
    for bar, r in zip(bars, rows):
        if r["dropped"]:
            bar.set_hatch("//")
            bar.set_alpha(0.5)
    ax.bar_label(bars, labels=[(us(v) if has_us else human(v)) if v else "–"
                               for v in vals], fontsize=8, padding=1)
    ax.set_xticks(x, [r["label"] for r in rows], fontsize=8)
    if has_us:
        ax.set_title("Roofline estimate of each candidate")
        ax.set_ylabel("estimated time (us)")
    else:
        ax.set_title("Cost of each candidate (no target: pass 2's cost)")
        ax.set_ylabel("value cost")
    labels = {"passed": "check passed", "failed": "check failed",
              None: "not checked", "input": "the input"}
    seen = []
    for r in rows:
        c = r["check"] if r["check"] in labels else None
        if c not in seen:
            seen.append(c)
    ax.legend([plt.Rectangle((0, 0), 1, 1,
                             color="#8c8c8c" if c == "input"
                             else CHECK_COLORS[c]) for c in seen],
              [labels[c] for c in seen], loc="best")
    ax.margins(y=0.3)

    # Rounds: the most fused candidate's kernels and the e-graph size.
    ax = axes[2]
    if rounds:
        rx = list(range(1, len(rounds) + 1))
        kern = [r.get("kernels", -1) for r in rounds]
        bars = ax.bar(rx, [max(k, 0) for k in kern], 0.6, color="#4c72b0")
        ax.bar_label(bars, labels=[
            "%s\n%s e-nodes" % ("%d kernel%s" % (k, "" if k == 1 else "s")
                                if k >= 0 else "none",
                                human((r.get("saturation") or {}).get(
                                    "enodes", 0)))
            for k, r in zip(kern, rounds)], fontsize=7, padding=1)
        ax.set_xticks(rx)
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.margins(y=0.35)
    else:
        ax.text(0.5, 0.5, "no rounds in the report", ha="center",
                va="center", transform=ax.transAxes)
    ax.set_title("Rounds")
    ax.set_xlabel("round")
    ax.set_ylabel("kernels of the round's best")

    kept = [r for r in rows if not r["dropped"] and r["check"] in
            ("passed", None, "input")]
    title = "@%s: %d candidate%s" % (name, len(kept),
                                     "" if len(kept) == 1 else "s")
    if isinstance(report.get("seconds"), (int, float)):
        title += " in %.2f s" % report["seconds"]
    title += " (%d round%s)" % (len(rounds), "" if len(rounds) == 1 else "s")
    if report.get("dropped"):
        title += ", %d dropped by the check" % report["dropped"]
    best = rows[0]
    if best["check"] == "input":
        title += "; the input is estimated fastest"
    elif best["kernels"] is not None:
        title += "; best: %d kernel%s" % (best["kernels"], "" if
                                          best["kernels"] == 1 else "s")
        if isinstance(best["estimated_us"], (int, float)):
            title += ", %s us estimated" % us(best["estimated_us"])
    fig.suptitle(args.title or title, fontsize=11)
    save(plt, fig, args.output, fmt, args.dpi)


# ---------------------------------------------------------------------------
# egraph
# ---------------------------------------------------------------------------

CLUSTER_RE = re.compile(r'^\s*subgraph\s+"?cluster_[^\s{]*\s*\{\s*$')
NODE_RE = re.compile(r'^\s*"[^"]+"\s*\[.*\blabel=')
STYLE_RE = re.compile(r'^(\s*)style=dotted\s*$')


def restyle_dot(text, rankdir):
    """tile-opt's e-graph DOT, easier to read: e-classes holding several
    e-nodes (equalities the rules found) are shaded, fonts are set. Other
    DOT is returned with only the defaults added."""
    lines = text.split("\n")
    out = []
    cluster = None  # [index of its style line, e-nodes seen]
    for line in lines:
        if CLUSTER_RE.match(line):
            cluster = [None, 0]
        elif cluster is not None:
            if STYLE_RE.match(line) and cluster[0] is None:
                cluster[0] = len(out)
            elif NODE_RE.match(line):
                cluster[1] += 1
            elif line.strip() == "}":
                index, nodes = cluster
                if index is not None:
                    indent = STYLE_RE.match(out[index]).group(1)
                    out[index] = indent + (
                        'style="rounded,filled" color="#b8860b" '
                        'fillcolor="#fff2b3"' if nodes > 1 else
                        'style="rounded,dashed" color="#aaaaaa"')
                cluster = None
        out.append(line)
    text = "\n".join(out)
    # On the opening line, so that dot's line numbers stay the file's.
    defaults = (
        ' graph [fontname="Helvetica", fontsize=9, rankdir=%s, '
        'nodesep=0.15, ranksep=0.35];'
        ' node [fontname="Helvetica", fontsize=10, style="rounded,filled", '
        'fillcolor=white, height=0.3, margin="0.08,0.03"];'
        ' edge [fontname="Helvetica", fontsize=7, color="#555555", '
        'arrowsize=0.5];' % rankdir)
    return re.sub(r"^(\s*(?:strict\s+)?(?:di)?graph\b[^{]*\{)",
                  lambda m: m.group(1) + defaults, text, count=1)


def cmd_egraph(args):
    fmt = output_format(args.output)
    text = read_text(args.graph)
    if not text.strip():
        raise RenderError("'%s' is empty" % args.graph)
    if not re.match(r"\s*(?:(?://|#)[^\n]*\n\s*|/\*.*?\*/\s*)*"
                    r"(?:strict\s+)?(?:di)?graph\b", text, re.S | re.I):
        raise RenderError("'%s' is not a Graphviz graph (DOT starts with "
                          "'digraph' or 'graph')" % args.graph)
    dot = args.dot or shutil.which("dot")
    if not dot:
        raise RenderError("graphviz's 'dot' is not on PATH (Debian: apt-get "
                          "install graphviz; or name it with --dot)")
    if not args.plain:
        text = restyle_dot(text, args.rankdir)
    cmd = [dot, "-T" + fmt, "-o", args.output]
    if fmt == "png":
        cmd.insert(1, "-Gdpi=%d" % args.dpi)
    if args.max_size:
        cmd.insert(1, "-Gsize=%g,%g" % (args.max_size, args.max_size))
    if args.title:
        cmd[1:1] = ["-Glabel=" + args.title, "-Glabelloc=t", "-Gfontsize=14"]
    try:
        proc = subprocess.run(cmd, input=text, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=args.timeout)
    except FileNotFoundError:
        raise RenderError("cannot run '%s': no such program" % dot)
    except PermissionError:
        raise RenderError("cannot run '%s': not executable" % dot)
    except subprocess.TimeoutExpired:
        raise RenderError("dot took more than %d s on '%s' (an e-graph this "
                          "large is better summarized by 'tile-render "
                          "saturation')" % (args.timeout, args.graph))
    messages = [l.strip() for l in proc.stderr.splitlines() if l.strip()]
    if proc.returncode != 0:
        first = messages[0] if messages else "exit status %d" % proc.returncode
        first = re.sub(r"^Error:\s*(<stdin>:\s*)?", "", first)
        raise RenderError("dot cannot draw '%s': %s" % (args.graph, first))
    if not os.path.exists(args.output) or os.path.getsize(args.output) == 0:
        raise RenderError("dot wrote nothing for '%s'" % args.graph)
    for m in messages:
        if not args.quiet:
            sys.stderr.write("%s: dot: %s\n" % (PROG, m))


# ---------------------------------------------------------------------------
# bench
# ---------------------------------------------------------------------------


def cmd_bench(args):
    fmt = output_format(args.output)
    data = read_json(args.results)
    expect_kind(data, args.results, "bench")
    entries = field(data, "workloads", "'%s'" % args.results, list)
    if args.config:
        configs = sorted({str(e.get("config")) for e in entries
                          if isinstance(e, dict)})
        unknown = [c for c in args.config if c not in configs]
        if unknown:
            raise RenderError("'%s' has no config %s (it has %s)" % (
                args.results, ", ".join(unknown), ", ".join(configs)))
        entries = [e for e in entries if e.get("config") in args.config]
    if args.workloads:
        names = [str(e.get("workload")) for e in entries
                 if isinstance(e, dict)]
        unknown = [w for w in args.workloads if w not in names]
        if unknown:
            raise RenderError("'%s' has no workload %s" % (
                args.results, ", ".join(unknown)))
        entries = [e for e in entries if e.get("workload") in args.workloads]
    if not entries:
        raise RenderError("'%s' has no workloads to draw" % args.results)

    rows = []
    for i, e in enumerate(entries):
        w = "'%s': workloads[%d]" % (args.results, i)
        if not isinstance(e, dict):
            raise RenderError("%s is not an object" % w)
        config = str(field(e, "config", w))
        workload = str(field(e, "workload", w))
        pytorch = field(e, "pytorch", w, dict)
        ours = field(e, "ours", w, dict)
        rows.append({
            "label": workload if config == "suite" else
            "%s %s" % (config, workload),
            "floor": number(e, "floor_us", w, 0.0) or None,
            "pytorch": {v: r.get("us") for v, r in pytorch.items()
                        if isinstance(r, dict)},
            "ours": {v: (r.get("us"), bool(r.get("pass")),
                         r.get("kernels")) for v, r in ours.items()
                     if isinstance(r, dict)}})
        ours_ran = rows[-1]["ours"]
        if ours_ran and not any(ok and isinstance(t, (int, float))
                                for t, ok, _ in ours_ran.values()):
            rows[-1]["label"] += "\n(ours: no passing run)"
    pt_variants = [v for v in PYTORCH_VARIANTS if any(
        isinstance(r["pytorch"].get(v), (int, float)) for r in rows)]
    pt_variants += sorted({v for r in rows for v, t in r["pytorch"].items()
                           if v not in PYTORCH_VARIANTS and
                           isinstance(t, (int, float))})
    our_variants = sorted({v for r in rows for v in r["ours"]},
                          key=lambda v: (v != "default", v))
    series = []  # (label, color, kind, variant)
    if not args.relative:
        series.append(("HBM floor", FLOOR_COLOR, "floor", None))
    for k, v in enumerate(pt_variants):
        series.append(("PyTorch " + v, PYTORCH_COLORS[k % 4], "pytorch", v))
    for k, v in enumerate(our_variants):
        series.append(("ours" if our_variants == ["default"] else
                       "ours (%s)" % v, OURS_COLORS[k % 4], "ours", v))

    def value(r, kind, variant):
        """(time or time/floor, passed) of one bar, or (None, _)."""
        if kind == "floor":
            t, ok = r["floor"], True
        elif kind == "pytorch":
            t, ok = r["pytorch"].get(variant), True
        else:
            t, ok, _ = r["ours"].get(variant, (None, False, None))
        if not isinstance(t, (int, float)) or t <= 0:
            return None, ok
        if args.relative:
            if not r["floor"]:
                return None, ok
            t = t / r["floor"]
        return t, ok

    # Bars per workload: the series it has, next to each other (a variant
    # that did not run leaves no gap).
    bars_of = [[] for _ in series]  # per series: (y, value, failed)
    widest = 1
    for i, r in enumerate(rows):
        present = []
        for k, (_, _, kind, variant) in enumerate(series):
            t, ok = value(r, kind, variant)
            if t is not None:
                present.append((k, t, not ok))
        widest = max(widest, len(present))
        for j, (k, t, failed) in enumerate(present):
            bars_of[k].append((i, j, len(present), t, failed))
    bar_h = 0.8 / widest
    allvals = [b[3] for bs in bars_of for b in bs]
    if not allvals:
        raise RenderError("'%s' has no times to draw" % args.results)

    plt = pyplot()
    height = 1.4 + len(rows) * (widest * 0.15 + 0.25)
    fig, ax = plt.subplots(figsize=(args.width, height), layout="constrained")
    for (label, color, _, _), bs in zip(series, bars_of):
        if not bs:
            continue
        ys = [i + (j - (m - 1) / 2) * bar_h for i, j, m, _, _ in bs]
        xs = [t for _, _, _, t, _ in bs]
        fails = [f for _, _, _, _, f in bs]
        bars = ax.barh(ys, xs, bar_h * 0.9, color=color, label=label)
        for bar, failed in zip(bars, fails):
            if failed:
                bar.set_hatch("xxx")
                bar.set_edgecolor("#c44e52")
                bar.set_facecolor("white")
        if not args.no_values:
            ax.bar_label(bars, labels=[
                ("%.2fx" % t if args.relative else us(t)) +
                (" FAIL" if f else "") for t, f in zip(xs, fails)],
                fontsize=6.5, padding=2)
    ax.set_yticks(range(len(rows)), [r["label"] for r in rows])
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    scale = args.scale
    if scale == "auto":
        scale = "log" if log_scale_wanted(allvals) else "linear"
    if scale == "log":
        ax.set_xscale("log")
    if args.relative:
        ax.axvline(1.0, color="#333333", linewidth=1, linestyle="--",
                   label="HBM floor (1x)")
        ax.set_xlabel("time / HBM floor (lower is better)")
    else:
        ax.set_xlabel("us per call (lower is better)")
    ax.margins(x=0.12, y=0.5 / len(rows))
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0),
              ncol=min(len(series) + args.relative, 6),
              fontsize=7.5, borderaxespad=0.3)
    device = data.get("device", "?")
    title = "%s, %s: workloads against PyTorch and the HBM floor" % (
        device, data.get("date", "?"))
    gm_f, gm_p = (data.get("geomean_ours_over_floor"),
                  data.get("geomean_ours_over_pytorch"))
    if (isinstance(gm_f, (int, float)) and isinstance(gm_p, (int, float))
            and not args.config and not args.workloads):
        title += "\ngeomean of ours / floor %.2f, of ours / best PyTorch " \
                 "%.2f (%d workloads)" % (gm_f, gm_p,
                                          data.get("geomean_count", 0))
    if (data.get("settings") or {}).get("quick"):
        title += "\n--quick: a smoke test, not a measurement"
    fig.suptitle(args.title or title, fontsize=10, fontweight="bold")
    save(plt, fig, args.output, fmt, args.dpi)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


SATURATION_HELP = """\
Draws a saturation report in four panels: the e-graph's e-nodes and
e-classes after each iteration; the rule applications of each iteration
(stacked by rule when the report splits them, per_iteration[i].rules); the
time of each iteration by phase (search, apply, rebuild, hooks); and the
rules that matched most, applied within matches, colored by family.

  tile-opt F.mlir --tile-saturate="report=R.json" -o /dev/null
  tile-render.py saturation R.json -o saturation.png

An extraction report is accepted too: its first round's saturation is
drawn."""

EXTRACTION_HELP = """\
Draws an extraction report: each candidate's structure (kernels, loops,
crossings, repeated statements: what extraction ranks by), its roofline
estimate (pass 2's cost when there was no target), colored by the check's
verdict, and the kernels of each round's most fused candidate.

  tile-opt F.mlir --tile-extract="top-k=4 report=R.json" -o /dev/null
  tile-opt L.mlir --tile-optimize="report=R.json" -o /dev/null
  tile-render.py extraction R.json -o candidates.png"""

EGRAPH_HELP = """\
Draws a Graphviz file with dot. tile-opt's e-graphs are restyled first:
one box per e-class, labeled with its id, shaded when it holds several
e-nodes (the equalities the rules found); an edge goes from an e-node to
the e-class of an operand, labeled with the operand's position. tile-opt
writes e-graphs of up to 5000 e-nodes; a readable picture has at most a
hundred or so.

  tile-opt F.mlir --tile-saturate="dot=G.dot iterations=2" -o /dev/null
  tile-render.py egraph G.dot -o egraph.svg"""

BENCH_HELP = """\
Draws the JSON of bench/gpu/bench.py: per workload, the HBM floor, every
PyTorch variant that ran and each of our variants (hatched red when it
failed its check), in us per call, on a log scale when the times span more
than 30x. The Trinity configs' workloads are labeled '<config> <workload>',
the suite's programs by name.

  python3 bench/gpu/bench.py --artifacts A --out bench/results
  tile-render.py bench bench/results/DEVICE-DATE.json -o bench.png"""


class Parser(argparse.ArgumentParser):
    """Usage errors as `tile-render: error: ...`, exit status 1."""

    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: error: %s\n" % (PROG, message))
        sys.exit(1)


def add_output(p, dpi=100):
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the picture to write: OUT.png or OUT.svg")
    p.add_argument("--dpi", type=int, default=dpi,
                   help="pixels per inch of a PNG (default %(default)s)")
    p.add_argument("--title", help="the picture's title instead of the "
                   "generated one")


def build_parser():
    raw = argparse.RawDescriptionHelpFormatter
    p = Parser(prog=PROG, formatter_class=raw,
               description="Pictures of tile-opt's reports and of benchmark "
               "results.",
               epilog="Run 'tile-render COMMAND --help' for a command's "
               "options;\ndocs/Rendering.md shows one picture of each.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND",
                           parser_class=Parser)
    sub.required = True

    s = sub.add_parser(
        "saturation", formatter_class=raw, description=SATURATION_HELP,
        help="e-graph growth and rule applications (--tile-saturate)")
    s.add_argument("report", metavar="REPORT.json")
    s.add_argument("--program", help="the program to draw, when the report "
                   "has several")
    s.add_argument("--top", type=int, default=15, metavar="N",
                   help="rules in the rule panel (default 15)")
    s.add_argument("--top-split", type=int, default=8, metavar="N",
                   help="rules named in the per-iteration split, when the "
                   "report has it (default 8)")
    add_output(s)
    s.set_defaults(run=cmd_saturation)

    e = sub.add_parser(
        "extraction", formatter_class=raw, description=EXTRACTION_HELP,
        help="each candidate's kernels and estimate (--tile-extract)")
    e.add_argument("report", metavar="REPORT.json")
    e.add_argument("--program", help="the program to draw, when the report "
                   "has several")
    add_output(e)
    e.set_defaults(run=cmd_extraction)

    g = sub.add_parser(
        "egraph", formatter_class=raw, description=EGRAPH_HELP,
        help="an e-graph (--tile-saturate's DOT) drawn by graphviz's dot")
    g.add_argument("graph", metavar="GRAPH.dot")
    g.add_argument("--rankdir", choices=["TB", "LR", "BT", "RL"],
                   default="TB", help="direction of the edges (default TB: "
                   "users above their operands)")
    g.add_argument("--max-size", type=float, metavar="INCHES",
                   help="scale the drawing down to fit a square of this size")
    g.add_argument("--plain", action="store_true",
                   help="draw the DOT as it is, without restyling")
    g.add_argument("--dot", metavar="PATH",
                   help="the dot program (default: 'dot' on PATH)")
    g.add_argument("--timeout", type=int, default=120, metavar="SECONDS",
                   help="how long dot may take (default 120)")
    g.add_argument("--quiet", action="store_true",
                   help="do not pass dot's warnings on")
    add_output(g, dpi=96)
    g.set_defaults(run=cmd_egraph)

    b = sub.add_parser(
        "bench", formatter_class=raw, description=BENCH_HELP,
        help="benchmark results against PyTorch and the HBM floor "
        "(bench/gpu/bench.py)")
    b.add_argument("results", metavar="RESULTS.json")
    b.add_argument("--config", nargs="+", metavar="CONFIG",
                   help="only these configs (llama, falcon, suite)")
    b.add_argument("--workloads", nargs="+", metavar="NAME",
                   help="only these workloads")
    b.add_argument("--relative", action="store_true",
                   help="draw each time over the workload's HBM floor")
    b.add_argument("--scale", choices=["auto", "log", "linear"],
                   default="auto", help="the time axis (default auto)")
    b.add_argument("--no-values", action="store_true",
                   help="no number at the end of each bar")
    b.add_argument("--width", type=float, default=10.0, metavar="INCHES",
                   help="width of the picture (default 10)")
    add_output(b)
    b.set_defaults(run=cmd_bench)
    return p


def main(argv):
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except RenderError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
