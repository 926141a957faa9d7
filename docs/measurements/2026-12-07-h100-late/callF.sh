#!/bin/bash
# final call: the jitter bench (hostside beside refs timer and cyclictest, quiet and under hogs, 3 rounds), the JVM's threads
# during timer_jitter_noisy, then two report-peers rounds of this build
set -u
export HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz
W=/tmp/w; mkdir -p $W
date -u; nproc; cat /proc/loadavg
timeout 100 bench/run jitter --rounds 3 --out $W/jitter > $OUT/jitter.txt 2>&1; echo "jitter rc=$?"; grep -E "^\|" $OUT/jitter.txt | cut -c1-200
timeout 40 bash .devbundle/threads.sh > $OUT/threads.txt 2>&1; echo "threads rc=$?"; cat $OUT/threads.txt
for i in 1 2; do
  timeout 220 bench/run report-peers --rounds 1 --out $W/peers$i > $OUT/report-peers-$i.txt 2>&1; echo "report-peers round $i rc=$?"
  grep -E "beyond|report: wall|verdicts" $OUT/report-peers-$i.txt | cut -c1-180
  tar czf $OUT/peers$i.tgz -C $W peers$i
done
tar czf $OUT/jitter.tgz -C $W jitter
date -u; ls -la $OUT
