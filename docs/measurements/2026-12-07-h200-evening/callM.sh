#!/bin/bash
# warm mmap reads: fio's mmap engine with its malloc'd buffer (16 bytes past a page) and with --iomem=mmap, beside hostside's
# file_mmap_warm, three rounds; the file cached before each fio job
set -u
F=/var/tmp/mm-test; FIO=.peers/bin/fio
mkdir -p /tmp/hs && [ -x /tmp/hs/hostside/hostside ] || tar xzf .devbundle/hostside-bundle.tar.gz -C /tmp/hs
H=/tmp/hs/hostside/hostside
$FIO --name=lay --filename=$F --rw=write --bs=1M --size=1g > /dev/null 2>&1
f() { cat $F > /dev/null; $FIO --name=j --filename=$F --rw=read --bs=1M --ioengine=mmap --invalidate=0 --size=1g $2 --output-format=json 2>/dev/null | python3 -c "
import json,sys;j=json.load(sys.stdin)['jobs'][0]['read'];print('$1', round(j['bw_bytes']/1e9,2),'GB/s')"; }
for r in 1 2 3; do
  f "round $r fio mmap engine, malloc buffer" ""; f "round $r fio mmap engine, --iomem=mmap" "--iomem=mmap"
  $H vm --only file_mmap_warm,file_read_warm --json 2>/dev/null | python3 -c "
import json,sys;d=json.load(sys.stdin)
for x in d['figures']:
  if x['key'] in ('file_mmap_warm','file_read_warm'): print('round $r hostside', x['key'], round(x['value'],2), 'GB/s (', round(x['min'],2), '-', round(x['max'],2), ')')"
done
rm -f $F
