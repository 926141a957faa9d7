#!/usr/bin/env bash
# Every thread of process PID, sampled every 0.2 s until it ends: time, task id, name, the CPU it
# last ran on, and its user+system CPU time in clock ticks (/proc/PID/task/TID/stat, fields 39, 14
# and 15). Which threads of a JVM ran while it measured, and where.
#   bash bench/thread-sampler.sh PID OUTFILE
pid=${1:?PID}; out=${2:?OUTFILE}
while kill -0 "$pid" 2>/dev/null; do
  t=$(date +%s.%N)
  for s in /proc/"$pid"/task/*/stat; do
    read -r line < "$s" 2>/dev/null || continue
    name=$(sed -E 's/^[0-9]+ \((.*)\) .*/\1/' <<<"$line")
    # shellcheck disable=SC2046
    set -- $(sed -E 's/^.*\) //' <<<"$line")
    echo "$t ${s#/proc/$pid/task/} | $name | cpu ${37} | ticks $(( ${12} + ${13} ))"
  done
  sleep 0.2
done > "$out"
