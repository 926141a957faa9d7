#!/bin/bash
# O_DIRECT sequential reads: fio's job with --iomem=mmap (the report's anchor), with --iomem=malloc, and hostside's case, 3 rounds interleaved
set -u
W=/tmp/w; mkdir -p $W; F=/var/tmp/odirect-test
date -u; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; cat /proc/loadavg
mkdir -p /tmp/hs && tar xzf .devbundle/hostside-bundle.tar.gz -C /tmp/hs; H=/tmp/hs/hostside/hostside
FIO=.peers/bin/fio
$FIO --name=lay --filename=$F --rw=write --bs=1M --size=1073741824 --direct=1 > /dev/null 2>&1; ls -la $F
for r in 1 2 3; do
  for io in mmap malloc; do
    for qd in 32 1; do
      eng=io_uring; [ $qd = 1 ] && eng=psync
      $FIO --name=j --filename=$F --rw=read --bs=1M --size=1073741824 --ioengine=$eng --iodepth=$qd --direct=1 --invalidate=0 --iomem=$io --time_based --runtime=1 --output-format=json > $W/fio-$r-$io-$qd.json 2>&1
      python3 -c "import json,sys;j=json.load(open('$W/fio-$r-$io-$qd.json'))['jobs'][0]['read'];print('round $r fio iomem=$io qd$qd', round(j['io_bytes']/j['runtime']*1000/1e9,3),'GB/s')"
    done
  done
  $H io --file $F --only seq_read_direct_uring_qd32,seq_read_direct_qd1 --json > $W/hs-$r.json 2> $W/hs-$r.err
  python3 -c "
import json;d=json.load(open('$W/hs-$r.json'))
for x in d['results']:
  if x['status']!='ok': print('round $r hostside', x['key'], x['status'], x.get('why')); continue
  det=x.get('detail') or {}; print('round $r hostside', x['key'], round(x['value']['median'],3), 'GB/s', x['value']['samples'], 'samples, pieces', det.get('bufferPieces'), 'overall', round(det.get('overall') or 0,3))"
done
rm -f $F; tar czf $OUT/odirect.tgz -C $W .; date -u
