"""hostside's GPU-to-GPU and all-GPU figures beside NVIDIA nvbandwidth's, from one run of each on
the same machine (bench/run multigpu makes both, with CUDA_DEVICE_ORDER=PCI_BUS_ID so that
both number the GPUs alike).

    python3 bench/scenarios/multigpu-table.py NVBANDWIDTH_OUTPUT HOSTSIDE_JSON [HOSTSIDE_JSON ...]

nvbandwidth prints, per test case, "Running KEY." then one or more matrices (a title line ending in
"bandwidth (GB/s)" or "(ns)", a header of column numbers, a row per row number, "N/A" where there is
no figure) each followed by "SUM KEY[_suffix] VALUE". hostside's `machine --json` holds the same
cases under gpu.allGpus (a PeerMatrix per matrix, perGpu for host_to_all/all_to_host) and the
single-GPU copies under gpu.runs. With several hostside runs, each cell is their median.

Prints one line per matrix: cells compared, the SUM lines, hostside/nvbandwidth for the sums, how
many cells reach 95% of nvbandwidth's (bandwidth) or lie within 5% of it (latency, where lower is
not better either: an L2 hit is not a load across the link), and the worst cell. Exit status 1
when a matrix misses that bar in any cell, 2 on unreadable input."""
import json
import re
import statistics
import sys

# nvbandwidth's matrix suffix -> hostside's detail key, per kind of case
BIDIRECTIONAL = {"read1": "read1", "read2": "read2", "total": "total", "write1": "write1", "write2": "write2"}
# nvbandwidth's single-GPU host copies -> the key of hostside's per-GPU result
PER_GPU = {"host_to_device_memcpy_ce": "host_to_device_ce_pinned", "device_to_host_memcpy_ce": "device_to_host_ce_pinned"}
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def parse_nvbandwidth(text):
    """{(key, suffix): {"cells": {(row, col): value}, "sum": float or None, "unit": "GB/s" or "ns"}}"""
    out, key, matrix, cols = {}, None, None, None
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"^Running (\S+)\.$", s)
        if m:
            key, matrix, cols = m.group(1), None, None
            continue
        if key is None:
            continue
        if s.endswith("bandwidth (GB/s)") or s.endswith("(ns)"):
            matrix = {"cells": {}, "sum": None, "unit": "ns" if s.endswith("(ns)") else "GB/s"}
            cols = None
            continue
        if matrix is not None and cols is None and s and all(NUMBER.match(x) for x in s.split()):
            cols = [int(x) for x in s.split()]
            continue
        if matrix is not None and cols is not None and s and NUMBER.match(s.split()[0]) and len(s.split()) == len(cols) + 1:
            parts = s.split()
            for c, v in zip(cols, parts[1:]):
                if v != "N/A":
                    matrix["cells"][(int(parts[0]), c)] = float(v)
            continue
        m = re.match(r"^SUM (\S+) (\S+)$", s)
        if m and matrix is not None:
            name = m.group(1)
            suffix = name[len(key) + 1:] if name.startswith(key + "_") else ""
            matrix["sum"] = float(m.group(2))
            out[(key, suffix)] = matrix
            matrix, cols = None, None
    return out


def hostside_matrices(runs):
    """The same shape from hostside's JSON runs: each cell the median over the runs."""
    cells = {}
    for run in runs:
        gpu = run.get("gpu") or {}
        for r in gpu.get("allGpus", []):
            if r.get("status") != "ok":
                continue
            d, key = r.get("detail", {}), r["key"]
            if "perGpu" in d:  # host_to_all / all_to_host: nvbandwidth prints row 0 = the CPU
                for col, g in enumerate(d["perGpu"]):
                    cells.setdefault((key, ""), {}).setdefault((0, col), []).append(g["gbs"]["median"])
                continue
            for name, value in d.items():
                if not isinstance(value, dict) or "values" not in value:
                    continue
                suffix = "" if name == "matrix" else BIDIRECTIONAL.get(name, name)
                for i, row in enumerate(value["values"]):
                    for j, v in enumerate(row):
                        if v is not None:
                            cells.setdefault((key, suffix), {}).setdefault((i, j), []).append(v)
        for col, g in enumerate(gpu.get("runs", [])):
            for r in g.get("results", []):
                for nvb, mine in PER_GPU.items():
                    if r["key"] == mine and r.get("status") == "ok":
                        cells.setdefault((nvb, ""), {}).setdefault((0, col), []).append(r["value"]["median"])
    return {k: {c: statistics.median(v) for c, v in m.items()} for k, m in cells.items()}


def compare(nvb, mine):
    """One row per nvbandwidth matrix hostside also has; True when every cell meets the bar."""
    rows, ok = [], True
    for (key, suffix), m in sorted(nvb.items()):
        h = mine.get((key, suffix))
        name = key + ("_" + suffix if suffix else "")
        if h is None:
            rows.append((name, "-", f"{m['sum']:.2f}" if m["sum"] is not None else "-", "-", "-", "-", "not in hostside's run"))
            continue
        latency = m["unit"] == "ns"
        shared = sorted(set(m["cells"]) & set(h))
        ratios = {c: h[c] / m["cells"][c] for c in shared if m["cells"][c] > 0}
        good = [c for c, x in ratios.items() if (abs(x - 1) <= 0.05 if latency else x >= 0.95)]
        worst = min(ratios, key=lambda c: -abs(ratios[c] - 1) if latency else ratios[c]) if ratios else None
        ok = ok and len(good) == len(ratios) and bool(ratios)
        hs = sum(h[c] for c in shared)
        rows.append((name, len(shared), f"{hs:.2f}", f"{m['sum']:.2f}" if m["sum"] is not None else "-",
                     f"{100 * hs / m['sum']:.1f}%" if m["sum"] else "-", f"{len(good)}/{len(ratios)}",
                     f"{worst[0]}->{worst[1]} {100 * ratios[worst]:.1f}%" if worst else "-"))
    return rows, ok


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    try:
        nvb = parse_nvbandwidth(open(argv[1]).read())
        runs = [json.load(open(p)) for p in argv[2:]]
    except (OSError, ValueError) as e:
        print(f"multigpu-vs-nvbandwidth: {e}", file=sys.stderr)
        return 2
    if not nvb:
        print(f"multigpu-vs-nvbandwidth: no nvbandwidth matrix in {argv[1]}", file=sys.stderr)
        return 2
    rows, ok = compare(nvb, hostside_matrices(runs))
    head = ("matrix", "cells", "hostside SUM", "nvbandwidth SUM", "ratio", "cells at bar", "worst cell")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(r, widths))))
    print("every cell at the bar" if ok else "some cells below the bar (95% of nvbandwidth; latency within 5%)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
