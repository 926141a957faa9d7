#!/usr/bin/env bash
# Issue 17: the report's copies and warm reads beside the same cases alone, interleaved (alone,
# report, alone, report, ..., alone), ROUNDS reports (default 3), with each report's wall time and
# peak RSS (GNU time, .peers/bin/gnutime or /usr/bin/time). Alone is `machine --only` the four
# copies then `io --only` the two warm reads (the memcpy-bound figures: the page cache's bytes
# copied out, as the pageable copies copy the user's bytes into the driver's staging). Prints per
# figure the alone runs, the reports, and each report over the mean of the alone runs beside it.
#   bench/issue17-report-interleaved.sh OUTDIR [ROUNDS]
set -uo pipefail
out=${1:?usage: bench/issue17-report-interleaved.sh OUTDIR [ROUNDS]}; rounds=${2:-3}
. "$(dirname "$0")/lib.sh"
bench_java
out=$(bench_out "$out")
gtime=$(bench_peer gnutime 2>/dev/null || command -v /usr/bin/time)
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
warm=seq_read_warm_qd1,rand_read_warm_qd1
alone() {
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --only "$copies" --json >"$out/alone-$1.json" 2>"$out/alone-$1.err"
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io --only "$warm" --sample-ms 500 --dir /var/tmp --size 2G --json >"$out/io-alone-$1.json" 2>"$out/io-alone-$1.err"
}
alone 0
for r in $(seq 1 "$rounds"); do
  $gtime -v "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" report --out "$out/report-$r" --name h >/dev/null 2>"$out/report-$r.err"
  rm -f "$out/report-$r/h.md" "$out/report-$r/h.html"
  alone "$r"
done
python3 - "$out" "$rounds" "$copies,$warm" <<'PY'
import json, re, sys
out, rounds, keys = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
def figs(*paths):
    got = {}
    for p in paths:
        try: d = json.load(open(p))
        except Exception: continue
        got.update({f["key"]: f["value"] for f in d.get("figures", []) if f["scope"].split(":")[0] in ("gpu", "dir")})
    return got
alone = [figs(f"{out}/alone-{i}.json", f"{out}/io-alone-{i}.json") for i in range(rounds + 1)]
reps = [figs(f"{out}/report-{r}/h.json") for r in range(1, rounds + 1)]
print("| figure | alone runs | reports | each report / mean of the alone runs beside it |\n|---|---|---|---|")
for k in keys:
    fmt = lambda v: f"{v:,.0f}" if v > 1000 else f"{v:.2f}"
    a = " ".join(fmt(x.get(k, float('nan'))) for x in alone)
    rp = " ".join(fmt(x.get(k, float('nan'))) for x in reps)
    ratios = []
    for r, x in enumerate(reps):
        side = [alone[r].get(k), alone[r + 1].get(k)]
        if x.get(k) and all(side): ratios.append(f"{x[k] / (sum(side) / 2):.3f}")
    print(f"| {k} | {a} | {rp} | {' '.join(ratios)} |")
for r in range(1, rounds + 1):
    t = open(f"{out}/report-{r}.err").read()
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", t); rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    io_end = [l for l in t.replace("\r", "\n").split("\n") if "write_fsync: ok" in l]
    print(f"report {r}: wall {wall.group(1) if wall else '?'}, peak RSS {int(rss.group(1)) / 1048576:.2f} GiB" if rss else f"report {r}: no GNU time output",
          "|", io_end[-1].split("(")[-1].rstrip(")") if io_end else "")
PY
