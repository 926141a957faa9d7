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
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_java
io() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io "$@" --sample-ms 500 --dir "$dir" --size 2G --json; }
for r in $(seq 1 "$rounds"); do
  io --only seq_read_warm_qd1,rand_read_warm_qd1 >"$out/r$r-only.json" 2>"$out/r$r-only.err"
  io >"$out/r$r-full.json" 2>"$out/r$r-full.err"
  io --only rand_read_cold_qd1,rand_read_warm_qd1 >"$out/r$r-cold.json" 2>"$out/r$r-cold.err"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
names = {"only": "the warm cases only", "full": "io in full", "cold": "after rand_read_cold"}
print("| run | seq_read_warm_qd1 (GB/s), rounds | rand_read_warm_qd1 (IOPS), rounds | rand warm / warm only (medians) |\n|---|---|---|---:|")
got = {}
for v in names:
    for r in range(1, rounds + 1):
        try: d = json.load(open(f"{out}/r{r}-{v}.json"))
        except Exception: continue
        for f in d.get("figures", []):
            if f["key"] in ("seq_read_warm_qd1", "rand_read_warm_qd1"): got.setdefault((v, f["key"]), []).append(f["value"])
base = got.get(("only", "rand_read_warm_qd1"))
for v, name in names.items():
    s, rr = got.get((v, "seq_read_warm_qd1"), []), got.get((v, "rand_read_warm_qd1"), [])
    ratio = f"{statistics.median(rr) / statistics.median(base):.2f}" if rr and base else "-"
    print(f"| {name} | {' '.join(f'{x:.2f}' for x in s) or '-'} | {' '.join(f'{x:,.0f}' for x in rr)} | {ratio} |")
PY
