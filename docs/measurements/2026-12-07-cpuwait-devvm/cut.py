#!/usr/bin/env python3
"""Cuts each hostside JSON in the folders given (*.out and *.json) to what the tables read: the
measured results and the DataLoader results (without the copy-on-write memory series and the
jitter histograms' buckets) and the load beside them; the facts, findings and figures go."""
import json, sys, glob
for folder in sys.argv[1:]:
    for p in glob.glob(folder + "/*.out") + glob.glob(folder + "/*.json"):
        try:
            d = json.load(open(p))
        except ValueError:
            continue  # refs' text output
        keep = {k: d[k] for k in ("schema", "kind", "measured", "dataloader", "load") if k in d}
        for r in keep.get("measured", {}).get("results", []):
            for dist in (r.get("detail") or {}).values():
                if isinstance(dist, dict):
                    dist.pop("histogram", None)
        for r in keep.get("dataloader", []):
            det = r.get("detail") or {}
            if "main" in det:
                det["main"].pop("samples", None)
            for w in det.get("perWorker", []):
                w.pop("samples", None)
        json.dump(keep, open(p, "w"), separators=(",", ":"))
