#!/bin/bash
# interleaved: before (d462ff4 bundle) and after (this build), timer quiet+noisy, 3 rounds
for r in ${ROUNDS:-1 2 3}; do
  for side in ${SIDES:-before after}; do
    if [ $side = before ]; then H=/tmp/old/hostside/hostside; else H=/work/main/hostside; fi
    s=$(date +%s.%N)
    $H cpu --only timer_jitter_quiet,timer_jitter_noisy --json > /tmp/jit-$side-$r.json 2>/dev/null
    e=$(date +%s.%N)
    python3 - "$side" "$r" "$s" "$e" <<'PY'
import json,sys
side,r,s,e=sys.argv[1:]
d=json.load(open(f"/tmp/jit-{side}-{r}.json"))
def walk(o):
    if isinstance(o,dict):
        if o.get('key','').startswith('timer_jitter') and 'detail' in o: yield o
        for v in o.values(): yield from walk(v)
    elif isinstance(o,list):
        for v in o: yield from walk(v)
out=[]
for c in walk(d):
    dt=c['detail']; l=dt['lateNs']
    out.append(f"{c['key']}: warm {dt['warmupTicks']} ticks {dt['warmupMs']} ms jit={dt['jitSettledInWarmup']} p50 {l['p50']/1e3:.1f} p99 {l['p99']/1e3:.1f} p99.9 {l['p999']/1e3:.1f} us missed {dt['missedTicks']}")
print(f"{side} r{r} wall {float(e)-float(s):.1f} s | "+" | ".join(out))
PY
  done
done
