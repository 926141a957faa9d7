"""What hostside costs the machine: wall time and peak RSS of `report` and `report --quick` (with
--all, of every command: the README's cost table), and the most disk its test files took."""
import glob
import os
import threading
from pathlib import Path

from harness.scenario import Scenario
from harness.table import Row

NO_PEER = "none: hostside's own cost"


class ReportCosts(Scenario):
    name = "report-costs"
    prints = ("wall time (s), peak RSS (MiB, wait4's ru_maxrss as GNU time -v reads it) and the most disk its test files "
              "took (MiB) of `report --quick` and `report`; --all: of every command")
    order = "report --quick, report (with --all: machine, vm, cpu, io, container, rack, snapshot first)"

    def add_options(self, p):
        p.add_argument("--all", action="store_true", help="every command, as the README's cost table")
        p.add_argument("--quick-only", action="store_true", help="report --quick alone (a full report takes minutes)")

    def rows(self, bench):
        o = bench.options
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
