#!/usr/bin/env python3
"""The ratio table of bench/memory-vs-peers.sh, from its output folder: per figure hostside's
median and best sample (max; min for a latency), each the median over rounds, beside its peer's
figure (STREAM's best Triad rate, memref's median and best), the median of the rounds' ratios
and their range, then every round's figures. Three ratios, since STREAM's figure is a best and
hostside's a median: median / peer's figure, best / peer's best, and median / peer's typical
sample (STREAM's rate at its average time, which it prints; memref's median). A figure that is missing on either side gives "-"
and a note that says why (hostside: no figure, exit 2: ...).

    python3 bench/memory-table.py OUTDIR ROUNDS [NODE]     (NODE: the node memref ran on, "-" for none)
"""
import json
import os
import re
import statistics
import sys

# hostside key, the scope it should have, hostside's file tag; the peer's file tag and label, and
# what the peer's figure is: its headline (compared with hostside's median) and its best sample
ROWS = [
    ("memory_bandwidth_triad", "machine", "hs-triad", "stream", "STREAM Triad, best (all threads)"),
    ("memory_bandwidth_triad_one_thread", None, "hs-triad", "stream1", "STREAM Triad, best (OMP_NUM_THREADS=1)"),
    ("memory_latency", "nodes:{n},{n}", "hs-latency", "chase", "memref chase, median"),
    ("memory_bandwidth_read", "nodes:{n},{n}", "hs-read", "read", "memref read, median"),
]
UNIT = {"hs-triad": "GB/s", "hs-latency": "ns", "hs-read": "GB/s"}


def text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def failed(out, f):
    """why the run that wrote F failed ("exit 2: its last line of stderr"), None when it did not"""
    rc = (text(os.path.join(out, f + ".rc")) or "").strip()
    if rc in ("", "0"):
        return None if rc == "0" else "not run"
    err = [l for l in (text(os.path.join(out, f + ".err")) or "").splitlines() if l.strip()]
    return f"exit {rc}" + (f": {err[-1].strip()[:160]}" if err else "")


def walk(node):
    """every dict in a JSON document"""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def hostside(out, r, tag, key, scope):
    """(figure dict, None) or (None, why)"""
    f = f"r{r}-{tag}.json"
    why = failed(out, f)
    raw = text(os.path.join(out, f))
    if raw is None:
        return None, why or "no output"
    try:
        doc = json.loads(raw)
    except ValueError:
        return None, why or "its output is not one JSON document"
    figs = [x for x in doc.get("figures", []) if isinstance(x, dict) and x.get("key") == key] if isinstance(doc, dict) else []
    if figs:
        mine = [x for x in figs if x.get("scope") == scope] if scope else figs
        return (mine or figs)[0], None
    # not among the figures: a result that says why, anywhere in the document
    for d in walk(doc):
        if d.get("key") == key and d.get("why"):
            return None, f"{d.get('status', 'not measured')}: {d['why'][:160]}"
    return None, why or f"no figure {key} in its JSON"


def stream(out, r, tag):
    """(Triad's best rate in GB/s, threads, array elements) or (None, why)"""
    f = f"r{r}-{tag}.txt"
    t = text(os.path.join(out, f))
    m = re.search(r"^Triad:\s+([0-9.]+)\s+([0-9.]+)", t or "", re.M)
    if not m:
        return None, failed(out, f) or "no Triad line in its output"
    th = re.search(r"Number of Threads counted = (\d+)", t)
    n = re.search(r"Array size = (\d+)", t)
    elements = n and int(n.group(1))
    # Triad moves three arrays (two read, one written), as STREAM counts its bytes
    typical = 3 * 8 * elements / float(m.group(2)) / 1e9 if elements and float(m.group(2)) > 0 else None
    return {"main": float(m.group(1)) / 1000, "best": float(m.group(1)) / 1000, "typical": typical,
            "threads": th and int(th.group(1)), "elements": elements}, None


def memref(out, r, tag):
    """memref's summary line as a dict, main = its median, best = max (GB/s) or min (ns)"""
    f = f"r{r}-{tag}.txt"
    t = text(os.path.join(out, f))
    line = next((l for l in (t or "").splitlines() if l.startswith("summary ")), None)
    if not line:
        return None, failed(out, f) or "no summary line in its output"
    w = line.split()
    d = {"unit": w[1]}
    for k, v in zip(w[2::2], w[3::2]):
        try:
            d[k] = float(v)
        except ValueError:
            d[k] = v
    d["main"] = d["median"]
    d["typical"] = d["median"]
    d["best"] = d["min"] if d["unit"] == "latency_ns" else d["max"]
    return d, None


def peer(out, r, tag):
    return stream(out, r, tag) if tag.startswith("stream") else memref(out, r, tag)


def med(v):
    return statistics.median(v) if v else None


def g(v, unit):
    if v is None:
        return "-"
    return f"{v:.1f}" if unit == "ns" else f"{v:.2f}"


def main(out, rounds, node):
    n = node if node not in ("", "-") else "0"
    print(f"| figure | scope | unit | hostside median | hostside best | peer | peer | peer best | median / peer | best / peer best | median / peer typical | rounds | note |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    per_round, notes, anchors = [], [], {}
    for key, scope, tag, ptag, label in ROWS:
        scope = scope.format(n=n) if scope else None
        unit = UNIT[tag]
        best_of = min if unit == "ns" else max  # hostside's best sample: the lowest latency, the highest rate
        hm, hb, pm, pb, rm, rb, rt, cells, hwhy, pwhy, scopes = [], [], [], [], [], [], [], [], [], [], set()
        for r in range(1, rounds + 1):
            h, hw = hostside(out, r, tag, key, scope)
            p, pw = peer(out, r, ptag)
            if h:
                hv = float(h["value"])
                hbest = float(h["min" if unit == "ns" else "max"]) if ("min" if unit == "ns" else "max") in h else hv
                hm.append(hv); hb.append(hbest); scopes.add(h.get("scope", "?"))
                if h.get("anchor"):
                    anchors.setdefault(key, h["anchor"])
                if h.get("unit") and h["unit"] != unit:
                    notes.append(f"{key}: hostside's unit is {h['unit']}, not {unit} (round {r})")
            else:
                hwhy.append(hw)
            if p:
                pm.append(p["main"]); pb.append(p["best"])
            else:
                pwhy.append(pw)
            if h and p:
                rm.append(hv / p["main"]); rb.append(hbest / p["best"])
                if p.get("typical"):
                    rt.append(hv / p["typical"])
            cells.append((g(hv, unit) if h else "-") + " / " + (g(p["main"], unit) if p else "-"))
        note = []
        if hwhy:
            note.append("hostside: no figure (" + "; ".join(sorted(set(hwhy))) + ")" + (f" in {len(hwhy)} of {rounds} rounds" if len(hwhy) < rounds else ""))
        if pwhy:
            note.append("peer: no figure (" + "; ".join(sorted(set(pwhy))) + ")" + (f" in {len(pwhy)} of {rounds} rounds" if len(pwhy) < rounds else ""))
        if scopes and scope and scope not in scopes:
            note.append(f"hostside's scope is {', '.join(sorted(scopes))}, not {scope}")
        rng = lambda v: f" ({min(v):.2f}-{max(v):.2f})" if len(v) > 1 else ""
        print(f"| {key} | {', '.join(sorted(scopes)) or scope or '-'} | {unit} | {g(med(hm), unit)} | {g(med(hb), unit)} | {label} | "
              f"{g(med(pm), unit)} | {g(med(pb), unit)} | {(f'{med(rm):.2f}' + rng(rm)) if rm else '-'} | "
              f"{(f'{med(rb):.2f}' + rng(rb)) if rb else '-'} | {(f'{med(rt):.2f}' + rng(rt)) if rt else '-'} | {len(hm)}/{len(pm)} | {'; '.join(note)} |")
        per_round.append((key, cells))

    print("\nhostside best: its max sample (min for ns), median over rounds; peer best: STREAM's best (its only figure),"
          " memref's max (min for ns); peer typical: STREAM's rate at its average time, memref's median. Ratios: the median of the rounds' ratios, their range in brackets;"
          " rounds: how many rounds had hostside's / the peer's figure.")
    print("\n| round | " + " | ".join(f"{k} hostside / peer" for k, _ in per_round) + " |")
    print("| ---: |" + " ---: |" * len(per_round))
    for r in range(rounds):
        print(f"| {r + 1} | " + " | ".join(c[r] for _, c in per_round) + " |")

    # the evidence beside the figures: STREAM's threads and size, memref's huge pages and placement
    ev = []
    for tag in ("stream", "stream1"):
        s = [x for x in (stream(out, r, tag)[0] for r in range(1, rounds + 1)) if x]
        if s:
            ev.append(f"{tag}: {s[0]['threads']} threads, {s[0]['elements']:,} elements an array ({s[0]['elements'] * 24 / 2**30:.1f} GiB in all)"
                      if s[0]["elements"] and s[0]["threads"] else f"{tag}: threads or size not in its output")
    for tag in ("chase", "read"):
        s = [x for x in (memref(out, r, tag)[0] for r in range(1, rounds + 1)) if x]
        if s:
            x = s[0]
            on = f", pages on node {x['node']:.0f}: {x['pages_on_node']:.0f} of {x['pages_sampled']:.0f} sampled" if "pages_on_node" in x else ""
            hb = [y["huge_bytes"] / max(y["working_set_bytes"], 1) for y in s]
            ev.append(f"memref {tag}: {x['working_set_bytes'] / 2**20:.0f} MiB, THP backing {min(hb):.0%}-{max(hb):.0%} (huge {x['huge']:.0f}){on}")
    if ev:
        print("\n" + "\n".join("- " + e for e in ev))
    for k, a in anchors.items():
        print(f"- hostside {k} anchor: {a}")
    for nt in notes:
        print(f"- {nt}")
    loads = []
    for f in os.listdir(out):
        if f.endswith(".load"):
            try:
                loads.append(float(open(os.path.join(out, f)).read().split()[0]))
            except (OSError, ValueError, IndexError):
                pass
    if loads:
        print(f"\n1-minute load before the runs: {min(loads):.2f} to {max(loads):.2f} (median {med(loads):.2f})")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: memory-table.py OUTDIR ROUNDS [NODE]")
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else "0")
