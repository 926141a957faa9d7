#!/bin/bash
# the report before (BEFORE: cd730ac by default, thin bundle on this bundle's runtime) and after, quick and full, one round, per-case times
set -u
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
W=/tmp/w; mkdir -p $W
date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; cat /proc/loadavg
timeout 420 bench/run report-costs --rounds 1 --before ${BEFORE:-.devbundle/before-cd730ac-thin.tar.gz} --out $W/costs > $OUT/report-costs.txt 2>&1; echo "report-costs rc=$?"
tail -105 $OUT/report-costs.txt
tar czf $OUT/costs.tgz -C $W costs
date -u; ls -la $OUT
