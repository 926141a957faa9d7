#!/usr/bin/env bash
# Module 3 on a live machine without Java, with the runtime that ../shared/tools/device-jre.sh
# builds: hostside cpu (facts, scheduler costs, launch jitter, DataLoader copy-on-write, fork vs
# spawn with CUDA), the syscall profile of the built-in training step, the established tools
# beside hostside (cyclictest, /usr/bin/time -v or wait4's ru_maxrss), Ctrl-C in the middle of
# a run, and the report. A .devtools/bin beside the jar (strace, cyclictest carried from another
# machine, see docs/measurements/2026-12-02-cpu.md) goes first on PATH.
# Usage (from the repo root, .jre/ and the jar present): bash bench/device-cpu.sh OUTDIR [JAR]
set -uo pipefail
out=${1:?usage: bench/device-cpu.sh OUTDIR [JAR]}
jar=${2:-target/hostside.jar}
mkdir -p "$out"
[[ -d .devtools/bin ]] && PATH=$PWD/.devtools/bin:$PATH
# the launcher's flags for cpu and report: C2 on (see ./hostside)
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC
   -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0 -jar "$jar")
export HOSTSIDE="${J[*]}" JAR="$jar"
leftovers() { pgrep -a -f 'cow_workers|fork_vs_spawn|train_step|strace|hostside-cpu-hog' || echo none; }
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)  kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  for t in strace cyclictest python3 /usr/bin/time; do printf '%s: %s\n' "$t" "$(command -v $t || echo 'not installed')"; done
  echo "== hostside cpu"
  s=$(date +%s%N); "${J[@]}" cpu; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== hostside cpu --trace (the built-in step)"
  "${J[@]}" cpu --trace; echo "exit $?"
  echo "== against cyclictest"
  bash bench/cpu-vs-cyclictest.sh 5
  echo "== against /usr/bin/time -v"
  bash bench/dataloader-vs-time.sh 256M 4
  echo "== Ctrl-C during the noisy jitter, then during the DataLoader"
  # job control on: a background job of a script otherwise starts with SIGINT ignored
  # the signal goes in once the hogs or the Python workers are there (main and two workers at least)
  for only in timer_jitter_noisy:hostside-cpu-hog dataloader_cow_list:cow_workers; do
    (set -m; "${J[@]}" cpu --only ${only%%:*} --launches 1000000 > /dev/null 2>&1 & pid=$!
     for i in $(seq 400); do [ "$(pgrep -fc "${only#*:}")" -ge 3 ] && break; sleep 0.05; done; sleep 0.3
     echo "${only%%:*}: running: $(pgrep -f "${only#*:}" | wc -l) processes"
     kill -INT $pid; wait $pid; echo "${only%%:*}: exit $? after SIGINT; left running: $(leftovers)")
  done
  echo "== bad input"
  "${J[@]}" cpu --trace --pid 999999999 --seconds 1; echo "exit $?"
  "${J[@]}" cpu --launches 5; echo "exit $?"
  echo "== hostside report (Modules 1 to 3; its JSON holds cpu's)"
  s=$(date +%s%N); "${J[@]}" report --out "$out" --name h200; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  echo "== processes left behind (python, strace, hogs)"
  leftovers
} > "$out/device-cpu.log" 2>&1
cat "$out/device-cpu.log"
