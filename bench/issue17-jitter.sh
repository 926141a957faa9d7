#!/usr/bin/env bash
# Issue 17: hostside's timer jitter beside the C loop that follows cyclictest's method, in one
# run, interleaved (peer, hostside, peer, hostside...), quiet and under CPU hogs:
#   peer quiet      refs timer PERIOD_US TICKS
#   hostside quiet  hostside cpu --only timer_jitter_quiet
#   peer noisy      refs timer PERIOD_US TICKS, with `refs hog NCPU SECONDS` running
#   hostside noisy  hostside cpu --only timer_jitter_noisy (hostside's own hogs)
#   hostside loop under refs hog: timer_jitter_quiet while `refs hog` runs (the loop apart from the hogs)
# Same period and tick count on both sides: PERIOD_US (default 100) and TICKS (default 20000).
# NCPU is this process's CPUs (nproc: its affinity, as hostside's). A jar from before the timer
# conditions (no timer_jitter_* in `cpu --list`) runs launch_jitter_quiet / launch_jitter_noisy
# instead: without a GPU those were the timer-only feeder, with its hogs of then ("before").
#
# Prints a ratio table (figure, hostside median, peer median, ratio, ranges over rounds) and
# keeps every run's output in OUTDIR. Nothing else heavy may run meanwhile: /proc/loadavg is
# noted before each run.
#
# Usage, from the repository root or anywhere:
#   bench/issue17-jitter.sh OUTDIR [ROUNDS]        (ROUNDS default 3)
#   JAR=/path/to/hostside.jar PERIOD_US=100 TICKS=20000 bench/issue17-jitter.sh OUTDIR 5
#   EXTRA_JAVA="-XX:-UsePerfData" bench/issue17-jitter.sh OUTDIR   (JVM flags added to hostside's, to test one)
# Peers: $PEERS, else .peers/ in the checkout, else /work/shared/tools/peers. Java: .jre/bin/java
# when it exists, else $JAVA_HOME/bin/java, else java; with the flags ./hostside gives `cpu`.
set -uo pipefail
out=${1:?usage: bench/issue17-jitter.sh OUTDIR [ROUNDS]}
rounds=${2:-3}
period_us=${PERIOD_US:-100}
ticks=${TICKS:-20000}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1

. bench/lib.sh
bench_refs
bench_java
J=("${CPU_JAVA[@]}" ${EXTRA_JAVA:-} -jar "$jar")
ncpu=$(nproc)
# the hogs outlast the C loop: its 1 s warm-up, the ticks, and a margin; stopped when it ends
hog_s=$(( ticks * period_us / 1000000 + 30 ))

if "${J[@]}" cpu --list 2>/dev/null | grep -q timer_jitter_quiet; then
  quiet_key=timer_jitter_quiet; noisy_key=timer_jitter_noisy
else
  quiet_key=launch_jitter_quiet; noisy_key=launch_jitter_noisy
fi

# `refs hog` forks its spinners: each hog run gets a process group of its own (job control),
# in this script's session like the timer loop, so one signal ends the parent and its children
set -m
hog_pid=
stop_hogs() {
  if [[ -n $hog_pid ]]; then kill -- "-$hog_pid" 2>/dev/null; wait "$hog_pid" 2>/dev/null; hog_pid=; fi
}
trap 'stop_hogs' EXIT
trap 'stop_hogs; exit 130' INT TERM
start_hogs() { "$refs" hog "$ncpu" "$hog_s" & hog_pid=$!; sleep 1; }

peer() {  # $1: file name; the C loop's one line
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/$1.txt"
  "$refs" timer "$period_us" "$ticks" >>"$out/$1.txt" 2>&1
}
ours() {  # $1: file name, $2: key
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/$1.load"
  "${J[@]}" cpu --only "$2" --launches "$ticks" --period-us "$period_us" --json >"$out/$1.json" 2>"$out/$1.err"
}

{
  echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r), $ncpu CPUs; $ticks ticks of $period_us us; rounds $rounds"
  echo "# refs: $refs; java: $java ($("$java" -version 2>&1 | head -1)); jar: $jar; hostside keys: $quiet_key, $noisy_key; extra JVM flags: ${EXTRA_JAVA:-none}"
  echo "# load before: $(cat /proc/loadavg)"
} | tee "$out/meta.txt"

for r in $(seq "$rounds"); do
  echo "== round $r"
  peer "r$r-peer-quiet"; tail -1 "$out/r$r-peer-quiet.txt"
  ours "r$r-hostside-quiet" "$quiet_key"; echo "hostside $quiet_key done"
  start_hogs; peer "r$r-peer-noisy"; stop_hogs; tail -1 "$out/r$r-peer-noisy.txt"
  ours "r$r-hostside-noisy" "$noisy_key"; echo "hostside $noisy_key done"
  start_hogs; ours "r$r-hostside-loop-refs-hogs" "$quiet_key"; stop_hogs; echo "hostside $quiet_key under refs hog done"
done

python3 - "$out" "$rounds" "$ticks" "$period_us" <<'PY' | tee "$out/table.txt"
import json, re, statistics, sys
out, rounds, ticks, period = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def peer(name):
    text = open(f"{out}/{name}.txt").read()
    m = re.search(r"p99 ([\d.]+) p99\.9 ([\d.]+) max [\d.]+ us, missed ticks (\d+)", text)
    return None if not m else (float(m[1]), float(m[2]), int(m[3]))
def ours(name):
    try:
        r = json.load(open(f"{out}/{name}.json"))["measured"]["results"][0]
    except Exception:
        return None
    if r.get("status") != "ok":
        return None
    d = r["detail"]
    return (d["lateNs"]["p99"] / 1e3, d["lateNs"]["p999"] / 1e3, d["missedTicks"])
rows = {}
for cond in ("quiet", "noisy"):
    for r in range(1, rounds + 1):
        rows.setdefault(("peer", cond), []).append(peer(f"r{r}-peer-{cond}"))
        rows.setdefault(("hostside", cond), []).append(ours(f"r{r}-hostside-{cond}"))
for r in range(1, rounds + 1):
    rows.setdefault(("hostside", "loop under refs hog"), []).append(ours(f"r{r}-hostside-loop-refs-hogs"))
def series(who, cond, i):
    return [x[i] for x in rows[(who, cond)] if x is not None]
def cell(v, fmt):
    return "-" if not v else f"{fmt % statistics.median(v)} ({fmt % min(v)}-{fmt % max(v)})"
print(f"\n# medians over {rounds} rounds (min-max); lateness in us, missed ticks over {ticks} ticks of {period} us; ratio = hostside / peer")
print(f"| figure | hostside | peer (refs) | ratio | within 25% |")
print(f"|---|---|---|---|---|")
for hcond, pcond, label in (("quiet", "quiet", "quiet"), ("noisy", "noisy", "hogs on every CPU"),
                            ("loop under refs hog", "noisy", "hostside's loop under refs hog")):
    for i, (name, fmt) in enumerate((("p99", "%.1f"), ("p99.9", "%.1f"), ("missed ticks", "%.0f"))):
        h, p = series("hostside", hcond, i), series("peer", pcond, i)
        if h and p and statistics.median(p) > 0:
            ratio = statistics.median(h) / statistics.median(p)
            rs, ok = f"{ratio:.2f}", ("yes" if 0.75 <= ratio <= 1.25 else "no")
        else:
            rs, ok = "-", "-"
        print(f"| {label} {name} | {cell(h, fmt)} | {cell(p, fmt)} | {rs} | {ok} |")
missing = [k for k, v in rows.items() if any(x is None for x in v)]
if missing:
    print(f"\nruns without a figure (failed or not run; see their .err/.txt): {missing}")
PY
echo "# load after: $(cat /proc/loadavg)" | tee -a "$out/meta.txt"
