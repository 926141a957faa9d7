#!/usr/bin/env bash
# Start-up time of `./hostside machine --json`, JVM start included: the launcher (AOT cache
# and tuned flags) against the launcher without the cache and against a plain `java -jar`,
# so the gain of each part shows.
#
#   bench/startup.sh [RUNS]        RUNS per command, default 15; the first 2 are warm-up and
#                                  are not counted
#   BENCH_ARGS="machine --json --root ../shared/fixtures/h200/sysfs.tar.gz" bench/startup.sh
#
# The launcher builds the jar and the AOT cache first, untimed: this measures a warm disk
# cache and a ready cache, which is what a user sees from the second call on. Uses hyperfine
# when installed (apt-get install hyperfine), else (or with BENCH_LOOP=1) a date +%s%N loop.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${1:-15}
warmup=2
(( runs > warmup )) || { echo "RUNS must be more than $warmup" >&2; exit 2; }
read -r -a args <<<"${BENCH_ARGS:-machine --json}"

# Build and train now, so no timed run pays for Maven or the training run.
./hostside "${args[@]}" >/dev/null
[[ -f target/hostside.aot ]] || echo "warning: no AOT cache was created (HOSTSIDE_DEBUG=1 ./hostside ... says why)" >&2
java=$(HOSTSIDE_WHICH_JAVA=1 ./hostside)

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
     "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java:    $java ($("$java" -version 2>&1 | head -n 1))"
echo "date:    $(date -u +%Y-%m-%dT%H:%MZ)   commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "runs:    $((runs - warmup)) timed per command, after $warmup warm-up"
echo

use_hyperfine() { [[ ${BENCH_LOOP:-} != 1 ]] && command -v hyperfine >/dev/null; }

# Prints median/min/max in ms of the times (ms, one per line) on stdin.
stats() {
  sort -n | awk '{ t[NR] = $1 }
    END { m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
          printf "%8.0f %8.0f %8.0f\n", m, t[1], t[NR] }'
}

# Times one command (given as words) and prints its stats line.
measure() {
  if use_hyperfine; then
    local json err; json=$(mktemp) err=$(mktemp)
    # -N: no intermediate shell, so its start-up is not counted. Its "outliers" warnings
    # would break the table; they are shown only when the run fails.
    hyperfine -N --style none --warmup "$warmup" --runs "$((runs - warmup))" \
      --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>"$err" || { cat "$err" >&2; return 1; }
    rm -f "$err"
    # The "times" array (seconds), one value a line in hyperfine's export.
    awk '/"times"/ { on = 1; next } on && /\]/ { on = 0 } on { gsub(/[ ,]/, ""); print $0 * 1000 }' "$json" | stats
    rm -f "$json"
  else
    local i t0 t1
    for (( i = 0; i < runs; i++ )); do
      t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
      (( i >= warmup )) && echo $(( (t1 - t0) / 1000000 ))
    done | stats
  fi
}

printf '%-52s %8s %8s %8s\n' "command: ${args[*]}" "median" "min" "max"
printf '%-52s %s\n' "" "      (ms, wall time)"
printf '%-52s ' "./hostside (AOT cache + SerialGC + C1 only)"
measure ./hostside "${args[@]}"
printf '%-52s ' "./hostside, HOSTSIDE_NO_AOT=1 (flags only)"
HOSTSIDE_NO_AOT=1 measure ./hostside "${args[@]}"
printf '%-52s ' "java -jar target/hostside.jar (plain)"
measure "$java" -jar target/hostside.jar "${args[@]}"
echo "tool: $(use_hyperfine && hyperfine --version || echo 'date +%s%N loop')"
