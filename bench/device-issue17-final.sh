#!/usr/bin/env bash
# Issue 17's final comparison on the H200 VM, in parts that each fit one 10-minute device call:
#   bash bench/device-issue17-final.sh PART        (on the device, from the checkout; $OUT set by it)
# PART: io-direct  the five O_DIRECT io figures beside fio, 3 rounds
#       io-cache   the cold, warm and write io figures beside fio, 3 rounds
#       jitter     the timer jitter beside refs timer, 3 rounds as ./hostside runs it (-XX:-UsePerfData was tried on 2026-12-03: no help; EXTRA_JAVA= tries a flag)
#       jitter-long the same, 5 rounds of 40,000 ticks (the missed ticks are a few stalls a run: more ticks, more of them)
#       uring      random 4 KiB O_DIRECT io_uring QD32: fio, fio with hostside's batching, fio with offsets drawn as hostside's, hostside, on one file
#       uring2     the same QD32 job: fio, hostside, and bench/uring-probe's two loops (hostside's, fio's) with the device's in-flight count and the thread's cost
#       threads    which JVM threads run while the timer loop records under refs hog (bench/issue17-threads.sh), 3 runs
#       sched      syscall and futex ping-pongs beside refs, 5 rounds
#       report     report time and peak RSS, its copies and io figures beside the same alone (bench/device-issue17-report.sh, about 6 min)
#       warm       the warm reads beside fio (seq and rand, 3 rounds), then whether they depend on the io cases before them (bench/issue17-warm-order.sh, 2 rounds)
#       costs      each command alone, wall time, peak RSS and test files (bench/device-costs.sh, the README's table)
# Needs .jre/, .peers/ and target/hostside.jar carried (uring2 also target/bench-classes). Everything it writes goes into one
# tarball under $OUT (the device tool brings back only a few files) and its tables to stdout.
set -uo pipefail
part=${1:?PART}
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/issue17-$part; mkdir -p "$res"
echo "== $part on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
case $part in
  io-direct) KEYS=seq_read_direct_qd1,seq_read_direct_uring_qd32,rand_read_direct_qd1,rand_read_direct_uring_qd1,rand_read_direct_uring_qd32 \
               bash bench/issue17-io.sh "$res" /var/tmp 2>&1 | tail -n 40 ;;
  io-cache)  KEYS=seq_read_cold_qd1,seq_read_warm_qd1,rand_read_cold_qd1,rand_read_warm_qd1,write_buffered,write_fsync \
               bash bench/issue17-io.sh "$res" /var/tmp 2>&1 | tail -n 40 ;;
  jitter)    bash bench/issue17-jitter.sh "$res" 3 2>&1 | grep -E '^\||^#' ;;
  jitter-long) TICKS=40000 bash bench/issue17-jitter.sh "$res" 5 2>&1 | grep -E '^\||^#' ;;
  uring)     bash bench/issue17-uring.sh "$res" /var/tmp 2>&1 | tail -n 12 ;;
  uring2)    bash bench/issue17-uring2.sh "$res" /var/tmp 2>&1 | tail -n 8 ;;
  threads)   bash bench/issue17-threads.sh "$res" 3 2>&1 | tail -n 30 ;;
  sched)     bash bench/issue17-sched.sh "$res" 5 2>&1 | grep -E '^\||^#' ;;
  warm)      KEYS=seq_read_warm_qd1,rand_read_warm_qd1 bash bench/issue17-io.sh "$res/fio" /var/tmp 2>&1 | tail -n 6
             bash bench/issue17-warm-order.sh "$res/order" 2 /var/tmp 2>&1 | tail -n 5 ;;
  costs)     TIMER=$PWD/.peers/bin/gnutime bash bench/device-costs.sh "$res" 2>&1 | tail -n 12
             grep -E "ok in|elapsed" "$res/report.err" | tail -n 60 ;;
  report)    bash bench/device-issue17-report.sh "$res" 2>&1 | tail -n 100 ;;
  *) echo "unknown part $part" >&2; exit 2 ;;
esac
tar -czf "${OUT:-/tmp}/issue17-$part.tar.gz" -C "${OUT:-/tmp}" "issue17-$part" && rm -rf "$res"
echo "== done $(date -u +%FT%TZ)"
