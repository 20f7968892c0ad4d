#!/usr/bin/env python3
"""Prints the table of #tile.gpu_config's fields (field, type, default,
meaning) from include/TileDialect/IR/GPUConfigKnobs.def, as
docs/GPULowering.md lists them.

Usage: scripts/gpu-config-table.py            # print the table
       scripts/gpu-config-table.py --update docs/GPULowering.md
The second form replaces the lines between the markers
`<!-- BEGIN gpu-config-table -->` and `<!-- END gpu-config-table -->`.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "include", "TileDialect", "IR", "GPUConfigKnobs.def")
BEGIN = "<!-- BEGIN gpu-config-table -->"
END = "<!-- END gpu-config-table -->"
KNOB = re.compile(r'^TILE_GPU_(INT|BOOL)_KNOB\((\w+),\s*"(\w+)",\s*(\w+),\s*'
                  r'(?:(\w+),\s*(\w+),\s*)?'
                  r'((?:"(?:[^"\\]|\\.)*"\s*)+)\)', re.M)


def table():
    text = open(DEF).read()
    lines = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for kind, _, key, default, lo, hi, doc in KNOB.findall(text):
        doc = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', doc))
        if kind == "INT":
            kind = "integer >= %s" % lo if hi == "kNoMax" else \
                "integer in [%s, %s]" % (lo, hi)
        else:
            kind = "boolean"
        lines.append("| `%s` | %s | %s | %s |" % (
            key, kind, default, doc.replace("|", "\\|")))
    if len(lines) == 2:
        sys.exit("gpu-config-table: no knobs found in " + DEF)
    # Not a scalar knob: GPUConfigAttr handles it by hand.
    lines.append("| `tile_sizes` | `{NAME = N, ...}` | `{}` | Values of symbolic "
                 "tile sizes; explicit sizes are never changed |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--update", metavar="FILE")
    opts = p.parse_args()
    if not opts.update:
        sys.stdout.write(table())
        return
    doc = open(opts.update).read()
    if BEGIN not in doc or END not in doc:
        sys.exit("gpu-config-table: %s has no %s ... %s" % (opts.update, BEGIN, END))
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table() + END + tail
    if new != doc:
        open(opts.update, "w").write(new)
        print("gpu-config-table: updated " + opts.update)


if __name__ == "__main__":
    main()
