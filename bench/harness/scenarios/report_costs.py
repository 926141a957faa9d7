"""What hostside costs the machine: wall time and peak RSS of `report` and `report --quick` (with
--all, of every command: the README's cost table), and the most disk its test files took. With
--before BUNDLE, an older build's runs interleaved with the current one's (before, after, in turn),
side by side, and the last round's time per drill and per case from each run's progress lines."""
import glob
import re
import threading
from pathlib import Path

from harness import tools
from harness.scenario import Scenario
from harness.table import Row

NO_PEER = "none: hostside's own cost"


class ReportCosts(Scenario):
    name = "report-costs"
    prints = ("wall time (s), peak RSS (MiB, wait4's ru_maxrss as GNU time -v reads it) and the most disk its test files "
              "took (MiB) of `report --quick` and `report`; --all: of every command")
    order = ("report --quick, report (with --all: machine, vm, cpu, io, container, rack, snapshot first; "
             "with --before: each command by the before-bundle, then by the current hostside)")

    def add_options(self, p):
        p.add_argument("--all", action="store_true", help="every command, as the README's cost table")
        p.add_argument("--quick-only", action="store_true", help="report --quick alone (a full report takes minutes)")
        p.add_argument("--before", type=Path, metavar="BUNDLE",
                       help="a second `hostside bundle` tarball (an older build): its runs and the current hostside's in turn, "
                            "before then after, each command each round; the table sets them side by side. A thin one (hostside/ "
                            "without runtime/) runs on the current bundle's Java runtime")

    def rows(self, bench):
        o = bench.options
        if o.before and o.all:
            # the before/after rounds time the two reports only: --all's commands would be left out without a word
            raise SystemExit("bench/run report-costs: --all and --before do not go together (--before times report --quick and "
                             "report only); run --all alone for the README's table")
        if o.before:
            return self._before_after(bench, tools.Hostside(o.before, runtime_from=bench.hostside))
        commands = []
        if o.all:
            commands += [("machine", ["machine"]), ("vm", ["vm"]), ("cpu", ["cpu"]), ("io", ["io"]),
                         ("container", ["container"]), ("rack", ["rack"]), ("snapshot", ["snapshot", "-o", "{out}/snapshot.tar.gz"])]
        commands.append(("report --quick", ["report", "--quick", "--out", "{out}", "--name", "quick"]))
        if not o.quick_only:
            commands.append(("report", ["report", "--out", "{out}", "--name", "full"]))
        rows = {}
        for name, _ in commands:
            for what, unit, digits in (("wall", "s", 1), ("peak RSS", "MiB", 0), ("test files, most on disk", "MiB", 0)):
                rows[(name, what)] = Row(f"{name}: {what}", unit, NO_PEER, digits=digits, has_peer=False)
        for r in range(1, bench.rounds + 1):
            for name, args in commands:
                bench.say(f"round {r}/{bench.rounds}: {name}")
                folder = bench.out / f"r{r}-{name.replace(' ', '').replace('--', '-')}"
                folder.mkdir(exist_ok=True)
                watch = _DiskWatch()
                res = bench.hs(folder.name, *[a.replace("{out}", str(folder)) for a in args])
                disk = watch.stop()
                values = {"wall": res.wall_s, "peak RSS": res.maxrss_kib / 1024, "test files, most on disk": disk / 2**20}
                for what, v in values.items():
                    row = rows[(name, what)]
                    row.hostside.append(v if res.ok else None)
                    if not res.ok:
                        row.hostside_missing = res.why()
                (folder / "snapshot.tar.gz").unlink(missing_ok=True)
        bench.notes.append("test files: the largest total of /var/tmp/hostside-* and /tmp/hostside-* seen, sampled every 0.2 s "
                           "(another hostside running meanwhile would be counted too)")
        return list(rows.values())


    def _before_after(self, bench, before):
        """report --quick and report (--quick-only: the first), before and after in turn each round: the before-bundle's
        figures in the peer's column, so the ratio is after over before."""
        o = bench.options
        label = f"before: {before.version()} ({Path(o.before).name})"
        bench.say(f"before: {before.origin}")
        bench.say(label)
        commands = [("report --quick", ["report", "--quick"])] + ([] if o.quick_only else [("report", ["report"])])
        rows, last = {}, {}
        for name, _ in commands:
            for what, unit, digits in (("wall", "s", 1), ("peak RSS", "MiB", 0), ("test files, most on disk", "MiB", 0)):
                rows[(name, what)] = Row(f"{name}: {what}", unit, label, digits=digits)
        for r in range(1, bench.rounds + 1):
            for name, args in commands:
                for side, hostside in (("before", before), ("after", bench.hostside)):
                    bench.say(f"round {r}/{bench.rounds}: {name}, {side}")
                    folder = bench.out / f"r{r}-{name.replace(' ', '').replace('--', '-')}-{side}"
                    folder.mkdir(exist_ok=True)
                    watch = _DiskWatch()
                    res = tools.run(hostside(*args, "--out", folder, "--name", side), bench.out, folder.name)
                    disk = watch.stop()
                    last[(name, side)] = res
                    values = {"wall": res.wall_s, "peak RSS": res.maxrss_kib / 1024, "test files, most on disk": disk / 2**20}
                    for what, v in values.items():
                        row = rows[(name, what)]
                        (row.peers if side == "before" else row.hostside).append(v if res.ok else None)
                        if not res.ok:
                            setattr(row, "peer_missing" if side == "before" else "hostside_missing", res.why())
        bench.notes.append("hostside's column: the current build (after); the peer's: the before-bundle; ratio: after over before. "
                           "The same command in turn, before first, each round; every run's stderr (its progress lines) is kept "
                           "beside its output, as rN-COMMAND-SIDE.err")
        for name, _ in commands:
            b, a = (progress(last[(name, s)].err.read_text(errors="replace")) for s in ("before", "after"))
            bench.notes += ["", f"`{name}`, round {bench.rounds}: seconds per drill and per case, before beside after "
                                f"(from the progress lines; the last drill's time is up to its last line)", "",
                            *time_table(b, a)]
        return list(rows.values())


DRILL = re.compile(r"drill (\d+) of \d+: (\S+) \(elapsed ([^)]+)\)")
# "[io 4/7] 1/11 seq_read_cold_qd1: ok in 4.3 s (elapsed 15 s, about 41 s left)": a case as it ended (Progress.java)
CASE = re.compile(r"\[(\S+) \d+/\d+\] \d+/\d+ (.+?): (ok|not run|failed)(?: in ([^(]+?))? \(elapsed ([^,)]+)")
ELAPSED = re.compile(r"\(elapsed ([^,)]+)")
# "[io 4/7] writing the 1 GiB test file: 1.7 s": work of a drill outside its cases, shown once it took a second
STEP = re.compile(r"\[(\S+) \d+/\d+\] ([^:\d][^:]*): ([0-9.]+ s|\d+m\d+s)\s*$")


def seconds(text):
    """Progress's durations as seconds: "4.2 s", "42 s", "3m05s"."""
    text = text.strip()
    m = re.fullmatch(r"(\d+)m(\d+)s", text)
    if m:
        return int(m[1]) * 60 + int(m[2])
    m = re.fullmatch(r"([0-9.]+) s", text)
    return float(m[1]) if m else None


def progress(err):
    """A run's progress lines: ({drill: seconds}, {(drill, case): (status, seconds or None)}). A drill lasts from its
    line to the next drill's; the last one to the last elapsed time printed."""
    starts, cases, last = [], {}, 0.0
    for line in err.replace("hostside: ", "\nhostside: ").splitlines():
        m = DRILL.search(line)
        if m:
            starts.append((m[2], seconds(m[3]) or 0.0))
        m = CASE.search(line)
        if m:
            cases[(m[1], m[2])] = (m[3], seconds(m[4]) if m[4] else None)
        m = STEP.search(line) if not m else None
        if m:
            cases[(m[1], m[2])] = ("step", seconds(m[3]))
        for e in ELAPSED.findall(line):
            last = max(last, seconds(e) or 0.0)
    drills = {}
    for i, (name, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else last
        drills[name] = end - start
    return drills, cases


def time_table(before, after):
    """Markdown lines: each drill, then each case that ran in either, before and after."""
    (bd, bc), (ad, ac) = before, after
    lines = ["| drill or case | before (s) | after (s) | after / before |", "|---|---|---|---|"]

    def cell(v):
        return "-" if v is None else f"{v:.1f}"

    def ratio(b, a):
        return f"{a / b:.2f}" if a is not None and b else "-"

    for drill in dict.fromkeys(list(bd) + list(ad)):
        b, a = bd.get(drill), ad.get(drill)
        lines.append(f"| **{drill}** | {cell(b)} | {cell(a)} | {ratio(b, a)} |")
        for key in dict.fromkeys(k for k in list(bc) + list(ac) if k[0] == drill):
            (bs, bt), (as_, at) = bc.get(key, ("-", None)), ac.get(key, ("-", None))  # "-": no line (a step under a second)
            if bt is None and at is None:
                continue  # not run on either side: no time to set side by side
            lines.append(f"| {drill}: {key[1]} | {cell(bt) if bt is not None else bs} | {cell(at) if at is not None else as_} | {ratio(bt, at)} |")
    return lines


class _DiskWatch:
    """The most bytes hostside's test files held while a command ran, sampled every 0.2 s."""

    def __init__(self):
        self.most, self.done = 0, threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.done.wait(0.2):
            self.most = max(self.most, sum(_bytes(Path(p)) for p in glob.glob("/var/tmp/hostside-*") + glob.glob("/tmp/hostside-*")))

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.most


def _bytes(path):
    try:
        if path.is_symlink() or not path.is_dir():
            return path.lstat().st_blocks * 512
        return sum(_bytes(p) for p in path.iterdir())
    except OSError:
        return 0  # removed while it was counted
