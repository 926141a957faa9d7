#!/usr/bin/env bash
# The noise rule: on a busy machine (one CPU hog of refs running throughout), do the
# verdicts of `hostside vm`, `hostside cpu` and `hostside io` that compare two figures hold from run to run? And
# does the load hostside reads before each drill agree with vmstat's, read just before it?
#   bench/run noise [ROUNDS]              (ROUNDS defaults to 3)
#   bench/run noise --out DIR -- --table   (the tables again, from an earlier run's files in DIR)
# Each round: vmstat, hostside vm (64 MiB file and region), vmstat, hostside cpu (2000 launches a
# condition, 32 MiB dataset, 2 workers), vmstat, hostside io (256 MiB file in /var/tmp, 300 ms
# samples), each under a minute on the 2-core dev VM. Prints the load
# as "| figure | hostside | peer | ratio |" and each verdict's call per run, with the
# contradictions (one run calls A better, another B), then the verdict lines in full.
# The hog is refs from $HOSTSIDE_PEERS; hostside is bench/run's ($HOSTSIDE).
set -uo pipefail
out=${OUT:?run it through bench/run, which sets OUT}; rounds=${1:-3}; mkdir -p "$out"
table_only=0
if [[ $rounds == --table ]]; then table_only=1; rounds=$(ls "$out"/vm-*.json | wc -l); fi
P=${HOSTSIDE_PEERS:?HOSTSIDE_PEERS names the peers folder (its bin/refs is the hog)}
read -r -a HS <<<"${HOSTSIDE:?run it through bench/run, which sets HOSTSIDE}"
hs() { "${HS[@]}" "$@"; }
# vmstat's second line: the CPU time of every process over one second, as CPUs (us + sy of all of them)
busy_cpus() { vmstat 1 2 | tail -n 1 | awk -v n="$(nproc)" '{ printf "%.3f\n", ($13 + $14) * n / 100 }'; }

if (( ! table_only )); then
# The hog in a session of its own: its group (refs and the child that spins) ends by its id on every
# exit path. setsid forks when its caller leads a process group (a shell with job control), so the
# session's id is the one the shell inside writes down before it becomes refs, not $!.
setsid sh -c 'echo $$ >"$1"; exec "$2" hog 1 1800' hog "$out/hog.pid" "$P/bin/refs" >/dev/null 2>&1 &
for _ in $(seq 50); do [[ -s $out/hog.pid ]] && break; sleep 0.1; done
hog=$(cat "$out/hog.pid")
trap 'kill -- -"$hog" 2>/dev/null; rm -f "$out/hog.pid"' EXIT
trap 'exit 130' INT TERM
sleep 1
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "machine: $(nproc) CPUs, kernel $(uname -r)"; echo "load before: $(cat /proc/loadavg)"; } >"$out/conditions.txt"
for r in $(seq 1 "$rounds"); do
  busy_cpus >"$out/vmstat-vm-$r.txt"
  hs vm --size 64M --anon-size 64M --json >"$out/vm-$r.json" 2>"$out/vm-$r.err"
  busy_cpus >"$out/vmstat-cpu-$r.txt"
  hs cpu --launches 2000 --dataset-size 32M --workers 2 --json >"$out/cpu-$r.json" 2>"$out/cpu-$r.err"
  busy_cpus >"$out/vmstat-io-$r.txt"
  hs io --dir /var/tmp --size 256M --sample-ms 300 --json >"$out/io-$r.json" 2>"$out/io-$r.err"
done
echo "load after: $(cat /proc/loadavg)" >>"$out/conditions.txt"
fi
cat "$out/conditions.txt"
python3 - "$out" "$rounds" <<'PY'
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
drills = [d for d in ("vm", "cpu", "io") if os.path.exists(f"{out}/{d}-1.json")]  # runs from before io was added have none
runs = {d: [json.load(open(f"{out}/{d}-{r}.json")) for r in range(1, rounds + 1)] for d in drills}

print("\n| figure | hostside (median of runs, min-max) | peer | ratio | peer tool |")
print("|---|---|---|---|---|")
# vmstat just before the drill, while hostside does not run, sees everyone else: the peer of hostside's
# othersCpus. On a saturated machine hostside's own start-up (the JIT) takes a share of the CPUs in
# its window, so the others get less than vmstat saw, and the whole machine (others + self) is full.
for d in drills:
    loads = [x["load"] for x in runs[d] if x.get("load") and x["load"].get("othersCpus") is not None]
    o = [l["othersCpus"] for l in loads]
    a = [l["othersCpus"] + l["selfCpus"] for l in loads]
    p = [float(open(f"{out}/vmstat-{d}-{r}.txt").read()) for r in range(1, rounds + 1)]
    busy = sum(1 for l in loads if l.get("busy"))
    psi = statistics.median([l.get("psiSomeWindow") or 0 for l in loads])
    pm = statistics.median(p)
    for name, h in ((f"others' CPUs before `{d}` ({busy}/{len(o)} called busy, PSI {psi:.0f}%)", o), (f"all CPUs busy before `{d}` (others + hostside)", a)):
        hm = statistics.median(h)
        print(f"| {name} | {hm:.2f} ({min(h):.2f}-{max(h):.2f}, {len(h)} runs) | {pm:.2f} ({min(p):.2f}-{max(p):.2f}) | {hm / pm:.3f} | vmstat 1 2 (us+sy), just before |")

# Each verdict's call: what it says is better, or that the two are even. Two runs contradict when
# one calls one side better and another the other side.
def call(line):
    rules = [
        (r"^Cold file", "cold read/mmap"), (r"^Warm file", "warm read/mmap"), (r"^With MADV_HUGEPAGE", "THP vs base first touch"),
        (r"^Random access", "TLB base vs huge"), (r"^Managed memory", "managed faults vs prefetch"),
        (r"^First touch costs", "first-touch fault cost"), (r"^A trivial syscall", "syscall"), (r"^Handing work", "context switch"), (r"^Quiet, the feeder", "jitter quiet vs noisy"), (r"^\w+_jitter_quiet came out noisier", "jitter quiet vs noisy"),
        (r"^Pinned alone", "pinned vs unpinned"), (r"^Python list", "DataLoader list vs numpy"),
        (r"^Loading a checkpoint", "checkpoint read paths"), (r"^Read again while still cached", "warm vs cold read"),
        (r"^Small random reads", "random reads QD32 vs QD1"), (r"^Saving a checkpoint", "checkpoint save"),
    ]
    name = next((n for p, n in rules if re.search(p, line)), line[:30])
    if name == "checkpoint read paths":
        if ": the paths are " in line: return name, "all even"
        if m := re.search(r"GB/s [^:]*: (.+?) are (even within noise|within \d+% of each other), ahead of", line): return name, m.group(1) + " ahead together"
        if ": keep many reads in flight" in line: return name, "32 in flight fastest"
        if ": O_DIRECT alone is the fastest" in line: return name, "O_DIRECT one at a time fastest"
        if ": the page cache's readahead keeps up" in line: return name, "the page cache fastest"
        return name, line[:60]
    if name == "warm vs cold read":
        return name, "even" if "with the cold read" in line else "warm faster" if "x the cold read)" in line else "warm slower" if "slower than the cold read" in line else "(no cold read)"
    if name == "random reads QD32 vs QD1":
        return name, "depth helps" if ("needs many reads in flight" in line or "more from a deeper queue" in line) else "even" if "does not gain from a deeper queue" in line \
            else "depth hurts" if "slower with 32 in flight" in line else "(QD1 only)"
    if name == "checkpoint save": return name, "(no comparison)"
    if "even within noise" in line and name not in ("TLB base vs huge",): c = "even within noise"
    elif "within 15% of each other" in line: c = "within 15%"
    elif m := re.search(r": (read\(\)|mmap) [0-9.]+x faster", line): c = m.group(1) + " faster"
    elif m := re.search(r"first touch ([0-9.]+x (faster|slower))", line): c = "THP " + m.group(2)
    elif name == "TLB base vs huge":
        c = ("knee " + re.search(r"fall behind from ([0-9.]+ \w+)", line).group(1)) if "fall behind" in line else \
            ("huge help " + re.search(r"huge pages help (from .+? to .+?|at .+?) \(", line).group(1)
             + ("; largest even within noise" if "at the largest sets the two walks are even" in line else "; not at the largest")) if "huge pages help" in line else \
            ("too noisy to tell" if "spread too wide to tell" in line else "do not part")
    elif name == "syscall": c = "slow" if ": slow" in line else "cheap"
    elif name == "first-touch fault cost": c = "slow (against a constant)" if " is slow" in line else "not slow (against a constant)"
    elif name == "jitter quiet vs noisy" and "a disturbed run, not interpreted" in line: c = "quiet noisier: disturbed, not interpreted"
    elif name == "jitter quiet vs noisy":
        m = re.search(r"p99 becomes [0-9]+ us \(([0-9.]+)x\)", line)
        c = ("noisy worse " + m.group(1) + "x" if "competes" in line else "noisy not worse " + m.group(1) + "x") if m else "quiet only"
    elif name == "pinned vs unpinned": c = "pinning helps" if "pin the thread" in line else "pinning does not help"
    elif name == "DataLoader list vs numpy": c = "list copies, numpy shared" if "numpy array stayed shared" in line else line[:60]
    else: c = "(no comparison)"
    return name, c

opposite = {("read() faster", "mmap faster"), ("THP faster", "THP slower"), ("pinning helps", "pinning does not help"),
            ("warm faster", "warm slower"), ("depth helps", "depth hurts")}
# two runs that each name a different sole fastest checkpoint path contradict each other
fastest = {"32 in flight fastest", "O_DIRECT one at a time fastest", "the page cache fastest"}
print("\n| verdict | " + " | ".join(f"run {r}" for r in range(1, rounds + 1)) + " | contradiction |")
print("|---|" + "---|" * rounds + "---|")
for d in drills:
    table = {}
    for i, x in enumerate(runs[d]):
        for line in x.get("verdicts", []):
            n, c = call(line)
            table.setdefault(n, [""] * rounds)[i] = c
    for n, cs in table.items():
        calls = set(c for c in cs if c)
        bad = any((a, b) in opposite or (b, a) in opposite for a in calls for b in calls) or len(calls & fastest) > 1
        if n == "jitter quiet vs noisy" and any(c.startswith("noisy worse") for c in calls) and any(c.startswith("noisy not worse") for c in calls): bad = True
        print(f"| {d}: {n} | " + " | ".join(cs) + f" | {'YES' if bad else 'no'} |")

for d in drills:
    print(f"\n### hostside {d}: the verdict lines of each run\n")
    for i, x in enumerate(runs[d], 1):
        l = x.get("load") or {}
        print(f"run {i} (load before: others {l.get('othersCpus', float('nan')):.2f} CPUs, PSI {l.get('psiSomeWindow') or 0:.0f}%, busy {l.get('busy')}):")
        for line in x.get("verdicts", []): print(f"- {line}")
        print()
PY
