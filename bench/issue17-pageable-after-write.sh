#!/usr/bin/env bash
# Issue 17: the report's pageable host-to-device copy came below the same case alone in three of
# three H200 calls, and in each it ran seconds after a big write (io alone, or fio laying out its
# file, just before the report). Does a write just before lower the pageable copy? ROUNDS (default
# 3) interleaved: `machine --only` the copies after an idle pause, after writing 2 GiB with fsync
# (the host is left flushing what the guest wrote), and after writing 2 GiB without fsync.
#   bench/issue17-pageable-after-write.sh OUTDIR [ROUNDS] [DIR]
set -uo pipefail
out=${1:?usage: bench/issue17-pageable-after-write.sh OUTDIR [ROUNDS] [DIR]}; rounds=${2:-3}; dir=${3:-/var/tmp}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_java
f=$dir/issue17-pageable-write-$$.dat
trap 'rm -f "$f"' EXIT
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
run() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --only "$copies" --json >"$out/r$1-$2.json" 2>"$out/r$1-$2.err"; }
for r in $(seq 1 "$rounds"); do
  sleep 3; run "$r" idle
  dd if=/dev/urandom of="$f" bs=1M count=2048 conv=fsync status=none; rm -f "$f"; run "$r" fsync
  sleep 3
  dd if=/dev/urandom of="$f" bs=1M count=2048 status=none; rm -f "$f"; run "$r" nofsync
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
keys = ("host_to_device_ce_pageable", "device_to_host_ce_pageable", "host_to_device_ce_pinned")
vs = ("idle", "fsync", "nofsync")
rows = {}
for r in range(1, rounds + 1):
    for v in vs:
        try: d = json.load(open(f"{out}/r{r}-{v}.json"))
        except Exception: continue
        for f in d.get("figures", []):
            if f["key"] in keys and f["scope"].startswith("gpu:"):
                rows.setdefault((f["key"], v), []).append(f["value"])
print("| figure | after an idle pause | after 2 GiB written with fsync | after 2 GiB written, no fsync | fsync / idle | no fsync / idle |\n|---|---|---|---|---:|---:|")
for k in keys:
    a, b, c = (rows.get((k, v), []) for v in vs)
    ratio = lambda x, y: f"{statistics.median(x) / statistics.median(y):.3f}" if x and y else "-"
    cells = lambda x: " ".join(f"{v:.2f}" for v in x)
    print(f"| {k} | {cells(a)} | {cells(b)} | {cells(c)} | {ratio(b, a)} | {ratio(c, a)} |")
PY
