#!/usr/bin/env bash
# Issue 17: is the report's lower pageable host-to-device copy the report's doing or the machine
# drill's? Interleaved ROUNDS (default 3) times: `hostside machine` in full (the very case list the
# report's Module 1 runs, bidirectional and pin costs included) and `machine --only` the four copy
# cases (what bench/device-issue17-report.sh compares the report with), and the four with the
# bidirectional case that runs between them in the drill's order, then their pageable figures.
#   bench/issue17-pageable-order.sh OUTDIR [ROUNDS]
set -uo pipefail
out=${1:?usage: bench/issue17-pageable-order.sh OUTDIR [ROUNDS]}; rounds=${2:-3}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_java
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
for r in $(seq 1 "$rounds"); do
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --json >"$out/r$r-full.json" 2>"$out/r$r-full.err"
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --only "$copies" --json >"$out/r$r-only.json" 2>"$out/r$r-only.err"
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --only "$copies,bidirectional_ce_pinned" --json >"$out/r$r-bidi.json" 2>"$out/r$r-bidi.err"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
keys = ("host_to_device_ce_pageable", "device_to_host_ce_pageable", "host_to_device_ce_pinned")
rows = {}
for r in range(1, rounds + 1):
    for v in ("full", "only", "bidi"):
        try: d = json.load(open(f"{out}/r{r}-{v}.json"))
        except Exception: continue
        for f in d.get("figures", []):
            if f["key"] in keys and f["scope"].startswith("gpu:"):
                rows.setdefault((f["key"], v), []).append(f["value"])
print("| figure | machine in full, rounds | --only the copies | the copies and bidirectional | full / only | bidi / only |\n|---|---|---|---|---:|---:|")
for k in keys:
    a, b, c = (rows.get((k, v), []) for v in ("full", "only", "bidi"))
    ratio = lambda x, y: f"{statistics.median(x) / statistics.median(y):.3f}" if x and y else "-"
    cells = lambda x: " ".join(f"{v:.2f}" for v in x)
    print(f"| {k} | {cells(a)} | {cells(b)} | {cells(c)} | {ratio(a, b)} | {ratio(c, b)} |")
PY
