#!/bin/bash
# O_DIRECT sequential reads, fio's job (--iomem=mmap, the report's anchor) and hostside's case, alternating who goes first, 4 rounds
set -u
W=/tmp/fo; mkdir -p $W; F=/var/tmp/odirect-test
date -u; cat /sys/kernel/mm/transparent_hugepage/enabled; cat /proc/loadavg
H=./hostside
FIO=.peers/bin/fio
$FIO --name=lay --filename=$F --rw=write --bs=1M --size=1073741824 --direct=1 > /dev/null 2>&1
fio_run() {
  for qd in 1 32; do
    eng=io_uring; [ $qd = 1 ] && eng=psync
    $FIO --name=j --filename=$F --rw=read --bs=1M --size=1073741824 --ioengine=$eng --iodepth=$qd --direct=1 --invalidate=1 --iomem=mmap --time_based --runtime=2 --output-format=json > $W/fio-$1-$qd.json 2>&1
    python3 -c "import json;j=json.load(open('$W/fio-$1-$qd.json'))['jobs'][0]['read'];print('round $1 fio qd$qd', round(j['io_bytes']/j['runtime']*1000/1e9,3),'GB/s')"
  done
}
hs_run() {
  $H io --file $F --only seq_read_direct_qd1,seq_read_direct_uring_qd32 --json > $W/hs-$1.json 2> $W/hs-$1.err
  python3 -c "
import json;d=json.load(open('$W/hs-$1.json'))
for x in d['results']:
  if x['status']!='ok': print('round $1 hostside', x['key'], x['status'], x.get('why')); continue
  det=x.get('detail') or {}; print('round $1 hostside', x['key'], round(x['value']['median'],3), 'GB/s (', round(x['value']['min'],3), '-', round(x['value']['max'],3), ')', x['value']['samples'], 'samples, pieces', det.get('bufferPieces'))"
}
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then fio_run $r; hs_run $r; else hs_run $r; fio_run $r; fi
done
rm -f $F; date -u
