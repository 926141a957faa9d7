"""Every figure of one whole `hostside report` beside its peer: each round one report (not drill
by drill: the report is what a platform team runs and times), then the peer of each figure it holds,
at the report's own sizes, CPUs and fio jobs. A verdict a row: within tolerance (1% for the
host<->device copies, 10% for the rest), beyond it, or not comparable where the report itself says
that it counts differently from its peer; a figure without a peer is a row that says so."""
import importlib.util
import json
import os
import re
import shlex
from dataclasses import asdict, dataclass, field
from pathlib import Path

from harness import tools
from harness.scenario import Scenario
from harness.scenarios import copies, io, memory
from harness.scenarios.cpu_costs import PEER_LINE
from harness.table import Row, Spread

COPIES, REST = 0.01, 0.10  # the tolerances: the copies' medians are known to 1% (nvbandwidth's own repeatability)
PAGEABLE = {"host_to_device_ce_pageable": "h2d_pageable", "device_to_host_ce_pageable": "d2h_pageable"}
STREAM_KERNEL = re.compile(r"^(Copy|Scale|Add|Triad):\s+([0-9.]+)", re.M)
STREAM_TIMES = re.compile(r"executed (\d+) times")
MEMREF_KERNEL = re.compile(r"^summary (copy|scale|add|triad)_gb_s median ([0-9.]+)", re.M)
# refs timer's one line (bench/c/refs.c do_timer)
REFS_TIMER = re.compile(r"ticks (\d+): late p50 ([\d.]+) p99 ([\d.]+) p99\.9 ([\d.]+) max [\d.]+ us, missed ticks (\d+)")
GPU_SCOPE = re.compile(r"^gpu:([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F])$")
# the report's own bars for itself (what a platform team can afford to drain a node for)
WALL_BAR_S = {"report": 60, "report --quick": 10}
BEYOND_STREAM_BAR_MIB = 512


@dataclass(frozen=True)
class Fig:
    """One figure of the report's JSON, with the test case result it was drawn from."""
    key: str
    scope: str
    value: float
    unit: str
    max: float
    anchor: str
    method: str
    base: str      # the key of that test case ("seq_read_cold_qd1" for "seq_read_cold_qd1_p99")
    detail: dict   # that result's detail ({} where none)
    samples: int = 1  # the samples its median was taken over

    @property
    def suffix(self):
        return self.key[len(self.base):]

    @property
    def id(self):
        return self.key, self.scope


@dataclass
class Judged(Row):
    """A row with its tolerance, and the report's own figure counted the peer's way where it says it counts differently."""
    tolerance: float = None
    alts: list = field(default_factory=list)
    alt_why: str = ""
    unlike: str = ""       # how the peer's run differs from the report's where it cannot be made the same (STREAM's built-in size)


@dataclass
class Got:
    """What a peer gave for one figure in one round: its value, or why none; the peer's run and settings."""
    label: str
    value: float = None
    why: str = ""
    alt: float = None      # the report's own figure counted the peer's way, where the report says it counts differently
    alt_why: str = ""
    unlike: str = ""       # how the peer's run differs from the report's, where it cannot be made the same


# Which peer measures the same thing as each figure: the first entry whose test the figure passes.
# (test, the peer's runner below or None, what measures it / why nothing does)
TABLE = [
    (lambda f: "numactl" in f.anchor, None,
     "its peer runs under numactl, bound to one node: bench/run copies runs the unbound copies"),
    (lambda f: f.anchor.startswith("nvbandwidth "), "nvbandwidth", "the nvbandwidth case its anchor names"),
    (lambda f: f.key in PAGEABLE, "pytorch", "PyTorch's copy_ from pageable memory (bench/pytorch-copies.py)"),
    (lambda f: f.anchor.startswith("STREAM "), "stream",
     "STREAM's kernel and threads its anchor names, at the report's arrays and CPUs (bench/c/memref.c triad), else STREAM as built"),
    (lambda f: f.key in ("memory_latency", "memory_bandwidth_read"), "memref",
     "bench/c/memref.c chase / read at the report's working set, CPUs and node"),
    (lambda f: f.anchor.startswith("fio "), "fio", "the fio job its anchor names, on the report's folder"),
    (lambda f: f.key == "syscall_getppid", "refs", "refs syscall"),
    (lambda f: f.base in ("context_switch_same_core", "context_switch_cross_core"), "refs", "refs pingpong futex on the report's CPUs"),
    (lambda f: f.base in ("timer_jitter_quiet", "timer_jitter_noisy") and f.anchor, "refs",
     "refs timer at the report's period and ticks (under refs hog for the noisy run)"),
    (lambda f: f.anchor.startswith("lmbench"), None, "lmbench's lat_mem_rd is not in the peers folder"),
    (lambda f: f.anchor.startswith("CUDA samples bandwidthTest"), None, "the CUDA samples' bandwidthTest is not in the peers folder"),
    (lambda f: f.anchor.startswith("C loop: one-way pipe"), None,
     "refs has no one-way wake-up loop (its pipe ping-pong times a hand-over, half a round trip)"),
    (lambda f: bool(f.anchor), None, "this scenario runs no peer for its anchor"),
    (lambda f: True, None, "the report names no peer for it (no anchor)"),
]


def peer_of(fig):
    """(runner name or None, what measures it or why nothing does), from TABLE."""
    return next((run, what) for test, run, what in TABLE if test(fig))


class ReportPeers(Scenario):
    name = "report-peers"
    prints = ("every figure of one `hostside report` (--quick: `report --quick`) beside its peer (nvbandwidth, PyTorch, STREAM, "
              "memref, the fio jobs of its anchors, refs), with a verdict: within 1% (copies) or 10%, beyond, or not comparable "
              "where the report says it counts differently; the report's wall time and peak RSS")
    order = ("the report (one `hostside report`), then the peers of the figures it holds, at its sizes, CPUs and fio jobs: "
             "nvbandwidth, PyTorch, STREAM, memref, fio, refs")

    def add_options(self, p):
        p.add_argument("--quick", action="store_true", help="run `report --quick` (the headline figures only)")
        p.add_argument("--merge", nargs="+", type=Path, metavar="DIR",
                       help="run nothing: join the rounds of earlier runs' --out folders (their rounds.json) into one table, "
                            "round after round, and judge them together (rounds that one call of the device cannot hold)")
        p.add_argument("--dir", default="/var/tmp", help="the report's --dir, and fio's folder (default /var/tmp)")
        p.add_argument("--size", help="the report's --size (default: the report's own); fio's jobs carry it in their anchors")

    def rows(self, bench):
        o = bench.options
        if o.merge:
            return _merged(bench, o.merge)
        ctx = _Context(bench)
        command = "report --quick" if o.quick else "report"
        rows, order, unmeasured = {}, [], {}
        wall, rss, beyond = (Row(f"{command}: {w}", u, "none: hostside's own cost", digits=d, has_peer=False)
                             for w, u, d in (("wall", "s", 1), ("peak RSS", "MiB", 0), ("peak RSS beyond STREAM's three arrays", "MiB", 0)))
        folder = bench.out / "reports"
        folder.mkdir(exist_ok=True)
        try:
            for r in range(1, bench.rounds + 1):
                bench.say(f"round {r}/{bench.rounds}: {command}")
                args = ["report", *(["--quick"] if o.quick else []), "--out", folder, "--name", f"r{r}", "--dir", Path(o.dir).resolve(),
                        *(["--size", o.size] if o.size else [])]
                res = bench.hs(f"r{r}-report", *args)
                doc = _read_json(folder / f"r{r}.json") if res.ok else None
                wall.hostside.append(res.wall_s if res.ok else None)
                rss.hostside.append(res.maxrss_kib / 1024 if res.ok else None)
                arrays = _stream_arrays(doc)
                beyond.hostside.append(res.maxrss_kib / 1024 - arrays / 2**20 if res.ok and arrays else None)
                if not res.ok:
                    for row in (wall, rss, beyond):
                        row.hostside_missing = res.why()
                    for row in rows.values():
                        row.hostside_missing = f"r{r}'s report failed: {res.why()}"
                    continue
                if not arrays:
                    beyond.hostside_missing = "the report holds no STREAM arrays (memory_bandwidth_triad not run)"
                figs = report_figures(doc)
                _take(rows, order, figs, ctx.round(r, figs))
                _take_unmeasured(rows, order, unmeasured, doc, figs, ctx.gpu)
        finally:
            ctx.files.remove()
        out = [rows[i] for i in order]
        _save(bench.out / ROUNDS_FILE, command, bench.rounds, out, (wall, rss, beyond), ctx.notes, unmeasured)
        return _judged(bench, command, out, (wall, rss, beyond), ctx.notes, unmeasured)


ROUNDS_FILE = "rounds.json"


def _judged(bench, command, out, costs, peer_notes, unmeasured):
    """The rows with their verdicts, the report's costs against their bars, the notes under the table."""
    wall, rss, beyond = costs
    for row in out:
        row.verdict = _verdict_of(row)
    wall.verdict = _bar(Spread.of(wall.hostside), WALL_BAR_S[command], "s")
    beyond.verdict = _bar(Spread.of(beyond.hostside), BEYOND_STREAM_BAR_MIB, "MiB")
    rss.verdict = "-"
    bench.notes += _notes(out, peer_notes, unmeasured, command)
    return out + [wall, rss, beyond]


def _save(path, command, rounds, out, costs, peer_notes, unmeasured):
    """Every row's values round by round, before judging, for --merge: what a later call's rounds join."""
    rows = [{"judged": isinstance(r, Judged), **{k: v for k, v in asdict(r).items() if k != "verdict"}} for r in out]
    path.write_text(json.dumps({"command": command, "rounds": rounds, "rows": rows,
                                "costs": [{k: v for k, v in asdict(r).items() if k != "verdict"} for r in costs],
                                "peerNotes": peer_notes, "unmeasured": unmeasured}, indent=1))


# what a later round's row takes from an earlier one's: its lists grow round by round, its words are the first said
_LISTS = ("hostside", "peers", "alts")


def _merged(bench, folders):
    """The rounds of earlier runs (their rounds.json, in the order given) as one run's rows, judged together."""
    saved = []
    for d in folders:
        f = Path(d) / ROUNDS_FILE
        if not f.is_file():
            raise SystemExit(f"report-peers --merge: {f}: no such file (a folder a report-peers run wrote with --out)")
        saved.append(json.loads(f.read_text()))
    commands = {s["command"] for s in saved}
    if len(commands) != 1:
        raise SystemExit(f"report-peers --merge: the runs measured different commands: {', '.join(sorted(commands))}")
    rows, order, notes, unmeasured = {}, [], [], {}
    for s in saved:
        for r in s["rows"]:
            row = rows.get(r["figure"])
            if row is None:
                fields = {k: v for k, v in r.items() if k != "judged"}
                row = rows[r["figure"]] = (Judged if r["judged"] else Row)(**fields)
                order.append(r["figure"])
                continue
            for k in _LISTS:
                if k in r:
                    getattr(row, k).extend(r[k])
            for k, v in r.items():
                if k not in _LISTS and k != "judged" and v and not getattr(row, k):
                    setattr(row, k, v)
        notes += [n for n in s["peerNotes"] if n not in notes]
        for why, names in s["unmeasured"].items():
            unmeasured.setdefault(why, {}).update(names)
    costs = [Row(**c) for c in saved[0]["costs"]]
    for s in saved[1:]:
        for row, c in zip(costs, s["costs"]):
            row.hostside.extend(c["hostside"])
    rounds = sum(s["rounds"] for s in saved)
    bench.notes.append(f"merged: {rounds} rounds from {len(saved)} runs ({', '.join(str(d) for d in folders)}), in that order; nothing run now")
    return _judged(bench, commands.pop(), [rows[i] for i in order], costs, notes, unmeasured)


def _take(rows, order, figs, got):
    """One round's figures and their peers' values into the rows, a row made for a figure first seen."""
    for f in figs:
        row = rows.get(f.id)
        if row is None:
            run, what = peer_of(f)
            row = rows[f.id] = Judged(_name(f.key, f.scope), f.unit, what, digits=_digits(f.value),
                                      has_peer=run is not None, tolerance=_tolerance(f, run))
            order.append(f.id)
        row.hostside.append(f.value)
        g = got.get(f.id)
        if g is not None:
            row.peer = g.label
            row.peers.append(g.value)
            row.peer_missing = g.why or row.peer_missing
            row.alts.append(g.alt)
            row.alt_why = g.alt_why or row.alt_why
            row.unlike = g.unlike or row.unlike


def _take_unmeasured(rows, order, unmeasured, doc, figs, gpu):
    """The cases the report ran no figure for: a row for a copy (its peer's row says why neither ran) and for a
    failure; the rest (--quick's, a GPU's where there is none) by their reason, for the notes under the table."""
    copy_labels = {k: label for k, label, _ in copies.PAIRS}
    for key, (scope, status, why) in _not_measured(doc, {f.base for f in figs}).items():
        copy = key in copy_labels
        if not copy and status != "failed":
            unmeasured.setdefault(why, {})[_name(key, scope)] = None
        elif (key, scope) not in rows:
            rows[(key, scope)] = Judged(_name(key, scope), "GB/s" if copy else "", copy_labels.get(key, "-"),
                                        hostside_missing=why if status == "not run" else f"{status}: {why}",
                                        has_peer=copy, tolerance=COPIES if copy else None,
                                        peer_missing="" if not copy else "no NVIDIA GPU here" if not gpu
                                        else "hostside has no figure to set beside it")
            order.append((key, scope))


def _notes(rows, peer_notes, unmeasured, command):
    counts = {}
    for row in rows:
        word = row.verdict.split(":")[0].split(" (")[0]
        counts[word] = counts.get(word, 0) + 1
    return [
        "verdicts: " + ", ".join(f"{n} {w}" for w, n in sorted(counts.items(), key=lambda x: -x[1])),
        f"tolerance: {COPIES:.0%} for the host<->device copies (nvbandwidth's host *_memcpy_ce cases, PyTorch's pageable copy_), "
        f"{REST:.0%} for the rest, of the peer's median over the rounds; \"not comparable\": the report says it counts "
        "differently from the peer (STREAM's best against its median, fio's whole-run bytes against its median sample) "
        "and counted the peer's way it is within tolerance",
        "each peer runs after the report of its round, with the sizes, CPUs and fio jobs that report names "
        "(a round's peers cannot run first: the report is what says what they are)",
        *peer_notes,
        *(f"not run by the report, so no figure and no row: {', '.join(names)} ({why})" for why, names in unmeasured.items()),
        f"peak RSS: wait4's ru_maxrss of the launcher and the JVM (GNU time -v's); beyond STREAM's arrays: less three times "
        f"the report's arrayBytes. Bars: {WALL_BAR_S[command]} s for `{command}`, {BEYOND_STREAM_BAR_MIB} MiB beyond the arrays",
    ]


# ---- reading the report ------------------------------------------------------------------------

def report_figures(doc):
    """The report's typed figures, each with the test case result it was drawn from."""
    results = case_results(doc.get("modules", []))
    keys = sorted(results, key=len, reverse=True)
    out = []
    for f in doc.get("figures", []):
        base = next((k for k in keys if f["key"] == k or f["key"].startswith(k + "_")), f["key"])
        candidates = results.get(base, [])
        mine = [x for s, x in candidates if s == f["scope"]] or [x for _, x in candidates]
        detail = (mine[0].get("detail") if mine else None) or {}
        out.append(Fig(f["key"], f["scope"], f["value"], f["unit"], f.get("max"), f.get("anchor") or "", f.get("method") or "",
                       base, detail if isinstance(detail, dict) else {}, int(f.get("samples") or 1)))
    return out


def case_results(node, scope=None, out=None):
    """Each test case's result in the modules, by key: [(the scope it was measured at or None, result)]. A
    memory result sits in a {"scope", "result"} pair, a GPU's under its run's pciAddress."""
    out = {} if out is None else out
    if isinstance(node, dict):
        if isinstance(node.get("scope"), str) and "result" in node:
            scope = node["scope"]
        elif isinstance(node.get("pciAddress"), str) and isinstance(node.get("results"), list):
            scope = "gpu:" + node["pciAddress"]
        if isinstance(node.get("key"), str) and "status" in node and "description" in node:
            out.setdefault(node["key"], []).append((scope, node))
        for v in node.values():
            case_results(v, scope, out)
    elif isinstance(node, list):
        for v in node:
            case_results(v, scope, out)
    return out


def _not_measured(doc, measured):
    """Test cases the report ran no figure for: {key: (scope, status, why)}; the copies that need a GPU where it
    has none, so that their rows say why rather than vanish."""
    out = {}
    for key, found in case_results(doc.get("modules", [])).items():
        if key in measured:
            continue
        for scope, x in found:
            if x.get("status") != "ok":
                out.setdefault(key, (scope, x.get("status"), x.get("why") or "no reason given"))
    gpu_why = next((m.get("data", {}).get("gpu", {}).get("notRun") for m in doc.get("modules", [])
                    if isinstance(m.get("data"), dict) and isinstance(m["data"].get("gpu"), dict) and "runs" in m["data"]["gpu"]), None)
    for key, _, _ in copies.PAIRS:
        if key not in measured and key not in out:
            out[key] = (None, "not run", gpu_why or "the report holds no such figure")
    return out


def _stream_arrays(doc):
    """Bytes of STREAM's three arrays in the report's triad, or 0."""
    for _, x in case_results((doc or {}).get("modules", [])).get("memory_bandwidth_triad", []):
        b = (x.get("detail") or {}).get("arrayBytes")
        if b:
            return 3 * b
    return 0


# ---- verdicts ----------------------------------------------------------------------------------

def _tolerance(fig, run):
    """1% for a host<->device copy through the copy engines (nvbandwidth's host *_memcpy_ce cases, pinned, and PyTorch's
    pageable copy_), 10% for the rest (the SM copy kernels, the device's own copy, the latency included)."""
    case = fig.anchor.split()[1] if run == "nvbandwidth" else ""
    if run == "pytorch" or ("host" in case and case.endswith("_memcpy_ce")):
        return COPIES
    return REST if run else None


def deviation(value, peer):
    """|value / peer - 1|; 0 where both are 0, infinite where only the peer is."""
    if peer == 0:
        return 0.0 if value == 0 else float("inf")
    return abs(value / peer - 1)


def judge(hostside, peers, tolerance, alts=(), alt_why=""):
    """The verdict on one figure over the rounds, from the medians: "within", "beyond", or "not comparable"
    where the report's own count the peer's way (alts) is within tolerance and the report says why (alt_why)."""
    h, p = Spread.of(hostside), Spread.of(peers)
    if h is None or p is None:
        return None
    off = deviation(h.median, p.median)
    ratio = f"{h.median / p.median:.3f}" if p.median else "-"
    if off <= tolerance:
        return f"within {tolerance:.0%} ({ratio})"
    a = Spread.of(list(alts))
    if a is not None and alt_why:
        alt_ratio = f"{a.median / p.median:.3f}" if p.median else "-"
        if deviation(a.median, p.median) <= tolerance:
            return f"not comparable: {alt_why} {alt_ratio}, within {tolerance:.0%} ({ratio} by the median)"
        return f"beyond {tolerance:.0%} ({ratio}; {alt_why} too: {alt_ratio})"
    return f"beyond {tolerance:.0%} ({ratio})"


def unlike_arrays(stream_bytes, report_bytes):
    """How STREAM's arrays (fixed when it is built) differ from the report's, or "" where they are the same or unknown: a
    bandwidth over arrays of another size is another measurement (how much of each pass the caches serve, how the pages lie)."""
    if not stream_bytes or not report_bytes or stream_bytes == report_bytes:
        return ""
    return f"STREAM as built has {stream_bytes / 2**20:,.0f} MiB arrays, the report {report_bytes / 2**20:,.0f} MiB"


def _verdict_of(row):
    if not row.has_peer:
        return "no peer" if Spread.of(row.hostside) else "not run"
    v = judge(row.hostside, row.peers, row.tolerance, row.alts, row.alt_why)
    if v is not None and row.unlike and not v.startswith("within"):
        return f"unlike runs ({row.unlike}): {v}"
    if v is not None:
        return v
    if Spread.of(row.hostside) is None:
        return "not run"
    return "peer not run"


def _bar(spread, bar, unit):
    if spread is None:
        return "-"
    return f"{'met' if spread.high <= bar else 'missed'}: at most {bar} {unit} in every round (highest {spread.high:.1f})"


def _name(key, scope):
    return key if scope in (None, "machine") else f"{key} ({scope})"


def _digits(v):
    return 0 if abs(v) >= 1000 else 1 if abs(v) >= 100 else 2


# ---- the peers, one round ----------------------------------------------------------------------

class _Context:
    """What the peers run with: the tools found once, fio's files, the notes on each peer's settings."""

    def __init__(self, bench):
        self.bench = bench
        self.gpu = copies._gpu()
        self.torch = copies._torch() if self.gpu else "no NVIDIA GPU here"
        self.files = io.Files(Path(bench.options.dir).resolve())
        self.notes, self._said = [], set()
        self.memref, self.memref_how = tools.reference(bench.probes, bench.peers, "memref")
        self.refs, self.refs_how = tools.reference(bench.probes, bench.peers, "refs")

    def note(self, text):
        if text not in self._said:
            self._said.add(text)
            self.notes.append(text)

    def round(self, r, figs):
        """{figure id: Got} for every figure a peer measures, each peer run once this round."""
        groups = {}
        for f in figs:
            run, _ = peer_of(f)
            if run:
                groups.setdefault(run, []).append(f)
        got = {}
        for run in ("nvbandwidth", "pytorch", "stream", "memref", "fio", "refs"):
            if run in groups:
                self.bench.say(f"round {r}: {run} for {len(groups[run])} figures")
                got.update(getattr(self, "_" + run)(r, groups[run], figs))
        return got

    # nvbandwidth: one run with every case the report's anchors name, one per buffer size they name
    def _nvbandwidth(self, r, figs, every):
        nvb, missing = self.bench.peers.find("nvbandwidth")
        why = "no NVIDIA GPU here (nvidia-smi -L lists none)" if not self.gpu else missing
        if why:
            return {f.id: Got("nvbandwidth " + f.anchor.split()[1], why=why) for f in figs}
        # an anchor names its buffer (-b MiB) where the report's copy was not nvbandwidth's default size: the peer runs at it
        jobs = {}
        for f in figs:
            case, mib = _nvbandwidth_job(f.anchor)
            jobs.setdefault(mib, []).append(case)
        runs = {}
        for mib, cases in jobs.items():
            # PCI order on both sides: nvbandwidth's column i is then the i-th GPU of the report by address
            size = ["-b", str(mib)] if mib else []
            p = self.bench.peer(nvb + size + ["-t", *dict.fromkeys(cases)], f"r{r}-nvbandwidth" + (f"-b{mib}" if mib else ""),
                                env={"CUDA_DEVICE_ORDER": "PCI_BUS_ID"})
            runs[mib] = (p, _nvbandwidth_parser()(p.text()))
        gpus = sorted({m[1] for f in every for m in [GPU_SCOPE.match(f.scope)] if m})
        self.note("nvbandwidth: one run a round per buffer size the report's anchors name (`-b`, MiB; its default where none), "
                  "`-t` with every case named at that size, its default samples (median), CUDA_DEVICE_ORDER=PCI_BUS_ID; "
                  "a GPU's figure is its column of the matrix, the machine's the SUM line")
        out = {}
        for f in figs:
            case, mib = _nvbandwidth_job(f.anchor)
            p, parsed = runs[mib]
            m = parsed.get((case, "")) or next((v for (k, _), v in parsed.items() if k == case), None)
            g = Got(f"nvbandwidth -t {case}" + (f" -b {mib}" if mib else ""))
            gm = GPU_SCOPE.match(f.scope)
            if m is None:
                g.why = p.why() if not p.ok else f"no {case} matrix in its output"
            elif f.scope == "machine" or (gm and len(gpus) == 1):
                g.value = m["sum"]
            elif gm:
                g.value = m["cells"].get((0, gpus.index(gm[1])))
                g.why = "" if g.value is not None else f"no cell for GPU {gpus.index(gm[1])} in {case}"
            else:
                g.why = f"scope {f.scope}: not a GPU nor the machine"
            out[f.id] = g
        return out

    def _pytorch(self, r, figs, every):
        label = "PyTorch copy_, pageable, 256 MiB, 10 copies after 3 warm-ups (bench/pytorch-copies.py)"
        if self.torch:
            return {f.id: Got(label, why=self.torch) for f in figs}
        p = self.bench.peer(["python3", str(tools.REPO / "bench" / "pytorch-copies.py")], f"r{r}-pytorch",
                            env={"CUDA_DEVICE_ORDER": "PCI_BUS_ID"})
        d = _last_json(p.text())
        gpus = sorted({m[1] for f in every for m in [GPU_SCOPE.match(f.scope)] if m})
        out = {}
        for f in figs:
            g = Got(label)
            gm = GPU_SCOPE.match(f.scope)
            if gm and gpus and gpus.index(gm[1]) != 0:
                g.why = "bench/pytorch-copies.py copies on the first GPU only"
            else:
                g.value = d.get(PAGEABLE[f.key])
                g.why = "" if g.value is not None else (p.why() if not p.ok else "no JSON line")
            out[f.id] = g
        return out

    # STREAM: every CPU and OMP_NUM_THREADS=1, each run once where the report holds a figure of it
    def _stream(self, r, figs, every):
        stream, missing = self.bench.peers.find("stream")
        out = {}
        for threads, tag, tail in ((None, "all", "one OpenMP thread per CPU"), ("1", "one", "OMP_NUM_THREADS=1")):
            mine = [f for f in figs if f.anchor.endswith(tail)]
            if not mine:
                continue
            label = "STREAM " + ("every CPU" if threads is None else "OMP_NUM_THREADS=1")
            # the Triad's result holds the arrays and CPUs; Copy, Scale and Add are figures of the same run
            sized = next((f.detail for f in mine if f.detail.get("arrayBytes") and f.detail.get("cpus")), None)
            if self.memref is not None and sized is not None:
                out.update(self._triad(r, tag, mine, sized))
                continue
            if stream is None:
                out.update({f.id: Got(label, why=missing) for f in mine})
                continue
            p = self.bench.peer(stream, f"r{r}-stream-{tag}", env={"OMP_NUM_THREADS": threads})
            text = p.text()
            rates = {k: float(v) / 1000 for k, v in STREAM_KERNEL.findall(text)} if p.ok else {}
            a, n = memory.ARRAY.search(text), STREAM_TIMES.search(text)
            trials = n[1] if n else "?"
            self.note(f"STREAM: bin/stream as built ({int(a[1]):,} doubles an array, best of {trials} trials), "
                      f"every CPU and OMP_NUM_THREADS=1; the report's arrays are its own (its detail's arrayBytes)" if a else
                      "STREAM: bin/stream as built")
            for f in mine:
                kernel = f.anchor.split()[2].rstrip(",")
                g = Got(f"{label}, {kernel} (best of {trials})", value=rates.get(kernel))
                g.why = "" if g.value is not None else (p.why() if not p.ok else f"no {kernel} line")
                if "STREAM reports the max" in f.method:
                    g.alt, g.alt_why = f.max, "STREAM's best against the report's median (its method says so); by its best sample"
                g.unlike = unlike_arrays(int(a[1]) * 8 if a else None, sized and sized.get("arrayBytes"))
                out[f.id] = g
        return out

    def _triad(self, r, tag, mine, d):
        """STREAM's four kernels by memref triad at the report's own arrays and CPUs (STREAM fixes its arrays when it is
        built), once for the figures of one run; its median beside the report's median."""
        argv = ["triad", "--size", str(d["arrayBytes"]), "--cpus", str(d["cpus"])]
        p = self.bench.peer(self.memref + argv, f"r{r}-memref-triad-{tag}")
        text = p.text() if p.ok else ""
        medians = {k: float(v) for k, v in MEMREF_KERNEL.findall(text)}
        self.note(f"STREAM's kernels: bench/c/memref.c triad (stream.c 5.10's Copy, Scale, Add, Triad and its byte counts, "
                  f"a warm-up round and 9, each kernel timed as STREAM times it) at the report's arrays and CPUs, median beside "
                  f"median; {self.memref_how}")
        out = {}
        for f in mine:
            kernel = f.anchor.split()[2].rstrip(",").lower()
            g = Got(f"memref {' '.join(argv)}, {kernel} (median of 9)", value=medians.get(kernel))
            g.why = "" if g.value is not None else (p.why() if not p.ok else f"no {kernel} summary line")
            out[f.id] = g
        return out

    # memref: the chase and the read at the working set, CPUs and memory node of the report's own run
    def _memref(self, r, figs, every):
        out = {}
        for f in figs:
            mode = "chase" if f.key == "memory_latency" else "read"
            d = f.detail
            node = f.scope.split(",")[-1] if f.scope.startswith("nodes:") else None
            argv = [mode] + (["--size", str(d["bytes"])] if d.get("bytes") else []) + (["--node", node] if node else [])
            if mode == "chase":
                argv += (["--cpu", str(d["cpu"])] if d.get("cpu") is not None else []) + \
                        (["--loads", str(d["loadsPerSample"])] if d.get("loadsPerSample") else [])
            elif d.get("cpus"):
                argv += ["--cpus", d["cpus"]]
            g = Got("memref " + " ".join(argv) + " (its default samples, median)")
            if f.suffix:
                g.why = "memref prints the figure itself only"
            elif self.memref is None:
                g.why = self.memref_how
            else:
                p = self.bench.peer(self.memref + argv, f"r{r}-memref-{mode}-{f.scope.replace(':', '').replace(',', '-')}")
                m = memory.SUMMARY.search(p.text()) if p.ok else None
                g.value = float(m[1]) if m else None
                g.why = "" if m else (p.why() if not p.ok else "no summary line")
            out[f.id] = g
        self.note(f"memref: {self.memref_how}")
        return out

    # fio: its read file laid out once a round (as the report writes its one test file), then each job of the anchors
    def _fio(self, r, figs, every):
        fio, missing = self.bench.peers.find("fio")
        jobs = list(dict.fromkeys(f.anchor for f in figs))
        if fio is None:
            return {f.id: Got(f.anchor, why=missing) for f in figs}
        sizes = [io.fio_bytes(io.job_size(shlex.split(a)[1:])) for a in jobs if not io.is_write(shlex.split(a)[1:])]
        layout_failed = io.lay_out(self.bench, fio, self.files.read, max(s for s in sizes if s), f"r{r}-fio-layout") if any(sizes) else None
        sides = {}
        for i, a in enumerate(jobs):
            if layout_failed and not io.is_write(shlex.split(a)[1:]):
                sides[a] = (None, layout_failed)
                continue
            base = next(f.base for f in figs if f.anchor == a)
            job = shlex.split(a)[1:]
            direct = "--direct=1" in job and not io.is_write(job)
            disk = io.disk_of(self.files.read) if direct else None
            before = io.disk_reads(disk) if disk else None
            passes = fio_passes(job, [f for f in figs if f.anchor == a])
            sides[a] = io.median_run([io.run_job(self.bench, fio, self.files, base, job, f"r{r}-fio-{i:02d}-{base}" + (f"-{k + 1}" if passes > 1 else ""))
                                      for k in range(passes)])
            if disk:
                self._split(r, base, disk, io.requests_per_read(before, io.disk_reads(disk), io.block_bytes(job)),
                            next((f.detail.get("bufferPieces") for f in figs if f.anchor == a), None))
        self.note("fio: the jobs of the report's anchors exactly, on one file of the largest --size laid out by fio each round "
                  "(the warm jobs read it into the page cache first), the writes on a new file; clat percentiles for _p50/_p99; "
                  f"a job of one pass (no --time_based) run as many times as its figure's median has passes (at most {MOST_FIO_PASSES}), "
                  "the run of median bandwidth taken")
        out = {}
        for f in figs:
            side, why = sides[f.anchor]
            g = Got(f.anchor, why=why or "")
            if side is not None:
                g.value = _fio_value(f, side)
                if g.value is None:
                    g.why = f"fio has no figure for {f.key}"
                overall = f.detail.get("overall")
                if not f.suffix and isinstance(overall, (int, float)):
                    g.alt, g.alt_why = overall, "fio's whole-run bytes over time against the report's median sample; by the report's overall"
            out[f.id] = g
        return out

    def _split(self, r, base, disk, per_read, pieces):
        """An O_DIRECT job's requests as the disk saw them, beside the pieces of hostside's buffer for the same case: a read
        whose buffer is in more physical pieces than the disk's max_segments goes as two requests, and reads slower
        (docs/measurements/2026-12-07-odirect-split-devvm.md), so the two sides are compared only knowing this."""
        seg = io.max_segments(disk)
        how = "" if per_read is None or 0.9 <= per_read <= 1.1 else (" (split)" if per_read > 1.1 else " (merged: several reads a request)")
        fio_side = "not counted" if per_read is None else f"{per_read:.2f} requests per read{how}"
        mine = "" if pieces is None else (f"; hostside's buffer in {pieces:.0f} piece{'' if round(pieces) == 1 else 's'} a read"
                                          + ("" if seg is None else (", more than" if pieces > seg else ", within") + " them"))
        self.note(f"round {r}, {base}: {os.path.basename(disk)} takes {seg if seg is not None else 'an unknown number of'} "
                  f"segments a request; fio's job: {fio_side} (every reader of the disk counts){mine}")

    # refs: syscall, the futex ping-pong on the report's CPUs, the timer loop at its period and ticks
    def _refs(self, r, figs, every):
        out = {}
        if self.refs is None:
            return {f.id: Got("refs", why=self.refs_how) for f in figs}
        self.note(f"refs: {self.refs_how}; each mode's own samples (syscall, pingpong: 7, median)")
        runs = {}

        def once(argv, name, hogs=0):
            k = (tuple(argv), hogs)
            if k not in runs:
                if hogs:
                    with tools.Hogs(self.refs + ["hog", str(hogs), str(int(argv[2]) * int(argv[1]) // 1_000_000 + 30)]):
                        runs[k] = self.bench.peer(self.refs + argv, name)
                else:
                    runs[k] = self.bench.peer(self.refs + argv, name)
            return runs[k]

        for f in figs:
            d = f.detail
            if f.key == "syscall_getppid":
                argv = ["syscall", str(d.get("callsPerSample", 200000))]
                p = once(argv, f"r{r}-refs-syscall")
                m = PEER_LINE.search(p.text()) if p.ok else None
                out[f.id] = Got("refs " + " ".join(argv), float(m[1]) if m else None, "" if m else p.why())
            elif f.base.startswith("context_switch_"):
                cpus = cpulist(d.get("cpus", ""))
                if not cpus:
                    out[f.id] = Got("refs pingpong futex", why="the report names no CPUs for it")
                    continue
                a, b = cpus[0], cpus[-1]
                argv = ["pingpong", "futex", str(a), str(b)]
                p = once(argv, f"r{r}-refs-pingpong-{a}-{b}")
                m = PEER_LINE.search(p.text()) if p.ok else None
                out[f.id] = Got("refs " + " ".join(argv), float(m[1]) if m else None, "" if m else p.why())
            else:
                period_us, ticks = int(d.get("periodNs", 100000)) // 1000, int(d.get("launches", 20000))
                noisy = f.base == "timer_jitter_noisy"
                hogs = (len(cpulist(d.get("hogCpus") or "")) or len(tools.allowed_cpus())) if noisy else 0
                argv = ["timer", str(period_us), str(ticks)]
                p = once(argv, f"r{r}-refs-timer-{'noisy' if noisy else 'quiet'}", hogs)
                m = REFS_TIMER.search(p.text()) if p.ok else None
                label = "refs " + " ".join(argv) + (f", under refs hog {hogs}" if hogs else "")
                out[f.id] = Got(label, _timer_value(f.suffix, m) if m else None, "" if m else p.why())
                if m and out[f.id].value is None:
                    out[f.id].why = f"refs timer prints no {f.suffix}"
        return out


MOST_FIO_PASSES = 5


def fio_passes(job, figs):
    """How many times the bench runs a fio job: a job of one pass (it reads or writes its size once) as many times as the
    report's figure has samples, its median being one of passes (the vm drill's cold reads take three, the writes five), so
    that a median stands beside a median rather than beside one pass, which on the VMs is often a first, slower one; at most
    MOST_FIO_PASSES. A time-based job once: its figure is counted over the whole run (the report's overall)."""
    if not io.one_pass(job):
        return 1
    return max(1, min(MOST_FIO_PASSES, max((f.samples for f in figs), default=1)))


def _fio_value(fig, side):
    """The figure's counterpart in fio's job JSON: bandwidth or IOPS as the figure's unit, clat percentiles in us."""
    pct = (side.get("clat_ns") or {}).get("percentile") or {}
    by_suffix = {"_iops": side.get("iops"), "_gbps": side["bw_bytes"] / 1e9 if "bw_bytes" in side else None,
                 "_p50": pct.get("50.000000"), "_p99": pct.get("99.000000")}
    if not fig.suffix:
        return side["bw_bytes"] / 1e9 if fig.unit == "GB/s" else side.get("iops") if fig.unit == "IOPS" else None
    v = by_suffix.get(fig.suffix)
    return v / 1000 if v is not None and fig.suffix in ("_p50", "_p99") else v


def _timer_value(suffix, m):
    ticks, p50, p99, p999, missed = int(m[1]), float(m[2]), float(m[3]), float(m[4]), int(m[5])
    # the report's missed share counts the missed over all ticks, woken and missed (LaunchJitter's missedShare)
    return {"": p50, "_p99": p99, "_p999": p999, "_missed_count": float(missed),
            "_missed_ticks": 100 * missed / (ticks + missed) if ticks + missed else 0.0}.get(suffix)


def cpulist(text):
    """CPU numbers of a cpulist ("0-3,8")."""
    out = []
    for part in filter(None, (text or "").split(",")):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _read_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _last_json(text):
    try:
        return json.loads(text.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {}


_PARSER = []


def _nvbandwidth_job(anchor):
    """(case, buffer in MiB or None for nvbandwidth's default) of an anchor "nvbandwidth CASE [-b MIB]"."""
    words = anchor.split()
    mib = int(words[words.index("-b") + 1]) if "-b" in words else None
    return words[1], mib


def _nvbandwidth_parser():
    """multigpu-table.py's parse_nvbandwidth (a script of bench/scenarios, loaded by path: its name has a dash)."""
    if not _PARSER:
        path = tools.REPO / "bench" / "scenarios" / "multigpu-table.py"
        spec = importlib.util.spec_from_file_location("multigpu_table", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _PARSER.append(module.parse_nvbandwidth)
    return _PARSER[0]
