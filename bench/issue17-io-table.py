#!/usr/bin/env python3
"""The ratio table of bench/issue17-io.sh, from its output folder: per figure hostside's median
(of the per-run medians), the same counted as fio counts (every byte over all the samples' time),
fio's median over the runs, both ratios, every run's value, and the evidence (the device's
requests in /proc/diskstats; for O_DIRECT 1 MiB reads each run's buffer pieces beside its figure).

    python3 bench/issue17-io-table.py OUTDIR ROUNDS
"""
import json
import os
import statistics
import sys

ORDER = ["seq_read_cold_qd1", "seq_read_warm_qd1", "seq_read_direct_qd1", "seq_read_direct_uring_qd32", "rand_read_cold_qd1",
         "rand_read_warm_qd1", "rand_read_direct_qd1", "rand_read_direct_uring_qd1", "rand_read_direct_uring_qd32", "write_buffered",
         "write_fsync"]


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def main(out, rounds):
    disk = {}
    for line in open(os.path.join(out, "disk.txt")):
        f = line.split()
        a, b = [int(x) for x in f[3:6]], [int(x) for x in f[6:9]]
        reqs = b[0] - a[0]
        disk[(f[0], f[1], f[2])] = (reqs, (b[1] - a[1]) * 512 / max(reqs, 1), (b[2] - a[2]) / max(reqs, 1), f[9])
    jobs = {}
    for line in open(os.path.join(out, "jobs.txt")):
        f = line.split()
        jobs[f[0]] = set(f[1:])

    def fio_value(key, unit, r):
        j = load(os.path.join(out, f"r{r}-fio-{key.replace(':', '-')}.json"))
        if not j:
            return None
        side = j["jobs"][0]["write" if key.startswith("write") else "read"]
        return side["bw_bytes"] / 1e9 if unit == "GB/s" else side["iops"]

    def fmt(unit):
        return (lambda v: f"{v:.2f}") if unit == "GB/s" else (lambda v: f"{v:,.0f}")

    print("| figure | unit | hostside median | hostside, fio's count | fio median | ratio | ratio, fio's count | runs (hostside / fio) | evidence |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    mismatch = []
    for key in ORDER:
        hs, overall, fv, pieces, unit, missing = [], [], [], [], None, None
        for r in range(1, rounds + 1):
            j = load(os.path.join(out, f"r{r}-hs-{key}.json"))
            if j is None:
                continue
            res = next((x for x in j.get("results", []) if x["key"] == key), None)
            if not res or res.get("status") != "ok":
                missing = (res or {}).get("status", "no result") + ": " + (res or {}).get("why", "")
                break
            unit = res["unit"]
            hs.append(res["value"]["median"])
            d = res.get("detail", {})
            if d.get("overall") is not None:
                overall.append(d["overall"])
            pieces.append(d.get("bufferPieces"))
            fv.append(fio_value(key, unit, r))
            if set(res.get("anchor", "").split()[1:]) != jobs.get(key, set()) and key not in mismatch:
                mismatch.append(key)
        if missing:
            print(f"| {key} | | {missing} | | | | | | |")
            continue
        if not hs or None in fv:
            continue
        g = fmt(unit)
        mh, mf = statistics.median(hs), statistics.median(fv)
        mo = statistics.median(overall) if len(overall) == len(hs) else None
        ev = []
        for tool in ("hostside", "fio") if "_cold_" in key or "_direct" in key else ():  # the reads that reach the device
            d = [disk[(str(r), tool, key)] for r in range(1, rounds + 1) if (str(r), tool, key) in disk]
            if d and d[0][0] > 0:
                ev.append(f"{tool} reads {statistics.median(x[1] for x in d) / 1024:.0f} KiB, {statistics.median(x[2] for x in d):.2f} ms each")
        if key.startswith("seq_read_direct"):
            fp = [disk.get((str(r), "fio", key), (0, 0, 0, "-"))[3] for r in range(1, rounds + 1)]
            ev.append("pieces, GB/s: hostside " + ", ".join(f"{'?' if p is None else f'{p:.0f}'}: {g(v)}" for p, v in zip(pieces, hs))
                      + "; fio " + ", ".join(f"{p}: {g(v)}" for p, v in zip(fp, fv)))
        print(f"| {key} | {unit} | {g(mh)} | {g(mo) if mo else ''} | {g(mf)} | {mh / mf:.2f} | {f'{mo / mf:.2f}' if mo else ''} |"
              f" {' '.join(g(x) for x in hs)} / {' '.join(g(x) for x in fv)} | {'; '.join(ev)} |")
    for key in ("seq_read_cold_qd1", "rand_read_cold_qd1"):
        unit = "GB/s" if key.startswith("seq") else "IOPS"
        v = [x for x in (fio_value(key + ":fio_default_hint", unit, r) for r in range(1, rounds + 1)) if x is not None]
        if v:
            hint = "SEQUENTIAL" if key.startswith("seq") else "RANDOM"
            print(f"| {key}, fio's default hint | {unit} | | | {fmt(unit)(statistics.median(v))} | | | - / {' '.join(fmt(unit)(x) for x in v)} |"
                  f" not hostside's job: POSIX_FADV_{hint} |")
    print()
    print("every fio job run is the one hostside names" if not mismatch
          else "MISMATCH: hostside names another fio job for " + ", ".join(mismatch) + " (its anchor in rN-hs-KEY.json)")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
