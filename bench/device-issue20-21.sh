#!/usr/bin/env bash
# Issues 20 and 21 on the H200 VM, one device call (about 4 min): report --quick twice under GNU
# time (issue 21: under 30 s on a GPU machine), then the full report once (issue 20: page one of
# the H200's report with today's code), then compare of the three. Outputs under $OUT/issue20-21.
#   PEERS=$PWD/.peers18 bash bench/device-issue20-21.sh
# Carry .jre, the peers folder (bin/gnutime) and target/hostside.jar.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/issue20-21; mkdir -p "$res"
gnutime=${PEERS:-.peers}/bin/gnutime
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED -jar target/hostside.jar)
echo "== on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for i in 1 2; do
  echo "== report --quick $i $(date -u +%T)"
  "$gnutime" -v "${java[@]}" report --quick --out "$res" --name "h200-quick$i" >"$res/quick$i.out" 2>"$res/quick$i.err"
  echo "exit $?"; grep -E "Elapsed|Maximum resident" "$res/quick$i.err"
done
echo "== report (full) $(date -u +%T)"
"$gnutime" -v "${java[@]}" report --out "$res" --name h200 >"$res/full.out" 2>"$res/full.err"
echo "exit $?"; grep -E "Elapsed|Maximum resident" "$res/full.err"
"${java[@]}" compare "$res/h200.json" "$res/h200-quick1.json" "$res/h200-quick2.json" >"$res/compare.txt" 2>&1; echo "compare exit $?"
sed -n 1,12p "$res/compare.txt"
awk '/## The machine.s class/{print "page one: " NR-1 " lines"; exit}' "$res/h200.md"
sed -n 1,60p "$res/h200.md"
