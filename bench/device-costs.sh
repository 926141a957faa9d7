#!/usr/bin/env bash
# What each command costs on this machine: wall time and peak RSS (GNU time -v), and the peak
# disk its test files take in /var/tmp (sampled every 0.2 s). For the README's cost table.
#   bash bench/device-costs.sh OUTDIR      (needs .jre/ and target/hostside.jar, or java on PATH)
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
if [[ -x .jre/bin/java ]]; then java=.jre/bin/java; else java=$(command -v java); fi
timer=${TIMER:-$(command -v gtime || echo /usr/bin/time)}  # TIMER=.peers/bin/gnutime where GNU time is not installed
peakdisk() {  # prints the largest total size of hostside's files in /var/tmp and /tmp while $1 lives
  local pid=$1 max=0 now
  while kill -0 "$pid" 2>/dev/null; do
    now=$(du -scb /var/tmp/hostside-* /tmp/hostside-* 2>/dev/null | awk 'END {printf "%.0f", $1+0}')
    ((now > max)) && max=$now
    sleep 0.2
  done
  echo "$max"
}
printf '%-10s %10s %12s %14s %s\n' command wall_s peak_rss_MiB peak_disk_MiB exit | tee "$out/costs.txt"
run() {
  local name=$1; shift
  "$timer" -v -o "$out/time-$name.txt" "$java" --enable-native-access=ALL-UNNAMED -jar target/hostside.jar "$@" >"$out/$name.out" 2>"$out/$name.err" &
  local pid=$!
  local disk; disk=$(peakdisk $pid)
  wait $pid; local rc=$?
  local wall rss
  wall=$(awk -F': ' '/Elapsed/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$out/time-$name.txt")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}' "$out/time-$name.txt")
  printf '%-10s %10s %12s %14.0f %s\n' "$name" "$wall" "$rss" "$((disk / 1048576))" "$rc" | tee -a "$out/costs.txt"
}
run machine machine
run vm vm
run cpu cpu
run io io
run container container
run rack rack
run snapshot snapshot -o "$out/snap.tar.gz"
run report report --out "$out/report"
rm -f "$out/snap.tar.gz"
