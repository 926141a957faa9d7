"""A syscall and a context switch, as hostside cpu measures them, beside the C loops of bench/c/refs.c."""
import re

from harness import tools
from harness.scenario import Scenario, figures
from harness.table import Row

PEER_LINE = re.compile(r"^\S+ median ([0-9.]+)", re.M)


class CpuCosts(Scenario):
    name = "cpu-costs"
    prints = ("syscall_getppid, context_switch_same_core and _cross_core (ns) from `hostside cpu`, beside "
              "refs syscall and refs pingpong futex A A / A B (bench/c/refs.c)")
    order = "refs syscall, hostside (all three figures), refs pingpong same CPU, refs pingpong across CPUs"

    def rows(self, bench):
        refs, how = tools.reference(bench.probes, bench.peers, "refs")
        cpus = tools.allowed_cpus()[:2]
        a, b = cpus[0], cpus[-1]
        pairs = [("syscall_getppid", f"refs syscall", ["syscall"]),
                 ("context_switch_same_core", f"refs pingpong futex {a} {a}", ["pingpong", "futex", a, a])]
        if len(cpus) > 1:
            pairs.append(("context_switch_cross_core", f"refs pingpong futex {a} {b}", ["pingpong", "futex", a, b]))
        rows = {key: Row(key, "ns", label, digits=0) for key, label, _ in pairs}
        bench.say(f"refs: {how}; CPUs {a} and {b}: the first two this process may use, which hostside pins to")

        def peer(r, key, args):
            row = rows[key]
            if refs is None:
                row.peer_missing = how
                return
            p = bench.peer(refs + [str(x) for x in args], f"r{r}-refs-{key}")
            m = PEER_LINE.search(p.text()) if p.ok else None
            row.peers.append(float(m.group(1)) if m else None)
            if not m:
                row.peer_missing = p.why() if not p.ok else "its output has no median line"

        for r in range(1, bench.rounds + 1):
            bench.say(f"round {r}/{bench.rounds}")
            peer(r, *[pairs[0][0], pairs[0][2]])
            hs = bench.hs(f"r{r}-hostside", "cpu", "--only", ",".join(rows), "--json")
            got = figures(hs)
            for key, row in rows.items():
                f = got.get(key)
                row.hostside.append(f["value"] if f else None)
                if not f:
                    row.hostside_missing = hs.why() if not hs.ok else f"no {key} in its JSON"
            for key, _, args in pairs[1:]:
                peer(r, key, args)
        return list(rows.values())
