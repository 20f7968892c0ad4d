"""Checks the order of cost estimates of the vanilla programs.

Usage: compare_costs.py NAIVE.json FIG4D.json FIG4F.json

Each file is a --tile-estimate-cost report with one program. Prints one line
per program, then one verdict per comparison, for FileCheck:
  kernels: naive > fig4d > fig4f          KERNELS DECREASE / KERNELS DO NOT DECREASE
  time:    naive > fig4d                  NAIVE SLOWER THAN FIG4D / NAIVE NOT SLOWER THAN FIG4D
  time:    fig4d >= fig4f                 FIG4D NOT FASTER THAN FIG4F / FIG4D FASTER THAN FIG4F
"""

import json
import sys


def load(path):
    with open(path) as f:
        report = json.load(f)
    (program,) = report["programs"]
    return report["target"], program


def main(paths):
    target, naive = load(paths[0])
    _, fig4d = load(paths[1])
    _, fig4f = load(paths[2])
    for p in (naive, fig4d, fig4f):
        print(f"{target} {p['program']}: {p['kernels']} kernels, "
              f"{p['time_us']:.1f} us, {p['hbm_bytes']} B HBM, {p['limiter']}")
    k = (naive["kernels"], fig4d["kernels"], fig4f["kernels"])
    print("KERNELS DECREASE" if k[0] > k[1] > k[2] else "KERNELS DO NOT DECREASE")
    print("NAIVE SLOWER THAN FIG4D" if naive["time_us"] > fig4d["time_us"]
          else "NAIVE NOT SLOWER THAN FIG4D")
    print("FIG4D NOT FASTER THAN FIG4F" if fig4d["time_us"] >= fig4f["time_us"]
          else "FIG4D FASTER THAN FIG4F")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
