#!/bin/bash
# O_DIRECT 1 MiB reads: the device's requests per 1 MiB read (/sys/block/vda/stat), fio's job and hostside's case, alternating
set -u
F=/var/tmp/odirect-split; FIO=.peers/bin/fio; H=./hostside; W=/tmp/fo
$FIO --name=lay --filename=$F --rw=write --bs=1M --size=1073741824 --direct=1 > /dev/null 2>&1
stat() { awk '{print $1, $3}' /sys/block/vda/stat; }
report() { read r0 s0 <<< "$1"; read r1 s1 <<< "$2"; python3 -c "r=$r1-$r0; mib=($s1-$s0)*512/2**20; print('%s: %d requests for %.0f MiB read: %.2f requests per MiB, %.0f KiB each' % ('$3', r, mib, r/mib if mib else 0, mib*1024/r if r else 0))"; }
for r in 1 2 3 4 5 6; do
  for who in fio hs; do
    a=$(stat)
    if [ $who = fio ]; then
      $FIO --name=j --filename=$F --rw=read --bs=1M --size=1073741824 --ioengine=psync --iodepth=1 --direct=1 --invalidate=1 --iomem=mmap --time_based --runtime=2 --output-format=json > $W/split-fio-$r.json 2>&1
      b=$(stat); report "$a" "$b" "round $r fio qd1 ($(python3 -c "import json;j=json.load(open('$W/split-fio-$r.json'))['jobs'][0]['read'];print(round(j['bw_bytes']/1e9,3))") GB/s)"
    else
      $H io --file $F --only seq_read_direct_qd1 --json > $W/split-hs-$r.json 2>/dev/null
      b=$(stat); report "$a" "$b" "round $r hostside qd1 ($(python3 -c "import json;d=json.load(open('$W/split-hs-$r.json'));x=d['results'][0];print(round(x['value']['median'],3), 'GB/s, pieces', (x.get('detail') or {}).get('bufferPieces'))"))"
    fi
  done
done
rm -f $F
