"""hostside's host-memory figures beside STREAM (Triad, every CPU and one thread, at STREAM's own
array size) and bench/c/memref.c (the pointer chase and the read-only pass, at hostside's sizes)."""
import re
from pathlib import Path

from harness import tools
from harness.scenario import Scenario, document
from harness.table import Row

TRIAD = re.compile(r"^Triad:\s+([0-9.]+)", re.M)
ARRAY = re.compile(r"Array size = (\d+)")
SUMMARY = re.compile(r"^summary \S+ median ([0-9.]+)", re.M)


class Memory(Scenario):
    name = "memory"
    prints = ("memory_bandwidth_triad (every CPU, one thread; GB/s) beside STREAM's Triad at STREAM's array size, "
              "memory_latency (ns) beside memref chase and memory_bandwidth_read (GB/s) beside memref read, node 0")
    order = "STREAM, STREAM on one thread, hostside's triads; hostside's latency and read, then memref chase and read at hostside's sizes"

    def rows(self, bench):
        stream, stream_missing = bench.peers.find("stream")
        memref, memref_how = tools.reference(bench.probes, bench.peers, "memref")
        cpus, node = _node0_cpus()
        one = next((c for c in cpus if c != 0), cpus[0])  # hostside's one-thread CPU: the lowest but CPU 0
        bench.say(f"memref: {memref_how}; node 0's CPUs here: {_cpulist(cpus)}")
        triad = Row("memory_bandwidth_triad", "GB/s", "STREAM Triad, every CPU (its best of 10)")
        triad1 = Row("memory_bandwidth_triad_one_thread", "GB/s", "STREAM Triad, OMP_NUM_THREADS=1 (its best)")
        latency = Row("memory_latency (nodes:0,0)", "ns", "memref chase", digits=1)
        read = Row("memory_bandwidth_read (nodes:0,0)", "GB/s", "memref read")
        elements = None
        for r in range(1, bench.rounds + 1):
            bench.say(f"round {r}/{bench.rounds}")
            if stream is None:
                triad.peer_missing = triad1.peer_missing = stream_missing
            else:
                for row, threads, tag in ((triad, None, "all"), (triad1, "1", "one")):
                    p = bench.peer(stream, f"r{r}-stream-{tag}", env={"OMP_NUM_THREADS": threads})
                    m, a = TRIAD.search(p.text()), ARRAY.search(p.text())
                    row.peers.append(float(m[1]) / 1000 if p.ok and m else None)
                    elements = int(a[1]) if a else elements
                    if not (p.ok and m):
                        row.peer_missing = p.why() if not p.ok else "no Triad line"
            args = ["machine", "--json", "--only", "memory_bandwidth_triad,memory_bandwidth_triad_one_thread"]
            if elements:  # STREAM's arrays are fixed when it is built: hostside's at the same size beside it
                args += ["--stream-array", elements * 8]
            hs = bench.hs(f"r{r}-hostside-triad", *args)
            for row in (triad, triad1):
                _put(row, hs, row.figure, None)
            hs = bench.hs(f"r{r}-hostside-latency-read", "machine", "--json", "--only", "memory_latency,memory_bandwidth_read")
            sizes = _sizes(document(hs))
            _put(latency, hs, "memory_latency", "nodes:0,0")
            _put(read, hs, "memory_bandwidth_read", "nodes:0,0")
            for row, mode, key, where in ((latency, "chase", "memory_latency", ["--cpu", str(one)]),
                                          (read, "read", "memory_bandwidth_read", ["--cpus", _cpulist(cpus)])):
                if memref is None:
                    row.peer_missing = memref_how
                    continue
                argv = memref + [mode, *where] + (["--node", node] if node else []) + (["--size", str(sizes[key])] if key in sizes else [])
                p = bench.peer(argv, f"r{r}-memref-{mode}")
                m = SUMMARY.search(p.text())
                row.peers.append(float(m[1]) if p.ok and m else None)
                if not (p.ok and m):
                    row.peer_missing = p.why() if not p.ok else "no summary line"
        bench.notes.append(f"STREAM prints its best rate of 10 trials; hostside's triad is its median sample, run at STREAM's array size"
                           f" ({elements or '?'} doubles an array). memref runs at the working set hostside's JSON names for its own run.")
        return [triad, triad1, latency, read]


def _put(row, result, key, scope):
    d = document(result) or {}
    figs = [f for f in d.get("figures", []) if f["key"] == key]
    mine = [f for f in figs if f["scope"] == scope] if scope else figs
    f = (mine or figs or [None])[0]
    row.hostside.append(f["value"] if f else None)
    if not f:
        why = next((x.get("why") for x in _walk(d) if x.get("key") == key and x.get("why")), None)
        row.hostside_missing = why or (result.why() if not result.ok else f"no {key} in its JSON")


def _sizes(doc):
    """The working set of hostside's latency and read runs (their detail's bytes)."""
    out = {}
    for x in _walk(doc or {}):
        r = x.get("result")
        if isinstance(r, dict) and isinstance(r.get("detail"), dict) and r["detail"].get("bytes"):
            out.setdefault(r.get("key"), r["detail"]["bytes"])
    return out


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def _node0_cpus():
    """node 0's CPUs this process may use and "0"; every allowed CPU and no node where the kernel has none."""
    allowed = tools.allowed_cpus()
    try:
        text = Path("/sys/devices/system/node/node0/cpulist").read_text().strip()
    except OSError:
        return allowed, None
    mine = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        mine.update(range(int(a), int(b or a) + 1))
    cpus = [c for c in allowed if c in mine]
    return (cpus, "0") if cpus else (allowed, None)


def _cpulist(cpus):
    runs, start = [], None
    for i, c in enumerate(cpus):
        start = c if start is None else start
        if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
            runs.append(f"{start}-{c}" if c > start else str(c))
            start = None
    return ",".join(runs)
