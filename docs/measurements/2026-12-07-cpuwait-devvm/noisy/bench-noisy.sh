#!/usr/bin/env bash
# timer_jitter_quiet then _noisy in one JVM, before and after jars alternating, with refs timer under refs hog between
out=/tmp/cpuwait-noisy; mkdir -p $out; export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for r in 1 2 3 4 5 6; do
  for j in before after; do
    [ $((r % 2)) = 0 ] && j=$([ $j = before ] && echo after || echo before)
    echo "r$r-$j $(cat /proc/loadavg)" >> $out/load.txt
    /tmp/cpuwait-$j/hostside cpu --only timer_jitter_quiet,timer_jitter_noisy --json > $out/r$r-$j.json 2> $out/r$r-$j.err
  done
  /tmp/cpuwait-refs hog 2 6 & h=$!; sleep 0.5; /tmp/cpuwait-refs timer 100 20000 > $out/r$r-refs-hogs.txt; wait $h
done
echo "end $(cat /proc/loadavg)" >> $out/load.txt
