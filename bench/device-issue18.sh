#!/usr/bin/env bash
# Issue 18 on the H200 VM, one device call (about 7 min): hostside's memory figures beside STREAM
# and bench/c/memref.c, three interleaved rounds (bench/memory-vs-peers.sh), then `machine` and
# `report` as a user runs them, each under GNU time (wall, peak RSS), their text and stderr kept.
#   PEERS=$PWD/.peers18 bash bench/device-issue18.sh     (on the device, from the checkout; $OUT set by it)
# Needs .jre/, a peers folder with bin/stream and bin/gnutime (PEERS, default .peers) and
# target/hostside.jar. The device takes 64 MiB with the tracked files, so carry
# [".jre.tar.xz", ".peers18", "target/hostside.jar"]: .jre as one archive (tar -cJf .jre.tar.xz .jre,
# 23 MB instead of 45-50; the command starts with `tar -xJf .jre.tar.xz &&`) and a peers folder of
# just those two binaries (mkdir -p .peers18/bin; cp them from ../shared/tools/peers/bin), both
# ignored. gcc on the device builds memref. Everything it writes goes into one tarball under $OUT,
# its tables to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/issue18; mkdir -p "$res"
echo "== issue 18 on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
# memref's chase and read run at hostside's own sizes: memory-vs-peers.sh reads them off a hostside run
PEERS=${PEERS:-$PWD/.peers} bash bench/memory-vs-peers.sh "$res/peers" "${ROUNDS:-3}" 2>"$res/peers.err" | tail -n 30
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions
      -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0 -jar target/hostside.jar)
echo "== machine $(date -u +%T)"
"${PEERS:-.peers}"/bin/gnutime -v "${java[@]}" machine >"$res/machine.txt" 2>"$res/machine.err"
grep -E "Elapsed|Maximum resident" "$res/machine.err"
sed -n '/^Memory bandwidth/,/^GPUs and copies/p' "$res/machine.txt" | head -30
grep -A40 '^Findings' "$res/machine.txt" | head -30
echo "== report $(date -u +%T)"
"${PEERS:-.peers}"/bin/gnutime -v "${java[@]}" report --out "$res/report" >"$res/report.out" 2>"$res/report.err"
grep -E "Elapsed|Maximum resident" "$res/report.err"
grep -E "ok in|drill [0-9]" "$res/report.err" | sed -n '1,20p'
tar -czf "${OUT:-/tmp}/issue18.tar.gz" -C "${OUT:-/tmp}" issue18 && rm -rf "$res"
echo "== done $(date -u +%T)"
