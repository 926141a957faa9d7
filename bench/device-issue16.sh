#!/usr/bin/env bash
# Issue 16 on the H200 VM: the typed figures, the documents and the report's read-back, live.
#   bash bench/device-issue16.sh OUTDIR
# Needs .jre/ (bash ../shared/tools/device-jre.sh) and target/hostside.jar; with .peers/ (a copy
# of shared/tools/peers) nvbandwidth's host-to-device and device-to-host copies run interleaved
# with hostside's, three rounds.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
hs() { .jre/bin/java --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
t() { local s=$(date +%s%N); "$@"; local rc=$?; echo "  ($(( ($(date +%s%N) - s) / 1000000 )) ms, rc $rc)" >&2; return $rc; }
nvb() { local b=.peers/bin/nvbandwidth; "$b" "$@" 2>/dev/null || .peers/lib/glibc/ld-linux-x86-64.so.2 --library-path .peers/lib/glibc:.peers/lib:/usr/local/nvidia/lib64 "$b" "$@"; }

echo "== machine: $(nproc) cores, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== interleaved: nvbandwidth, then hostside's two pinned copies, three rounds"
for r in 1 2 3; do
  if [[ -x .peers/bin/nvbandwidth ]]; then nvb -t host_to_device_memcpy_ce device_to_host_memcpy_ce >"$out/nvb-$r.txt" 2>&1
    grep -E 'SUM (host_to_device|device_to_host)_memcpy_ce' "$out/nvb-$r.txt" | sed "s/^/  round $r nvbandwidth: /"; fi
  hs machine --only host_to_device_ce_pinned,device_to_host_ce_pinned --json >"$out/copies-$r.json" 2>"$out/copies-$r.err"
  python3 - "$out/copies-$r.json" "$r" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d.get("figures", []):
    print(f"  round {sys.argv[2]} hostside:    {f['key']:28s} {f['scope']:18s} {f['value']:.2f} {f['unit']} (min {f['min']:.2f}, max {f['max']:.2f}, n {f['samples']}) anchor: {f.get('anchor')}")
PY
done

echo "== machine and rack as text (the documents), live"
t hs machine >"$out/machine.txt" 2>"$out/machine.err"; tail -n 40 "$out/machine.txt"
t hs rack >"$out/rack.txt" 2>"$out/rack.err"; cat "$out/rack.txt"

echo "== report, live: .json, .md and .html"
t hs report --out "$out/report" --name h200 >"$out/report.log" 2>"$out/report.err"; cat "$out/report.log"; tail -n 3 "$out/report.err"
ls -la "$out/report"
python3 - "$out/report/h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("schema", d["schema"], "| class", json.dumps(d["class"]), "| software", json.dumps(d["software"]), "| confounders", json.dumps(d["confounders"]))
fs = d["figures"]
print(len(fs), "figures;", len({f["key"] for f in fs}), "keys; scopes:", sorted({f["scope"] for f in fs}))
bad = [f["key"] for f in fs if not (f["min"] <= f["value"] <= f["max"]) or f["samples"] < 1]
print("figures whose median is outside min..max or with no samples:", bad)
PY
echo "== report --from the JSON just written: the same page again"
t hs report --from "$out/report/h200.json" --out "$out/again" --name h200 >/dev/null 2>"$out/again.err"; cat "$out/again.err"
cmp "$out/report/h200.md" "$out/again/h200.md" && echo "  same Markdown" || echo "  Markdown differs"
cmp "$out/report/h200.html" "$out/again/h200.html" && echo "  same HTML" || echo "  HTML differs"
echo "== the hostside/1 report of 2026-12-03 drawn again"
t hs report --from testdata/reports/h200-hostside1.json --out "$out/v1" >/dev/null 2>"$out/v1.err"; cat "$out/v1.err"; ls "$out/v1"
echo "== start-up of machine --json --no-measure (facts, CUDA and NVML opened, nothing measured), 10 runs"
for i in $(seq 1 12); do s=$(date +%s%N); hs machine --json --no-measure >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); done | tail -n 10 | sort -n | awk '{t[NR]=$1} END {printf "  median %d ms, min %d, max %d\n", (t[5]+t[6])/2, t[1], t[NR]}'
