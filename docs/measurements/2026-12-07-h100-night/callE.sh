#!/bin/bash
# the report before (BEFORE: d462ff4 by default, thin bundle on this bundle's runtime) and after, quick and full, one round, per-case times
set -u
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
W=/tmp/w; mkdir -p $W
date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat /proc/loadavg
timeout 420 bench/run report-costs --rounds 1 --before ${BEFORE:-.devbundle/before-d462ff4-thin.tar.gz} --out $W/costs > $OUT/report-costs.txt 2>&1; echo "report-costs rc=$?"
tail -105 $OUT/report-costs.txt
tar czf $OUT/costs.tgz -C $W costs
date -u; ls -la $OUT
# pageable copies by PyTorch into destinations of different alignment (hostside's is page-aligned, PyTorch's posix_memalign 64)
cat /sys/kernel/mm/transparent_hugepage/enabled
timeout 150 python3 .devbundle/d2h_align.py 3 > $OUT/d2h-align.txt 2>&1; echo "d2h_align rc=$?"; cat $OUT/d2h-align.txt
