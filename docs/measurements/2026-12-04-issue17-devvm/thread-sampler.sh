# samples every thread of the JVM every 0.2 s: name, CPU last run on, utime+stime (ticks)
pid=$1; out=$2
while kill -0 $pid 2>/dev/null; do
  t=$(date +%s.%N)
  for s in /proc/$pid/task/*/stat; do
    read -r line < $s 2>/dev/null || continue
    name=$(echo "$line" | sed -E 's/^[0-9]+ \((.*)\) .*/\1/')
    rest=$(echo "$line" | sed -E 's/^.*\) //')
    set -- $rest
    echo "$t ${s#/proc/$pid/task/} | $name | cpu ${37} | ticks $(( ${12} + ${13} ))"
  done
  sleep 0.2
done > $out
