"""Timer jitter: hostside's feeder (clock_nanosleep to absolute ticks) beside the same loop in C
(refs timer, cyclictest's method) and cyclictest itself, quiet and with a hog on every CPU."""
import re

from harness import tools
from harness.scenario import Scenario, document
from harness.table import Row

REFS_LINE = re.compile(r"p99 ([\d.]+) p99\.9 ([\d.]+) max [\d.]+ us, missed ticks (\d+)")
FIGURES = (("p99", "us", 1), ("p99.9", "us", 1), ("missed ticks", "ticks", 0))


class Jitter(Scenario):
    name = "jitter"
    prints = ("timer lateness p99 and p99.9 (us) and missed ticks of `hostside cpu --only timer_jitter_quiet/_noisy`, "
              "beside refs timer (bench/c/refs.c) and cyclictest --policy=other, quiet and with a hog on every CPU")
    order = "refs timer, cyclictest, hostside; quiet, then under hogs"

    def add_options(self, p):
        p.add_argument("--ticks", type=int, default=20000, help="wake-ups a run (default 20000)")
        p.add_argument("--period-us", type=int, default=100, help="period between ticks (default 100 us)")
        p.add_argument("--quiet-only", action="store_true", help="leave out the runs under hogs")

    def rows(self, bench):
        o = bench.options
        refs, how = tools.reference(bench.probes, bench.peers, "refs")
        cyclictest, ct_missing = bench.peers.find("cyclictest")
        ncpu = len(tools.allowed_cpus())
        bench.say(f"refs: {how}; {o.ticks} ticks of {o.period_us} us")
        # the peers run quiet and under refs hog; hostside runs its quiet loop in both (the same
        # hogs as the peers), and its noisy condition, the report's figure, with hogs of its own
        quiet, hogged, own = "quiet", "refs hog on every CPU", "hostside's own hogs (timer_jitter_noisy)"
        conds = [quiet] + ([] if o.quiet_only else [hogged, own])
        rows = {}
        for cond in conds:
            for peer in ("refs timer", "cyclictest --policy=other"):
                for fig, unit, digits in FIGURES:
                    if peer.startswith("cyclictest") and fig == "missed ticks":
                        continue  # cyclictest counts no missed ticks: it has no such line
                    label = peer + (", under refs hog" if cond == own else "")
                    rows[(cond, peer, fig)] = Row(f"{cond}: {fig}", unit, label, digits=digits)
        hog_seconds = o.ticks * o.period_us // 1_000_000 + 30

        def hostside(r, tag, key, conditions):
            hs = bench.hs(f"r{r}-hostside-{tag}", "cpu", "--only", key, "--launches", o.ticks, "--period-us", o.period_us, "--json")
            values, why = _hostside(hs)
            for (c, _, fig), row in rows.items():
                if c in conditions:
                    row.hostside.append(values.get(fig))
                    if why:
                        row.hostside_missing = why

        for r in range(1, bench.rounds + 1):
            bench.say(f"round {r}/{bench.rounds}")
            self._refs(bench, refs, how, r, "quiet", [quiet], rows)
            self._cyclictest(bench, cyclictest, ct_missing, r, "quiet", [quiet], rows)
            hostside(r, "quiet", "timer_jitter_quiet", [quiet])
            if o.quiet_only:
                continue
            if refs is None:
                for (c, _, _), row in rows.items():
                    if c != quiet:
                        row.peer_missing = row.hostside_missing = f"no refs to make the hogs ({how})"
                continue
            with tools.Hogs(refs + ["hog", str(ncpu), str(hog_seconds)]):
                self._refs(bench, refs, how, r, "hogs", [hogged, own], rows)
                self._cyclictest(bench, cyclictest, ct_missing, r, "hogs", [hogged, own], rows)
                hostside(r, "refs-hogs", "timer_jitter_quiet", [hogged])
            hostside(r, "noisy", "timer_jitter_noisy", [own])
        if not o.quiet_only:
            bench.notes.append(f"refs hog {ncpu}: one spinning process per CPU this process may use; "
                               "timer_jitter_noisy starts hostside's own hogs, and its peers' figures are those under refs hog")
        return list(rows.values())

    def _refs(self, bench, refs, how, r, tag, conds, rows):
        got, why = {}, how
        if refs:
            p = bench.peer(refs + ["timer", str(bench.options.period_us), str(bench.options.ticks)], f"r{r}-refs-{tag}")
            m = REFS_LINE.search(p.text()) if p.ok else None
            if m:
                got = {"p99": float(m[1]), "p99.9": float(m[2]), "missed ticks": float(m[3])}
            else:
                why = p.why() if not p.ok else "no p99 line in its output"
        for (c, peer, fig), row in rows.items():
            if c in conds and peer == "refs timer":
                row.peers.append(got.get(fig))
                if not got:
                    row.peer_missing = why

    def _cyclictest(self, bench, cyclictest, missing, r, tag, conds, rows):
        got, why = {}, missing
        if cyclictest:
            o = bench.options
            # --policy=other: a normal thread with the kernel's timer slack, as hostside's feeder and a
            # Python training loop are; cyclictest's default SCHED_FIFO has no slack
            p = bench.peer(cyclictest + ["-t1", f"-i{o.period_us}", f"-l{o.ticks}", "-q", "-h", "20000", "--policy=other"],
                           f"r{r}-cyclictest-{tag}", timeout=o.ticks * o.period_us / 1e6 + 60)
            got = _histogram(p.text()) if p.ok else {}
            if not got:
                why = p.why() if not p.ok else "no histogram in its output"
        for (c, peer, fig), row in rows.items():
            if c in conds and peer.startswith("cyclictest"):
                row.peers.append(got.get(fig))
                if not got:
                    row.peer_missing = why


def _hostside(result):
    d = document(result)
    try:
        x = d["measured"]["results"][0]
        if x["status"] != "ok":
            return {}, f"{x['status']}: {x.get('why', '')}"
        late = x["detail"]["lateNs"]
        return {"p99": late["p99"] / 1e3, "p99.9": late["p999"] / 1e3, "missed ticks": float(x["detail"]["missedTicks"])}, ""
    except (TypeError, KeyError, IndexError):
        return {}, result.why() if not result.ok else "no timer result in its JSON"


def _histogram(text):
    """p99 and p99.9 in us from cyclictest's histogram (-h: one line per microsecond, count)."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#") and parts[0].isdigit() and parts[1].isdigit():
            rows.append((int(parts[0]), int(parts[1])))
    total = sum(c for _, c in rows)
    if not total:
        return {}
    out, seen = {}, 0
    for us, c in rows:
        seen += c
        for name, q in (("p99", 0.99), ("p99.9", 0.999)):
            if name not in out and seen >= q * total:
                out[name] = float(us)
    return out
