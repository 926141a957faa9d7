#!/usr/bin/env bash
# Module 2 on a live machine without Java, with the runtime that ../shared/tools/device-jre.sh
# builds: hostside vm (facts, every measurement, human and JSON), the fault-count check against
# /usr/bin/time -v (bench/fault-check.sh), and the kernel's THP counters around the run.
# Usage (from the repo root, .jre/ and the jar present): bash bench/device-vm.sh OUTDIR [JAR]
set -uo pipefail
out=${1:?usage: bench/device-vm.sh OUTDIR [JAR]}
jar=${2:-target/hostside.jar}
mkdir -p "$out"
# the launcher's flags for vm and report: C2 on (see ./hostside)
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -jar "$jar")
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)  kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,memory.free --format=csv,noheader 2>/dev/null
  echo "== df /var/tmp"; df -h /var/tmp | tail -1
  echo "== hostside vm"
  s=$(date +%s%N); "${J[@]}" vm; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== hostside vm --json (saved as vm.json)"
  "${J[@]}" vm --json > "$out/vm.json" 2>"$out/vm.err"; echo "exit $?"
  echo "== bad input"
  "${J[@]}" vm --only file_read_warm --dir /proc; echo "exit $?"
  "${J[@]}" vm --only file_read_warm --size 100T; echo "exit $?"
  "${J[@]}" vm --only file_read_warm --dir /nonexistent; echo "exit $?"
  ls /var/tmp/hostside-vm-* 2>/dev/null && echo "LEFT BEHIND" || echo "no test file left behind"
  echo "== hostside vm --explain (default layout of this machine)"
  "${J[@]}" vm --explain pagewalk 0x7f3a12345678 --all | head -20; echo "exit $?"
  "${J[@]}" vm --explain cow --all | tail -12
  echo "== hostside report (Modules 1 and 2)"
  s=$(date +%s%N); "${J[@]}" report --out "$out" --name h200; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== fault counts vs /usr/bin/time -v"
  if [[ -x /usr/bin/time ]]; then
    JAVA=".jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC" JAR="$jar" bash bench/fault-check.sh --size 1G
  else
    echo "/usr/bin/time is not installed here"
  fi
} > "$out/device-vm.log" 2>&1
cat "$out/device-vm.log"
