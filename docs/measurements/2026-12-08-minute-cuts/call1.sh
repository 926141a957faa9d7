#!/bin/bash
# 2026-12-08 call 1 (after: bf3315b5; before: 68c8e7f8, a thin bundle on the same runtime): a quick report with its stderr
# stamped (where the time outside the cases goes); the four launch conditions under a JIT log (does the feeder compile
# inside a recording on a GPU?); report-costs before and after, quick and full, one round; then one report-peers round in
# the time left (none with SKIP_PEERS=1)
set -u
T0=$SECONDS
export BUNDLE=.devbundle/hostside-bundle.tar.gz HOSTSIDE_PEERS=.peers
R=$PWD; W=/tmp/w; mkdir -p $W/hs
date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat /proc/loadavg
tar xzf $BUNDLE -C $W/hs; HS=$W/hs/hostside/hostside
stamp() { python3 -u -c "import sys,time
t=time.monotonic()
for l in sys.stdin: print('%8.3f %s' % (time.monotonic()-t, l), end='', flush=True)"; }
cd $W
{ /usr/bin/time -f "wall %e s, peak RSS %M KB" timeout 60 $HS report --quick --out $W/q1 2>&1 >$W/q1.out; } | stamp > $OUT/quick-stamped.txt; echo "quick rc=$?"
cat $OUT/quick-stamped.txt | cut -c1-160
HOSTSIDE_JAVA_OPTS="-Xlog:jit+compilation=debug:file=$W/jit.log:uptimemillis" timeout 90 $HS cpu --only launch_jitter_quiet,launch_jitter_noisy,launch_jitter_pinned,launch_jitter_graph --json > $W/cpu-jit.json 2> $W/cpu-jit.err; echo "cpu jit rc=$?"
python3 - $W/cpu-jit.json > $OUT/jit-in-recording.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x, dict):
        if "key" in x and isinstance(x.get("detail"), dict) and "jitInRecordingMs" in x["detail"]:
            dd = x["detail"]; v = x.get("value") or {}
            print(x["key"], "jitInRecordingMs", dd.get("jitInRecordingMs"), "warmupMs", dd.get("warmupMs"), "jitSettledInWarmup", dd.get("jitSettledInWarmup"), "p50", v.get("median"))
        for y in x.values(): walk(y)
    elif isinstance(x, list):
        for y in x: walk(y)
walk(d)
PY
cat $OUT/jit-in-recording.txt; grep -E "Feeder|Ticker|LaunchJitter|Histogram" $W/jit.log > $OUT/jit-feeder.log; wc -l $W/jit.log $OUT/jit-feeder.log; cp $W/cpu-jit.err $OUT/
cd $R
timeout 300 bench/run report-costs --rounds 1 --before .devbundle/before-68c8e7f-thin.tar.gz --out $W/costs > $OUT/report-costs.txt 2>&1; echo "report-costs rc=$? at $((SECONDS - T0)) s"
grep -E "^\| report" $OUT/report-costs.txt; tar czf $OUT/costs.tgz -C $W costs
LEFT=$((585 - (SECONDS - T0)))
if [ -z "${SKIP_PEERS:-}" ] && [ $LEFT -gt 150 ]; then
  timeout $LEFT bench/run report-peers --rounds 1 --out $W/peers1 > $OUT/report-peers-1.txt 2>&1; echo "report-peers round 1 rc=$? at $((SECONDS - T0)) s"
  grep -E "beyond|report: wall|report: peak|verdicts" $OUT/report-peers-1.txt | cut -c1-200 | head -40
  tar czf $OUT/peers1.tgz -C $W peers1
else echo "no time left for report-peers ($LEFT s)"; fi
date -u; ls -la $OUT
