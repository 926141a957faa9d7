#!/usr/bin/env bash
# Issue 17: is the report's lower pageable host-to-device copy the report's doing or the machine
# drill's? Interleaved ROUNDS (default 3) times: `machine --only` the four copy cases (what
# bench/device-issue17-report.sh compares the report with), `hostside machine` in full (the very
# case list the report's Module 1 runs, bidirectional and pin costs included), and the four with
# the bidirectional case that runs between them in the drill's order; then their figures.
#   bench/issue17-pageable-order.sh OUTDIR [ROUNDS]
set -uo pipefail
out=${1:?usage: bench/issue17-pageable-order.sh OUTDIR [ROUNDS]}; rounds=${2:-3}
. "$(dirname "$0")/lib.sh"
bench_java
out=$(bench_out "$out")
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
machine() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine "$@" --json; }
for r in $(seq 1 "$rounds"); do
  machine --only "$copies" >"$out/r$r-only.json" 2>"$out/r$r-only.err"
  machine >"$out/r$r-full.json" 2>"$out/r$r-full.err"
  machine --only "$copies,bidirectional_ce_pinned" >"$out/r$r-bidi.json" 2>"$out/r$r-bidi.err"
done
python3 "$bench_root/bench/variants-table.py" "$out" "$rounds" host_to_device_ce_pageable,device_to_host_ce_pageable,host_to_device_ce_pinned \
  "only=--only the copies" "full=machine in full" "bidi=the copies and bidirectional"
