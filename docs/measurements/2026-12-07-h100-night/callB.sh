#!/bin/bash
# the whole report beside its peers, one round per argument (bash callB.sh 1 2, then bash callB.sh 3: a round is a report and then
# every peer, some 3-4 min on the GPU VMs), each round's files in $OUT when it ends
set -u
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
W=/tmp/w; mkdir -p $W
date -u; cat /proc/loadavg
for i in "$@"; do
  timeout 285 bench/run report-peers --rounds 1 --out $W/peers$i > $OUT/report-peers-$i.txt 2>&1; echo "report-peers round $i rc=$?"
  tail -60 $OUT/report-peers-$i.txt
  tar czf $OUT/peers$i.tgz -C $W peers$i
done
date -u; ls -la $OUT
