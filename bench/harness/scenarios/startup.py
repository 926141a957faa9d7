"""hostside's start-up, JVM included: the launcher with its start-up cache (the AOT cache of JEP 483,
which the launcher trains on first use) beside the same launcher with HOSTSIDE_NO_AOT=1."""
import shlex

from harness.scenario import Scenario
from harness.table import Row


class Startup(Scenario):
    name = "startup"
    prints = ("wall time (ms) of `hostside machine --json` (or --command) with the launcher's start-up cache, "
              "beside the same without it (HOSTSIDE_NO_AOT=1)")
    order = "without the cache, with it (after 2 untimed runs of each: the cache trained, the files in the page cache)"

    def add_options(self, p):
        p.add_argument("--command", default="machine --json", help="hostside's arguments (default: machine --json)")

    def rows(self, bench):
        args = shlex.split(bench.options.command)
        row = Row(f"hostside {bench.options.command}: wall", "ms", "the same, HOSTSIDE_NO_AOT=1 (no start-up cache)", digits=0)
        for i in range(2):  # untimed: the first run trains the cache
            bench.hs(f"warmup{i}-cache", *args)
            bench.hs(f"warmup{i}-nocache", *args, env={"HOSTSIDE_NO_AOT": "1"})
        for r in range(1, bench.rounds + 1):
            bench.say(f"round {r}/{bench.rounds}")
            p = bench.hs(f"r{r}-nocache", *args, env={"HOSTSIDE_NO_AOT": "1"})
            row.peers.append(p.wall_s * 1000 if p.ok else None)
            if not p.ok:
                row.peer_missing = p.why()
            h = bench.hs(f"r{r}-cache", *args, env={"HOSTSIDE_NO_AOT": None})
            row.hostside.append(h.wall_s * 1000 if h.ok else None)
            if not h.ok:
                row.hostside_missing = h.why()
        bench.notes.append("wall time from fork to exit, the launcher's own start included; use --rounds 15 or more for a figure to quote")
        return [row]
