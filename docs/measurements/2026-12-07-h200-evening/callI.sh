#!/bin/bash
# the disks' max_segments; fork vs spawn before/after and quick before/after (callG); O_DIRECT whole buffers beside fio's
# shmhuge job (bench io, 3 rounds); the same-core ping-pong and AVX-512 state (callZ); warm mmap reads beside fio (callM)
set -u
for q in /sys/block/*/queue/max_segments; do echo "$q $(cat $q) max_sectors_kb=$(cat ${q%max_segments}max_sectors_kb)"; done
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag /proc/sys/vm/nr_hugepages
bash .devbundle/callG.sh
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
timeout 120 bench/run io --rounds 3 --keys seq_read_direct_qd1,seq_read_direct_uring_qd32 --size 1G --out /tmp/w/bio > $OUT/bench-io.txt 2>&1; echo "bench io rc=$?"
grep -E '^\|' $OUT/bench-io.txt; cat /proc/sys/vm/nr_hugepages
for f in /tmp/w/bio/r*-hostside-seq*.out; do python3 -c "
import json;d=json.load(open('$f'))
for x in d['results']:
  det=x.get('detail') or {}; print('$f'.split('/')[-1], x['key'], round(x['value']['median'],3), 'overall', round(det.get('overall') or 0,3), 'pieces', det.get('bufferPieces'), 'req/read', det.get('requestsPerRead'), 'maxseg', det.get('maxSegments'))"; done
tar czf $OUT/bio.tgz -C /tmp/w bio
bash .devbundle/callZ.sh
bash .devbundle/callM.sh
date -u
