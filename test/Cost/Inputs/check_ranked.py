"""Checks that the candidates --tile-optimize returns are ranked by their
estimate as lowered: reads the output IR, prints each program's name and
tile.estimated_us, then RANKED if the estimates never decrease, else
UNRANKED.

Usage: check_ranked.py OUTPUT.mlir
"""

import re
import sys


def main(path):
    text = open(path).read()
    estimates = []
    for line in text.splitlines():
        m = re.search(r"tile\.program @(\w+)\(", line)
        if not m:
            continue
        us = re.search(r"tile\.estimated_us = ([0-9.eE+-]+)", line)
        estimates.append(float(us.group(1)) if us else float("inf"))
        print("%s %s" % (m.group(1), us.group(1) if us else "none"))
    ranked = all(a <= b for a, b in zip(estimates, estimates[1:]))
    print("RANKED" if ranked and len(estimates) > 1 else "UNRANKED")


if __name__ == "__main__":
    main(sys.argv[1])
