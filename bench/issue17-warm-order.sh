#!/usr/bin/env bash
# Issue 17: does a warm read's figure depend on the io cases before it? ROUNDS (default 3)
# interleaved runs of `io --only` the two warm cases, `io` in full, and `io --only
# rand_read_cold_qd1,rand_read_warm_qd1` (the order inside `report`), 500 ms samples as the
# report's, on DIR (default /var/tmp); then the warm figures of each. Before 5cf5321 the warm-up
# read the file in whatever folios the cache held, and rand_read_warm after rand_read_cold came
# 0.6-0.8 of it alone (2026-12-04-issue17-final.md, "Warm reads and what ran before").
#   bench/issue17-warm-order.sh OUTDIR [ROUNDS] [DIR]
set -uo pipefail
out=${1:?usage: bench/issue17-warm-order.sh OUTDIR [ROUNDS] [DIR]}; rounds=${2:-3}; dir=${3:-/var/tmp}
. "$(dirname "$0")/lib.sh"
bench_java
out=$(bench_out "$out")
io() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io "$@" --sample-ms 500 --dir "$dir" --size 2G --json; }
for r in $(seq 1 "$rounds"); do
  io --only seq_read_warm_qd1,rand_read_warm_qd1 >"$out/r$r-only.json" 2>"$out/r$r-only.err"
  io >"$out/r$r-full.json" 2>"$out/r$r-full.err"
  io --only rand_read_cold_qd1,rand_read_warm_qd1 >"$out/r$r-cold.json" 2>"$out/r$r-cold.err"
done
python3 "$bench_root/bench/variants-table.py" "$out" "$rounds" seq_read_warm_qd1,rand_read_warm_qd1 \
  "only=the warm cases only" "full=io in full" "cold=after rand_read_cold"
