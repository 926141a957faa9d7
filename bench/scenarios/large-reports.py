#!/usr/bin/env python3
"""Large reports for measuring `hostside compare`'s memory : N copies of a report whose
data-loader module holds SAMPLES memory samples per process (a long CoW run sampled every 100 ms
keeps that many), each copy named nodeNN. The report must carry typed figures (schema hostside/2,
or a first-schema report written again by hostside); module 3's first data-loader case is inflated.

    python3 bench/scenarios/large-reports.py REPORT.json OUTDIR N SAMPLES

With the H200 report (testdata/reports/h200-hostside2.json) and SAMPLES=34000, each file is about 44 MB;
bench/run compare-memory measures compare on them. Standard library only.
"""
import copy
import json
import os
import sys

report, out, n, samples = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = json.load(open(report))
if base.get("kind") != "report" or "figures" not in base:
    raise SystemExit(f"{report}: not a hostside report with typed figures")
cpu = next(m for m in base["modules"] if m["module"] == 3)
detail = cpu["data"]["dataloader"][0]["detail"]
for proc in [detail["main"]] + detail["perWorker"]:
    first = proc["samples"][0]
    proc["samples"] = [dict(first, tMs=100 * i) for i in range(samples)]
os.makedirs(out, exist_ok=True)
for i in range(n):
    r = copy.copy(base)
    name = f"node{i:02d}"
    r["machine"] = dict(base.get("machine") or {}, name=name, hostname=name)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(r, f, indent=2)
