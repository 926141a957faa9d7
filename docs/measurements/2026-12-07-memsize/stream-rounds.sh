#!/bin/bash
# STREAM 5.10 (200 M elements) beside hostside's triad: main's jar ("today"), this branch ("new", sysfs-sized),
# and this branch at the 64 MiB arrays a measured knee gives on this VM ("knee"); interleaved, 3 rounds.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
OUT=/tmp/ms-stream/out; mkdir -p $OUT
PEER=/work/main/.peers/bin/stream
for r in 1 2 3; do
  echo "round $r load $(cut -d' ' -f1-3 /proc/loadavg)"
  $PEER > $OUT/r$r-stream.txt 2>&1; echo "  stream $(grep -E '^Triad' $OUT/r$r-stream.txt) load $(cut -d' ' -f1 /proc/loadavg)"
  /tmp/ms-before/hostside machine --json --only memory_bandwidth_triad > $OUT/r$r-today.json 2>$OUT/r$r-today.err; echo "  today rc=$? load $(cut -d' ' -f1 /proc/loadavg)"
  /work/wt-memsize/hostside machine --json --only memory_bandwidth_triad > $OUT/r$r-new.json 2>$OUT/r$r-new.err; echo "  new rc=$? load $(cut -d' ' -f1 /proc/loadavg)"
  /work/wt-memsize/hostside machine --json --only memory_bandwidth_triad --stream-array 67108864 > $OUT/r$r-knee.json 2>$OUT/r$r-knee.err; echo "  knee rc=$? load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg)"
