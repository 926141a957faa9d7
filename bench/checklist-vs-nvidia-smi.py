#!/usr/bin/env python3
"""hostside checklist's GPU figures beside nvidia-smi's over the same seconds.

Reads what bench/device-module4.sh left in OUTDIR for one load NAME: NAME.checklist.json
(hostside checklist PID --json), NAME.nvsmi.csv (nvidia-smi --query-gpu ... -lms 500),
NAME.dmon.txt (nvidia-smi dmon -s ut -o DT -d 1: PCIe rx/tx in MB/s) and, where the machine had
them, NAME.vmstat.txt / NAME.pidstat.txt. nvidia-smi's rows are cut to hostside's window
(window.startedAt + window.seconds). Prints one table: figure, hostside, nvidia-smi, ratio.

  python3 bench/checklist-vs-nvidia-smi.py OUTDIR NAME
"""
import datetime as dt
import json
import os
import statistics
import sys

out, name = sys.argv[1], sys.argv[2]
h = json.load(open(os.path.join(out, name + ".checklist.json")))
start = dt.datetime.fromisoformat(h["window"]["startedAt"].replace("Z", "+00:00")).replace(tzinfo=None)
end = start + dt.timedelta(seconds=h["window"]["seconds"])
# nvidia-smi prints local time; the device runs in UTC (checked in the log's first line)


def inside(t):
    return start <= t <= end


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


rows = []
for line in open(os.path.join(out, name + ".nvsmi.csv")):
    f = [x.strip() for x in line.split(",")]
    if len(f) < 9:
        continue
    try:
        t = dt.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f")
    except ValueError:
        continue
    if inside(t):
        rows.append(f)

dmon = []
cols = None
for line in open(os.path.join(out, name + ".dmon.txt")):
    if line.startswith("#"):
        if cols is None:
            cols = line[1:].split()
        continue
    f = line.split()
    if cols and len(f) == len(cols):
        r = dict(zip(cols, f))
        t = dt.datetime.strptime(r["Date"] + " " + r["Time"], "%Y%m%d %H:%M:%S")
        # dmon's row at second t covers the second before it
        if start <= t - dt.timedelta(seconds=0.5) and t <= end + dt.timedelta(seconds=0.5):
            dmon.append(r)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return statistics.fmean(xs) if xs else None


g = h["gpus"]["gpus"][0] if h.get("gpus") and h["gpus"].get("gpus") else None
if g is None:
    print(f"{name}: hostside read no GPU: {h.get('gpus')}")
    sys.exit(1)
print(f"## {name}: window {h['window']['startedAt']} + {h['window']['seconds']} s, "
      f"{h['window']['samples']} hostside samples, {len(rows)} nvidia-smi rows, {len(dmon)} dmon rows")
print(f"verdict: {(h.get('verdict') or {}).get('text')}")
table = []


def add(label, ours, theirs, unit):
    ratio = f"{ours / theirs:.3f}" if ours is not None and theirs not in (None, 0) else "-"
    table.append((label, "-" if ours is None else f"{ours:.1f}", "-" if theirs is None else f"{theirs:.1f}", unit, ratio))


add("GPU utilisation (mean)", g["utilPercent"], mean(num(r[1]) for r in rows), "%")
add("memory controller busy (mean)", g["memoryUtilPercent"], mean(num(r[2]) for r in rows), "%")
add("memory used (last)", g["memoryUsedBytes"] / 2**20 if g["memoryUsedBytes"] else None, num(rows[-1][3]) if rows else None, "MiB")
add("power (mean)", g["powerWatts"], mean(num(r[4]) for r in rows), "W")
add("power limit", g["powerLimitWatts"], num(rows[-1][5]) if rows else None, "W")
add("SM clock (mean)", g["smClockMhz"], mean(num(r[6]) for r in rows), "MHz")
add("SM clock max", g["smClockMaxMhz"], num(rows[-1][7]) if rows else None, "MHz")
# what the load itself copied to the GPU over the window: its log has "epoch bytes-so-far" per step
ground = None
load = os.path.join(out, name + ".load.log")
if os.path.exists(load):
    steps = []
    for line in open(load):
        f = line.split()
        if len(f) == 2:
            try:
                steps.append((dt.datetime.fromtimestamp(float(f[0]), dt.timezone.utc).replace(tzinfo=None), int(f[1])))
            except ValueError:
                pass
    inner = [s_ for s_ in steps if start <= s_[0] <= end]
    if len(inner) >= 2 and inner[-1][1] > inner[0][1]:
        ground = (inner[-1][1] - inner[0][1]) / (inner[-1][0] - inner[0][0]).total_seconds() / 1e6
if dmon:
    add("PCIe rx, host to GPU (mean)", g["pcieRxKBps"] / 1000 if g["pcieRxKBps"] is not None else None,
        mean(num(r["rxpci"]) for r in dmon), "MB/s")
    if ground is not None:
        add("PCIe rx against the bytes the load copied", g["pcieRxKBps"] / 1000 if g["pcieRxKBps"] is not None else None, ground, "MB/s")
    add("PCIe tx, GPU to host (mean)", g["pcieTxKBps"] / 1000 if g["pcieTxKBps"] is not None else None,
        mean(num(r["txpci"]) for r in dmon), "MB/s")
vm = os.path.join(out, name + ".vmstat.txt")
if os.path.exists(vm) and h.get("cpus"):
    # vmstat -t: a row covers the second before it was printed, and its stamp is that moment cut
    # to the whole second, so the row lies somewhere in [t-1, t+1). Only rows that lie inside the
    # window however they fall are kept: the seconds around it hold the JVM starting and exiting,
    # thousands of context switches that hostside's own window does not contain.
    # us = user + nice, sy = system + irq + softirq
    v = []
    for line in open(vm):
        f = line.split()
        if len(f) >= 17 and f[0].isdigit():
            t = dt.datetime.strptime(f[-2] + " " + f[-1], "%Y-%m-%d %H:%M:%S")
            if start + dt.timedelta(seconds=1) <= t <= end - dt.timedelta(seconds=1):
                v.append([int(x) for x in f[:16]])
    if v:
        a = h["cpus"]["all"]
        add("machine context switches/s (vmstat cs)", h["cpus"]["contextSwitchesPerSecond"], mean(r[11] for r in v), "/s")
        add("all CPUs user+nice (vmstat us)", a["user"] + a["nice"], mean(r[12] for r in v), "%")
        add("all CPUs system+irq+soft (vmstat sy)", a["system"] + a["irq"] + a["softirq"], mean(r[13] for r in v), "%")
        add("all CPUs idle (vmstat id)", a["idle"], mean(r[14] for r in v), "%")
w = [max(len(r[i]) for r in table + [("figure", "hostside", "other tool", "unit", "ratio")]) for i in range(5)]
for r in [("figure", "hostside", "other tool", "unit", "ratio")] + table:
    print("  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(r)))
reasons = {}
for r in rows:
    reasons[r[8]] = reasons.get(r[8], 0) + 1
print(f"clock event reasons: hostside {g['clocksEventReasons']}; nvidia-smi bitmasks {reasons}")
print(f"processes on the GPU: hostside {g['processes']} (watched one among them: {g['usedByProcess']}); "
      f"nvidia-smi {open(os.path.join(out, name + '.apps.csv')).read().strip()!r}")
p = h.get("process") or {}
print(f"process CPU {p.get('cpuPercent')}%, threads: "
      + ", ".join(f"{t.get('name')} {t.get('cpuPercent')}%" for t in sorted(p.get("threadList") or [], key=lambda t: -(t.get("cpuPercent") or 0))[:4]))
