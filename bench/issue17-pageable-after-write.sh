#!/usr/bin/env bash
# Issue 17: the report's pageable host-to-device copy came below the same case alone in three of
# three H200 calls, and in each it ran seconds after a big write (io alone, or fio laying out its
# file, just before the report). Does a write just before lower the pageable copy? ROUNDS (default
# 3) interleaved: `machine --only` the copies after an idle pause, after writing 2 GiB with fsync
# (the host is left flushing what the guest wrote), and after writing 2 GiB without fsync.
#   bench/issue17-pageable-after-write.sh OUTDIR [ROUNDS] [DIR]
set -uo pipefail
out=${1:?usage: bench/issue17-pageable-after-write.sh OUTDIR [ROUNDS] [DIR]}; rounds=${2:-3}; dir=${3:-/var/tmp}
. "$(dirname "$0")/lib.sh"
bench_java
out=$(bench_out "$out")
f=$dir/issue17-pageable-write-$$.dat
bench_remove_on_exit "$f"
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
run() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --only "$copies" --json >"$out/r$1-$2.json" 2>"$out/r$1-$2.err"; }
for r in $(seq 1 "$rounds"); do
  sleep 3; run "$r" idle
  dd if=/dev/urandom of="$f" bs=1M count=2048 conv=fsync status=none; rm -f "$f"; run "$r" fsync
  sleep 3
  dd if=/dev/urandom of="$f" bs=1M count=2048 status=none; rm -f "$f"; run "$r" nofsync
done
python3 "$bench_root/bench/variants-table.py" "$out" "$rounds" host_to_device_ce_pageable,device_to_host_ce_pageable,host_to_device_ce_pinned \
  "idle=after an idle pause" "fsync=after 2 GiB written with fsync" "nofsync=after 2 GiB written, no fsync"
