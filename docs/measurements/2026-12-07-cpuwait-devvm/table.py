#!/usr/bin/env python3
"""Tables of a bench.sh output folder: per case seconds (the drill's own progress lines), the
figures of both jars, the timer figures beside refs timer. table.py OUTDIR"""
import json, re, sys, glob, os, statistics

out = sys.argv[1]
rounds = sorted({int(re.match(r"r(\d+)-", os.path.basename(p)).group(1)) for p in glob.glob(out + "/r*-before.out")})
KEYS = ["syscall_getppid", "context_switch_same_core", "context_switch_cross_core", "futex_wakeup_cross_core", "thread_migration",
        "timer_jitter_quiet", "timer_jitter_noisy", "dataloader_cow_list", "dataloader_cow_array", "fork_vs_spawn_cuda"]

def secs(tag):
    got = {}
    for line in open(f"{out}/{tag}.err"):
        m = re.search(r"\d+/\d+ (\S+): (ok|not run|failed)(?: in ([\d.]+) (m?s))?", line)
        if m and m.group(3):
            v = float(m.group(3)) / (1000 if m.group(4) == "ms" else 1)
            got[m.group(1)] = v
    last = [l for l in open(f"{out}/{tag}.err") if "elapsed" in l]
    el = re.search(r"elapsed (?:(\d+)m)?([\d.]+)s?", last[-1]) if last else None
    return got, (60 * int(el.group(1) or 0) + float(el.group(2)) if el else None)

def doc(tag):
    return json.load(open(f"{out}/{tag}.out"))

def results(d):
    rs = {r["key"]: r for r in d["measured"]["results"]}
    rs.update({r["key"]: r for r in d["dataloader"]})
    return rs

def refs(tag):
    t = open(f"{out}/{tag}.out").read()
    m = re.search(r"late p50 ([\d.]+) p99 ([\d.]+) p99\.9 ([\d.]+) max ([\d.]+) us, missed ticks (\d+)", t)
    return dict(p50=float(m[1]), p99=float(m[2]), p999=float(m[3]), missed=int(m[5])) if m else None

def fmt(v, d=1):
    return "" if v is None else f"{v:.{d}f}"

load = {}
for line in open(f"{out}/load.txt"):
    p = line.split()
    load.setdefault(p[0], {})[p[1]] = " ".join(p[2:5])

print("## Seconds per case (the drill's own progress lines), load before/after each run (1, 5, 15 min)\n")
print("| round | jar | " + " | ".join(KEYS) + " | drill (last elapsed) | load before | load after |")
print("|---|---|" + "---:|" * len(KEYS) + "---:|---|---|")
per = {"before": {k: [] for k in KEYS + ["drill"]}, "after": {k: [] for k in KEYS + ["drill"]}}
for r in rounds:
    for jar in ("before", "after"):
        tag = f"r{r}-{jar}"
        s, el = secs(tag)
        for k in KEYS:
            if k in s: per[jar][k].append(s[k])
        per[jar]["drill"].append(el)
        print(f"| {r} | {jar} | " + " | ".join(fmt(s.get(k)) for k in KEYS) + f" | {fmt(el)} | {load[tag]['load-before']} | {load[tag]['load-after']} |")
print()
print("| jar | " + " | ".join(KEYS) + " | drill |")
print("|---|" + "---:|" * (len(KEYS) + 1))
for jar in ("before", "after"):
    cells = []
    for k in KEYS + ["drill"]:
        v = per[jar][k]
        cells.append(f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})" if v else "")
    print(f"| {jar} median (min-max) | " + " | ".join(cells) + " |")

print("\n## Figures, each run's median (its own min-max)\n")
print("| figure | unit | " + " | ".join(f"r{r} before | r{r} after" for r in rounds) + " |")
print("|---|---|" + "---|" * (2 * len(rounds)))
docs = {(r, j): results(doc(f"r{r}-{j}")) for r in rounds for j in ("before", "after")}
for k in KEYS:
    cells, unit = [], ""
    for r in rounds:
        for j in ("before", "after"):
            x = docs[(r, j)].get(k)
            if x and x["status"] == "ok":
                v = x["value"]; unit = x.get("unit", "")
                d = 2 if v["median"] < 100 else 0
                cells.append(f"{v['median']:.{d}f} ({v['min']:.{d}f}-{v['max']:.{d}f})")
            else:
                cells.append(x["status"] + (": " + x.get("why", "")[:40] if x else "") if x else "absent")
    print(f"| {k} | {unit} | " + " | ".join(cells) + " |")

print("\n## Timer jitter beside refs timer (us; missed ticks), and the warm-ups\n")
print("| round | condition | refs timer p99 / p99.9 / missed | before p99 / p99.9 / missed | after p99 / p99.9 / missed | before warm-up ticks, ms | after warm-up ticks, ms |")
print("|---|---|---|---|---|---|---|")
for r in rounds:
    for cond, peer in (("timer_jitter_quiet", "refs-timer-quiet"), ("timer_jitter_noisy", "refs-timer-hogs")):
        p = refs(f"r{r}-{peer}")
        row = [f"{p['p99']:.1f} / {p['p999']:.1f} / {p['missed']}" if p else "?"]
        warm = []
        for j in ("before", "after"):
            x = docs[(r, j)][cond]; dl = x["detail"]
            row.append(f"{dl['lateNs']['p99'] / 1e3:.1f} / {dl['lateNs']['p999'] / 1e3:.1f} / {dl['missedTicks']}")
            warm.append(f"{dl['warmupTicks']}, {dl['warmupMs']}{'' if dl['jitSettledInWarmup'] else ' (JIT not quiet)'}")
        print(f"| {r} | {cond} | " + " | ".join(row + warm) + " |")

print("\n## Copy-on-write details (dataset MiB as main's USS grew, main's USS before the build MiB, peak RSS MiB of whom)\n")
print("| round | jar | list dataset | list main before | list peak | array dataset | array main before | array peak |")
print("|---|---|---:|---:|---|---:|---:|---|")
for r in rounds:
    for j in ("before", "after"):
        c = []
        for k in ("dataloader_cow_list", "dataloader_cow_array"):
            x = docs[(r, j)][k]
            if x["status"] != "ok":
                c += [x["status"], "", ""]; continue
            d = x["detail"]
            c += [f"{d['datasetBytes'] / 2**20:.1f}", f"{d['main']['beforeBuildUssBytes'] / 2**20:.1f}",
                  f"{(d.get('peakRssBytes') or 0) / 2**20:.0f} ({d.get('peakRssOf')})"]
        print(f"| {r} | {j} | " + " | ".join(c) + " |")
