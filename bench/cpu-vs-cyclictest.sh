#!/usr/bin/env bash
# hostside's timer-driven feeder against cyclictest (rt-tests), the same method (clock_nanosleep
# to absolute ticks, lateness on wake, ticks already passed on waking skipped), the same cadence
# and count of wake-ups, alternating so both see the
# same machine: quiet, then with a busy loop on every CPU. cyclictest runs with --policy=other:
# by default it makes its thread SCHED_FIFO, which has no timer slack, where hostside's feeder,
# like a Python training loop, is a normal thread with the kernel's 50 us slack.
#
#   HOSTSIDE="java --enable-native-access=ALL-UNNAMED -jar target/hostside.jar" bench/cpu-vs-cyclictest.sh [ROUNDS]
set -euo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
rounds=${1:-3}
n=20000; period_us=100
tmp=$(mktemp -d); hogs=()
# cyclictest's loop alone in C (bench/c/timer_loop.c) runs beside it: a reference where
# cyclictest cannot run (a VM that refuses sched_setscheduler even for SCHED_OTHER); and the
# same loop in Python, the language of the feeders hostside stands in for.
command -v cyclictest >/dev/null || echo "cyclictest is not installed (apt-get install rt-tests): the C loop only"
have_c=; command -v gcc >/dev/null && gcc -O2 -o "$tmp/timer_loop" "$(dirname "$0")/c/timer_loop.c" && have_c=1
cleanup() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

hog_on() { for c in $(seq 0 $(( $(nproc) - 1 ))); do taskset -c "$c" sh -c 'while :; do :; done' & hogs+=($!); done; }
hog_off() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; hogs=(); wait 2>/dev/null || true; }

# and in Python (bench/timer_loop.py): a training loop's feeder is a Python thread
reference() {
  [[ -n $have_c ]] && "$tmp/timer_loop" $n $period_us
  command -v python3 >/dev/null && python3 "$(dirname "$0")/timer_loop.py" $n $period_us
  return 0
}

cyclic() {  # percentiles of cyclictest's histogram (us)
  command -v cyclictest >/dev/null || return 0
  cyclictest -t1 -i$period_us -l$n -q -h 20000 --policy=other >"$tmp/ct" 2>&1 || { echo "cyclictest failed:"; tail -5 "$tmp/ct"; return 0; }
  python3 - "$tmp/ct" <<'PY'
import sys
rows = []
for l in open(sys.argv[1]):
    if l.startswith('#') or not l.strip(): continue
    p = l.split()
    try: rows.append((int(p[0]), int(p[1])))
    except ValueError: pass
tot = sum(c for _, c in rows); acc = 0; out = {}
for us, c in rows:
    acc += c
    for q in (0.5, 0.99, 0.999):
        if q not in out and acc >= q * tot: out[q] = us
mx = max((us for us, c in rows if c), default=0)
print(f"cyclictest --policy=other  p50 {out.get(0.5)}  p99 {out.get(0.99)}  p99.9 {out.get(0.999)}  max {mx} us  ({tot} samples)")
PY
}

ours() {  # hostside's quiet timer condition, refs timer's loop (the hogs, when on, are this script's)
  $HOSTSIDE cpu --only timer_jitter_quiet --launches $n --period-us $period_us --json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["measured"]["results"][0]
d = r["detail"]["lateNs"]
print("hostside timer feeder      p50 %.0f  p99 %.0f  p99.9 %.0f  max %.0f us  (%d samples, %d ticks skipped, slack %d ns)" % (
    d["p50"]/1e3, d["p99"]/1e3, d["p999"]/1e3, d["max"]/1e3, r["value"]["samples"], r["detail"]["missedTicks"], r["detail"]["timerSlackNs"]))'
}

echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r), $(nproc) CPUs; $n ticks of $period_us us"
for r in $(seq "$rounds"); do
  echo "== round $r, quiet"; ours; cyclic; reference
  echo "== round $r, a busy loop on every CPU"; hog_on; ours; cyclic; reference; hog_off
done | tee "$tmp/all"
# One run's p99 rests on 200 samples and moves 10-20% from run to run for either tool: compare
# the median over rounds, and show each tool's own spread beside the difference between them.
python3 - "$tmp/all" <<'PY'
import re, statistics, sys
runs = {}
cond = None
for l in open(sys.argv[1]):
    if l.startswith("=="): cond = "quiet" if l.rstrip().endswith("quiet") else "busy loops"; continue
    m = re.match(r"(hostside|cyclictest|C timer loop|Python timer loop).*?\s+p50 (\d+)\s+p99 (\d+)\s+p99\.9 (\d+)", l)
    if m: runs.setdefault((cond, m.group(1)), []).append([int(x) for x in m.groups()[1:]])
print("\n# median over rounds (min-max), us")
for cond in ("quiet", "busy loops"):
    for i, name in enumerate(("p50", "p99", "p99.9")):
        h = [r[i] for r in runs.get((cond, "hostside"), [])]
        if not h: continue
        line = f"{cond:10} {name:6} hostside {statistics.median(h):6.0f} ({min(h)}-{max(h)})"
        for other in ("cyclictest", "C timer loop", "Python timer loop"):
            c = [r[i] for r in runs.get((cond, other), [])]
            if c: line += f"  {other} {statistics.median(c):6.0f} ({min(c)}-{max(c)}) ratio {statistics.median(h) / statistics.median(c):4.2f}"
        print(line)
PY
