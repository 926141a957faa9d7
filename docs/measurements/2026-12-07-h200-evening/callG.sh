#!/bin/bash
# fork_vs_spawn_cuda before (cd730ac: spawns in turn) and after (spawns together), alternating, 2 rounds; then report --quick before/after
set -u
date -u; cat /proc/loadavg; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; uname -r
mkdir -p /tmp/hs && tar xzf .devbundle/hostside-bundle.tar.gz -C /tmp/hs
rm -rf /tmp/hb && cp -r /tmp/hs /tmp/hb && rm -f /tmp/hb/hostside/hostside.aot && tar xzf .devbundle/before-cd730ac-thin.tar.gz -C /tmp/hb
spawn() {
  local side=$1 r=$2 H=/tmp/hs/hostside/hostside; [ $side = before ] && H=/tmp/hb/hostside/hostside
  timeout 100 $H cpu --only fork_vs_spawn_cuda --json > $OUT/spawn-$r-$side.json 2> $OUT/spawn-$r-$side.err
  python3 - $OUT/spawn-$r-$side.json $side $r $OUT/spawn-$r-$side.err <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1])); side,r=sys.argv[2],sys.argv[3]
err=open(sys.argv[4]).read(); took=re.findall(r'fork_vs_spawn_cuda: ok in ([0-9.]+ s)', err)
def find(o):
    if isinstance(o,dict):
        if o.get('key')=='fork_vs_spawn_cuda' and 'status' in o: return o
        for v in o.values():
            x=find(v)
            if x: return x
    if isinstance(o,list):
        for v in o:
            x=find(v)
            if x: return x
x=find(d)
if not x or x['status']!='ok': print('round',r,side,'not ok', x and x.get('why')); sys.exit()
v=x['value']; tries=[(t.get('startSeconds'),t.get('cudaSeconds')) for t in x['detail']['spawnTries']]
print('round',r,side,'median',v['median'],'min',v['min'],'max',v['max'],'tries (start, cuda s)',tries,'case took',took)
PY
}
spawn before 1; spawn after 1; spawn after 2; spawn before 2
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
timeout 110 bench/run report-costs --quick-only --rounds 1 --before .devbundle/before-cd730ac-thin.tar.gz --out /tmp/w/costs > $OUT/quick-costs.txt 2>&1; echo "quick costs rc=$?"
sed -n '/| figure/,/^$/p' $OUT/quick-costs.txt; grep -E '^\| \*\*' $OUT/quick-costs.txt
date -u
