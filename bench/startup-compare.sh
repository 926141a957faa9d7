#!/usr/bin/env bash
# Start-up of `machine --json` with two jars, interleaved (A, B, A, B...) so that a drifting
# machine drifts for both: issue 16 asks that the typed model make it no slower.
#   bench/startup-compare.sh BEFORE.jar AFTER.jar [RUNS] [JAVA]
# RUNS per jar (default 15, after 2 untimed each); JAVA defaults to .jre/bin/java, else java.
# BENCH_ARGS replaces "machine --json" (e.g. "machine --json --root testdata/h200/sysfs.tar.gz").
# Prints median, min and max in ms for each jar, plain `java -jar` (no AOT cache) for both.
set -euo pipefail
a=${1:?BEFORE.jar}; b=${2:?AFTER.jar}; runs=${3:-15}
java=${4:-$( [[ -x .jre/bin/java ]] && echo .jre/bin/java || command -v java )}
read -r -a args <<<"${BENCH_ARGS:-machine --json}"
run() { "$java" --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar "$1" "${args[@]}" >/dev/null 2>&1; }
ms() { local t0 t1; t0=$(date +%s%N); run "$1"; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }
stats() { sort -n | awk '{ t[NR] = $1 } END { m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "median %5.0f ms  min %5.0f  max %5.0f  (%d runs)\n", m, t[1], t[NR], NR }'; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); java: $("$java" -version 2>&1 | head -n 1)"
echo "command: ${args[*]}"
for j in "$a" "$b"; do run "$j"; run "$j"; done   # untimed: page cache and the JIT's first files
: >/tmp/startup-a; : >/tmp/startup-b
for ((i = 0; i < runs; i++)); do ms "$a" >>/tmp/startup-a; ms "$b" >>/tmp/startup-b; done
printf '%-12s ' before; stats </tmp/startup-a
printf '%-12s ' after; stats </tmp/startup-b
