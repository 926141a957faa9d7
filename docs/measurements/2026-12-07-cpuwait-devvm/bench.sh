#!/usr/bin/env bash
# The cpu drill before and after (branch cpuwait), interleaved, with refs timer beside it quiet and
# under refs hog: bench.sh OUTDIR ROUNDS BEFORE_LAUNCHER AFTER_LAUNCHER REFS
# Each launcher is a copy of ./hostside beside its own target/hostside.jar. Each round waits (up
# to MAX_WAIT s) for the 1-minute load average to fall below QUIET, then runs: refs timer quiet,
# the first jar's `cpu --json`, refs timer under refs hog on every CPU, the second jar's; the
# order of the jars alternates from round to round. /proc/loadavg is kept before and after each run.
set -u
out=$1 rounds=$2 before=$3 after=$4 refs=$5
QUIET=${QUIET:-1.0} MAX_WAIT=${MAX_WAIT:-300}
ncpu=$(nproc)
mkdir -p "$out"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

wait_quiet() {
  local waited=0
  while (( waited < MAX_WAIT )); do
    awk -v q="$QUIET" '{exit !($1 < q)}' /proc/loadavg && return 0
    sleep 5; waited=$(( waited + 5 ))
  done
  echo "still busy after $MAX_WAIT s: $(cat /proc/loadavg)" >> "$out/notes.txt"
}

run() { # tag command...
  local tag=$1; shift
  echo "$tag load-before $(cat /proc/loadavg)" >> "$out/load.txt"
  local t0=$(date +%s.%N)
  "$@" > "$out/$tag.out" 2> "$out/$tag.err"
  local t1=$(date +%s.%N)
  echo "$tag load-after $(cat /proc/loadavg) wall $(echo "$t1 - $t0" | bc)" >> "$out/load.txt"
}

for r in $(seq 1 "$rounds"); do
  wait_quiet
  if (( r % 2 )); then first=before second=after; else first=after second=before; fi
  declare -A jar=([before]=$before [after]=$after)
  run "r$r-refs-timer-quiet" "$refs" timer 100 20000
  run "r$r-$first" "${jar[$first]}" cpu --json
  "$refs" hog "$ncpu" 6 & hog=$!
  sleep 0.5
  run "r$r-refs-timer-hogs" "$refs" timer 100 20000
  wait "$hog"
  run "r$r-$second" "${jar[$second]}" cpu --json
done
