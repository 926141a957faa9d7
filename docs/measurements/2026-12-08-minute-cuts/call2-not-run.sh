#!/bin/bash
# NOT RUN this session (the device budget ended before a machine came): the next GPU call's form
# 2026-12-08 call 2 (4ea110bc: the jitter recording's loop compiled in the burst): the four launch conditions under a JIT
# log, then one report-peers round in the time left
set -u
T0=$SECONDS
export BUNDLE=.devbundle/hostside-bundle.tar.gz HOSTSIDE_PEERS=.peers
R=$PWD; W=/tmp/w; mkdir -p $W/hs
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat /proc/loadavg
tar xzf $BUNDLE -C $W/hs; HS=$W/hs/hostside/hostside
cd $W
HOSTSIDE_JAVA_OPTS="-Xlog:jit+compilation=debug:file=$W/jit.log:uptimemillis" timeout 60 $HS cpu --only launch_jitter_quiet,launch_jitter_noisy,launch_jitter_pinned,launch_jitter_graph --json > $W/cpu-jit.json 2> $OUT/cpu-jit.err; echo "cpu jit rc=$?"
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
cat $OUT/jit-in-recording.txt; grep -E "Feeder|Ticker" $W/jit.log > $OUT/jit-feeder.log; cat $OUT/jit-feeder.log | cut -c1-130
cd $R; sleep 20; cat /proc/loadavg
LEFT=$((280 - (SECONDS - T0)))
timeout $LEFT bench/run report-peers --rounds 1 --out $W/peers2 > $OUT/report-peers-2.txt 2>&1; echo "report-peers round 2 rc=$? at $((SECONDS - T0)) s"
grep -E "verdicts|report: wall|report: peak" $OUT/report-peers-2.txt | cut -c1-200
tar czf $OUT/peers2.tgz -C $W peers2
date -u; ls -la $OUT
