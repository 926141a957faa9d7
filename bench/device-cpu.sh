#!/usr/bin/env bash
# Module 3 on a live machine without Java, with the runtime that ../shared/tools/device-jre.sh
# builds: hostside cpu (facts, scheduler costs, launch jitter, DataLoader copy-on-write, fork vs
# spawn with CUDA), the syscall profile of the built-in training step, /usr/bin/time -v
# of the DataLoader script for the memory cross-check, and the report.
# Usage (from the repo root, .jre/ and the jar present): bash bench/device-cpu.sh OUTDIR [JAR]
set -uo pipefail
out=${1:?usage: bench/device-cpu.sh OUTDIR [JAR]}
jar=${2:-target/hostside.jar}
mkdir -p "$out"
# the launcher's flags for cpu and report: C2 on (see ./hostside)
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -jar "$jar")
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)  kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  for t in strace cyclictest python3; do printf '%s: %s\n' "$t" "$(command -v $t || echo 'not installed')"; done
  echo "== hostside cpu"
  s=$(date +%s%N); "${J[@]}" cpu; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== hostside cpu --trace (the built-in step)"
  "${J[@]}" cpu --trace; echo "exit $?"
  echo "== bad input"
  "${J[@]}" cpu --trace --pid 999999999 --seconds 1; echo "exit $?"
  "${J[@]}" cpu --launches 5; echo "exit $?"
  echo "== hostside report (Modules 1 to 3; its JSON holds cpu's)"
  s=$(date +%s%N); "${J[@]}" report --out "$out" --name h200; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== processes left behind (python, strace, hogs)"
  pgrep -a -f 'cow_workers|fork_vs_spawn|train_step|strace' || echo none
} > "$out/device-cpu.log" 2>&1
cat "$out/device-cpu.log"
