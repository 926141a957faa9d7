#!/bin/bash
# random 4 KiB reads at 200 ms and 100 ms samples, alternating, on one 1 GiB test file (written by fio-free dd once)
set -u
F=/var/tmp/randab-test; H=./hostside; W=/tmp/randab
[ -f $F ] || dd if=/dev/urandom of=$F bs=1M count=1024 status=none
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="200 100"; else order="100 200"; fi
  for ms in $order; do
    s=$(date +%s.%N)
    $H io --file $F --sample-ms $ms --only rand_read_cold_qd1,rand_read_warm_qd1,rand_read_direct_qd1,rand_read_direct_uring_qd1,rand_read_direct_uring_qd32 --json > $W/r$r-$ms.json 2> $W/r$r-$ms.err
    e=$(date +%s.%N)
    python3 - "$W/r$r-$ms.json" $r $ms $(echo "$e - $s" | bc) <<'PY'
import json,sys
d=json.load(open(sys.argv[1])); r,ms,t=sys.argv[2],sys.argv[3],float(sys.argv[4])
cells=[]
for x in d['results']:
    if x['status']!='ok': cells.append(f"{x['key']} {x['status']}"); continue
    v=x['value']; cells.append(f"{x['key'].replace('rand_read_','')} {v['median']:.0f} ({v['min']:.0f}-{v['max']:.0f}) n={v['samples']}")
print(f"round {r} {ms} ms ({t:.1f} s): " + "; ".join(cells))
PY
  done
done
rm -f $F
