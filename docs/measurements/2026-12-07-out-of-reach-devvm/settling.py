#!/usr/bin/env python3
"""Each adaptive case's ending in a report-costs run's reports, before beside after: python3 settling.py OUT_DIR
(stop, samples kept, seconds of samples, median), one tuple per round."""
import glob
import json
import sys


def walk(o, out):
    if isinstance(o, dict):
        if o.get('settling') and 'key' in o and o.get('value'):
            out.append((o['key'], o['settling'], o['value']))
        for v in o.values():
            walk(v, out)
    elif isinstance(o, list):
        for v in o:
            walk(v, out)


rows, seconds = {}, {}
for side in ['before', 'after']:
    for f in sorted(glob.glob(f'{sys.argv[1]}/r*-report-{side}/*.json')):
        out = []
        walk(json.load(open(f)), out)
        seen = set()
        for k, s, v in out:
            if k in seen:
                continue
            seen.add(k)
            m = v['median']
            rows.setdefault(k, {}).setdefault(side, []).append((s['stop'], s['samples'], round(s['seconds'], 1), round(m, 3 if m < 100 else 0)))
            if s['stop'] != 'settled':
                seconds.setdefault(side, {}).setdefault(f, 0)
                seconds[side][f] += s['seconds']
for k, v in rows.items():
    print(f"| {k} | {v.get('before')} | {v.get('after')} |")
for side, per in seconds.items():
    print(side, 'seconds in unsettled loops per report:', [round(x, 1) for x in per.values()])
