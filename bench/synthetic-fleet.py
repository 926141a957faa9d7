#!/usr/bin/env python3
"""A synthetic fleet from one real report, for trying `hostside compare` on many machines:
N copies of REPORT.json, each named nodeNN, every figure moved by a deterministic normal wobble
of SIGMA (default 0.3%) with its min and max moved alike, and optional stragglers: a node whose
figure is scaled by a factor, with its driver changed or not.

    python3 bench/synthetic-fleet.py REPORT.json OUTDIR N [--sigma 0.003] \
        [--straggler NODE:KEY:FACTOR[:DRIVER]] ...

e.g. --straggler 17:host_to_device_ce_pinned:0.75:570.86 makes node17 copy at 75% with driver
570.86 while the others keep the report's. Standard library only; the seed is fixed (7), so the
same arguments write the same files.
"""
import argparse
import copy
import json
import os
import random

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("out")
ap.add_argument("n", type=int)
ap.add_argument("--sigma", type=float, default=0.003)
ap.add_argument("--straggler", action="append", default=[])
a = ap.parse_args()
base = json.load(open(a.report))
if base.get("kind") != "report" or "figures" not in base:
    raise SystemExit(f"{a.report}: not a hostside report with typed figures")
strag = {}
for s in a.straggler:
    parts = s.split(":")
    if len(parts) not in (3, 4):
        raise SystemExit(f"--straggler {s}: NODE:KEY:FACTOR[:DRIVER]")
    strag.setdefault(int(parts[0]), []).append((parts[1], float(parts[2]), parts[3] if len(parts) == 4 else None))
rng = random.Random(7)
os.makedirs(a.out, exist_ok=True)
width = len(str(a.n - 1))
for i in range(a.n):
    r = copy.deepcopy(base)
    name = f"node{i:0{width}d}"
    r["machine"]["name"] = name
    r["machine"]["hostname"] = name
    for f in r["figures"]:
        k = 1 + rng.gauss(0, a.sigma)
        for key, factor, _ in strag.get(i, []):
            if f["key"] == key:
                k *= factor
        for field in ("value", "min", "max"):
            f[field] *= k
            if f.get("unit") == "%":
                f[field] = min(f[field], 100.0)  # a share stays a share
    for _, _, driver in strag.get(i, []):
        if driver:
            r["software"]["driver"] = driver
    with open(os.path.join(a.out, name + ".json"), "w") as fh:
        json.dump(r, fh, indent=1)
print(f"wrote {a.n} reports to {a.out}")
