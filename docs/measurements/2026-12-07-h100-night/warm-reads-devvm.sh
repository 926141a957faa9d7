#!/bin/bash
# warm reads after cold ones, as in the report: hostside before (d462ff4) and after (warm-up drops and reads in order),
# and fio's mmap and psync warm jobs on a file cached as the bench caches it (dropped, read once in order), 3 rounds
set -u
F=/var/tmp/mm-fio; FIO=/work/main/.peers/bin/fio
$FIO --name=lay --filename=$F --rw=write --bs=1M --size=1g > /dev/null 2>&1
inorder() { python3 -c "
import os,sys
with open('$F','rb') as f:
    os.posix_fadvise(f.fileno(),0,0,os.POSIX_FADV_DONTNEED)
    while f.read(1<<20): pass"; }
fiojob() { inorder; $FIO --name=j --filename=$F --rw=read --bs=1M --invalidate=0 --size=1g $2 --output-format=json 2>/dev/null | python3 -c "
import json,sys;j=json.load(sys.stdin)['jobs'][0]['read'];print('$1', round(j['bw_bytes']/1e9,2),'GB/s')"; }
hs() { $2 vm --only file_read_cold,file_mmap_cold,file_read_warm,file_mmap_warm --json 2>/dev/null | python3 -c "
import json,sys;d=json.load(sys.stdin)
print('$1', ' '.join(f\"{x['key']} {x['value']:.2f} ({x['min']:.2f}-{x['max']:.2f})\" for x in d['figures'] if x['key'].startswith('file_') and x['key'].count('_')==2))"; }
for r in 1 2 3; do
  hs "r$r before" /tmp/old/hostside/hostside
  hs "r$r after " /work/main/hostside
  fiojob "r$r fio mmap warm" "--ioengine=mmap"
  fiojob "r$r fio psync warm" "--ioengine=psync --fadvise_hint=0 --iomem=mmap --pre_read=1"
done
rm -f $F
