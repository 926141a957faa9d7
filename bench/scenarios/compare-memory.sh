#!/usr/bin/env bash
# compare's memory on a fleet of large reports, with two jars (once, 12 reports of 44 MB took
# 4.3 GB): peak RSS and wall time of `compare DIR` with the JVM's default heap, then whether it
# runs in a small one (-Xmx256m, -Xmx64m).
#   bench/run compare-memory BEFORE.jar AFTER.jar [N] [SAMPLES] [JAVA]
# N reports (default 12) of the H200's report with SAMPLES memory samples per data-loader process
# (default 34000: about 44 MB each), written once to /tmp/compare-memory/ by large-reports.py.
set -euo pipefail
a=${1:?BEFORE.jar}; b=${2:?AFTER.jar}; n=${3:-12}; samples=${4:-34000}
java=${5:-${JAVA_HOME:+$JAVA_HOME/bin/java}}; java=${java:-java}
here=$(cd "$(dirname "$0")" && pwd)
fleet=/tmp/compare-memory/$n-$samples
[[ -d $fleet ]] || python3 "$here/large-reports.py" "$here/../testdata/reports/h200-hostside2.json" "$fleet" "$n" "$samples"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; java: $("$java" -version 2>&1 | head -n 1)"
echo "fleet: $n reports of $(du -m "$fleet/node00.json" | cut -f1) MB in $fleet"
for j in "$a" "$b"; do
  for heap in "" -Xmx256m -Xmx64m; do
    /usr/bin/time -v "$java" $heap -jar "$j" compare "$fleet" >/dev/null 2>/tmp/compare-memory/err && rc=0 || rc=$?
    printf '%-40s %-9s exit %d  peak RSS %7d KiB  %s  %s\n' "$j" "${heap:-default}" "$rc" \
      "$(awk '/Maximum resident/ { print $NF }' /tmp/compare-memory/err)" "$(awk '/Elapsed/ { print $NF }' /tmp/compare-memory/err)" \
      "$(grep -m1 -o 'OutOfMemoryError.*\|^hostside: .*' /tmp/compare-memory/err | head -c 60 || true)"
  done
done
