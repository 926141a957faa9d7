#!/bin/bash
# O_DIRECT 1 MiB reads: fio --iomem=mmap and --iomem=shmhuge, hostside plain and huge buffers, rounds alternating
cd /work/main; F=/var/tmp/odt; FIO=.peers/bin/fio; export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
DISK=${DISK:-vda}
fio1() { # mem qd
  eng=io_uring; [ $2 = 1 ] && eng=psync
  a=$(awk '{print $1}' /sys/block/$DISK/stat)
  $FIO --name=j --filename=$F --rw=read --bs=1M --size=1G --ioengine=$eng --iodepth=$2 --direct=1 --invalidate=1 --iomem=$1 --time_based --runtime=2 --output-format=json > /tmp/hx/f.json 2>/tmp/hx/f.err
  b=$(awk '{print $1}' /sys/block/$DISK/stat)
  python3 -c "
import json;j=json.load(open('/tmp/hx/f.json'))['jobs'][0]['read']
print('$r fio $1 qd$2', round(j['io_bytes']/j['runtime']*1000/1e9,3),'GB/s requests/read', round(($b-$a)/j['total_ios'],2))"
}
hs1() { # plain|huge
  if [ $1 = huge ]; then export HS_HUGE=1; else unset HS_HUGE; fi
  ./hostside io --file $F --only seq_read_direct_qd1,seq_read_direct_uring_qd32 --json > /tmp/hx/h.json 2>/tmp/hx/h.err
  python3 -c "
import json;d=json.load(open('/tmp/hx/h.json'))
for x in d['results']:
  if x['status']!='ok': print('$r hostside', x['key'], x['status'], x.get('why')); continue
  det=x.get('detail') or {}; print('$r hostside $1', x['key'], round(x['value']['median'],3), 'GB/s (', round(x['value']['min'],3), '-', round(x['value']['max'],3), ') pieces', det.get('bufferPieces'), 'requests/read', det.get('requestsPerRead'))"
}
[ -f $F ] || $FIO --name=lay --filename=$F --rw=write --bs=1M --size=1G --direct=1 >/dev/null 2>&1
for r in $(seq 1 ${ROUNDS:-3}); do
  if [ $((r % 2)) = 1 ]; then fio1 mmap 1; fio1 shmhuge 1; fio1 mmap 32; fio1 shmhuge 32; hs1 plain; hs1 huge
  else hs1 huge; hs1 plain; fio1 shmhuge 32; fio1 mmap 32; fio1 shmhuge 1; fio1 mmap 1; fi
done
