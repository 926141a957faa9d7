#!/usr/bin/env bash
# Issue 17 on the H200 VM: what the report costs (time per drill and per case, peak RSS and who
# holds it) and whether its copies and io figures equal the same cases run alone (copies alone and
# PyTorch's before and after; `hostside io` alone before and after, IO=0 to leave it out; fio's
# random warm and QD32 jobs right before and right after the report, FIO=0 to leave them out: a
# figure lower inside the report while fio's equal on both sides of it is the report's doing, not
# the machine's drift).
#   bash bench/device-issue17-report.sh OUTDIR
# Everything printed is kept in OUTDIR/summary.txt too (a device call brings back only its tail).
# Needs .jre/, target/hostside.jar, .peers/bin/gnutime and .peers/src/torch_copies.py.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
exec > >(tee "$out/summary.txt") 2>&1
io_keys=seq_read_cold_qd1,seq_read_warm_qd1,seq_read_direct_qd1,seq_read_direct_uring_qd32,rand_read_cold_qd1,rand_read_warm_qd1,rand_read_direct_qd1,rand_read_direct_uring_qd1,rand_read_direct_uring_qd32,write_buffered,write_fsync
JAVA=.jre/bin/java; [[ -x $JAVA ]] || JAVA=${JAVA_HOME:?}/bin/java
hs() { $JAVA --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
copies=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
fig() { python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); tag = sys.argv[2]
for f in d.get("figures", []):
    if f["key"] in sys.argv[3].split(","):
        print(f"  {tag:10s} {f['key']:28s} {f['value']:7.2f} GB/s (min {f['min']:.2f}, max {f['max']:.2f}, n {f['samples']})")
PY
}
# fio's two jobs whose figures came lower inside the report on 2026-12-04, on a 2 GiB file of its own,
# laid out as bench/issue17-io.sh lays it and, for the warm job, read once first (so that it is warm)
. bench/lib.sh
fio_file=/var/tmp/issue17-report-fio-$$.dat
bench_remove_on_exit "$fio_file"
fio_pair() {  # TAG
  [[ ${FIO:-1} == 1 ]] || return 0
  fio=$(bench_peer fio) || return 0
  local k
  bench_layout "$fio_file"
  cat "$fio_file" > /dev/null
  for k in "rand_read_warm_qd1 --direct=0 --invalidate=0 --fadvise_hint=0 --iomem_align=4096 --ioengine=psync --iodepth=1" \
           "rand_read_direct_uring_qd32 --direct=1 --invalidate=0 --ioengine=io_uring --iodepth=32"; do
    set -- $k
    "$fio" --name=$1 --filename="$fio_file" --size=2147483648 --rw=randread --bs=4k --time_based --runtime=5 "${@:2}" \
      --output-format=json >"$out/fio-$1-$TAG.json" 2>/dev/null
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]["read"]; print("  fio-%-6s %-28s %11.0f IOPS" % (sys.argv[2], sys.argv[3], j["iops"]))' \
      "$out/fio-$1-$TAG.json" "$TAG" "$1" || echo "  fio $1 $TAG: no result"
  done
  rm -f "$fio_file"
}
torch() { python3 .peers/src/torch_copies.py 2>/dev/null | tee "$out/torch${1// /}.json" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
for k in ("h2d_pinned", "d2h_pinned", "h2d_pageable", "d2h_pageable"):
    w, e = d[k]["wall_median"], d[k]["events_median"]
    print("  torch%-5s %-28s %7.2f GB/s wall, %.2f events" % (sys.argv[1], k, w, e))' "$1"; }

echo "== machine: $(nproc) cores, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== copies alone, PyTorch, then the report, then alone and PyTorch again"
hs machine --only $copies --json >"$out/alone-1.json" 2>/dev/null; fig "$out/alone-1.json" alone-1 $copies
torch " -1"
[[ ${IO:-1} == 1 ]] && hs io --dir /var/tmp --size 2G --json >"$out/io-alone-1.json" 2>"$out/io-alone-1.err"
TAG=before fio_pair
( .peers/bin/gnutime -v $JAVA --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar report --out "$out/report" --name h200 \
    >/dev/null 2>"$out/report.err" ) &
wrapper=$!
sleep 1
jpid=$(pgrep -f 'hostside.jar report --out' | while read p; do [[ $(cat /proc/$p/comm) == java ]] && echo $p; done | head -1)
while kill -0 $wrapper 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print int($2/1024)}' /proc/$jpid/status 2>/dev/null)
  at=$(tr '\r' '\n' <"$out/report.err" | grep -o 'drill [0-9] of 5: [a-z]*\|\[[a-z]* [0-9]/5\] [0-9]*/[0-9]* [a-z_0-9]*' | tail -1)
  echo "${rss:-0} $at"
  sleep 1
done >"$out/rss.txt"
wait $wrapper
TAG=after fio_pair
fig "$out/report/h200.json" report $copies
hs machine --only $copies --json >"$out/alone-2.json" 2>/dev/null; fig "$out/alone-2.json" alone-2 $copies
torch " -2"
hs machine --only $copies --json >"$out/alone-3.json" 2>/dev/null; fig "$out/alone-3.json" alone-3 $copies
torch " -3"
if [[ ${IO:-1} == 1 ]]; then
  hs io --dir /var/tmp --size 2G --json >"$out/io-alone-2.json" 2>"$out/io-alone-2.err"
  echo "== io alone, inside the report, alone again (median, and the O_DIRECT buffers' pieces)"
  python3 - "$out" "$io_keys" <<'PY'
import json, sys
out, keys = sys.argv[1], sys.argv[2].split(",")
def figs(path):
    try: d = json.load(open(path))
    except Exception: return {}
    got = {f["key"]: f["value"] for f in d.get("figures", [])}
    pieces = {}
    def walk(o):
        if isinstance(o, dict):
            if o.get("key") in keys and isinstance(o.get("detail"), dict) and o["detail"].get("bufferPieces") is not None:
                pieces[o["key"]] = o["detail"]["bufferPieces"]
            for v in o.values(): walk(v)
        elif isinstance(o, list):
            for v in o: walk(v)
    walk(d)
    return {k: (got.get(k), pieces.get(k)) for k in keys}
a1, rp, a2 = figs(f"{out}/io-alone-1.json"), figs(f"{out}/report/h200.json"), figs(f"{out}/io-alone-2.json")
def cell(v): return "-" if not v or v[0] is None else (f"{v[0]:,.0f}" if v[0] > 1000 else f"{v[0]:.2f}") + (f" ({v[1]:.0f} pieces)" if v[1] else "")
print("| figure | alone before | inside report | alone after | report / mean of alone |\n|---|---:|---:|---:|---:|")
for k in keys:
    x = [v[k][0] for v in (a1, a2) if v.get(k) and v[k][0]]
    r = rp.get(k, (None, None))[0]
    print(f"| {k} | {cell(a1.get(k))} | {cell(rp.get(k))} | {cell(a2.get(k))} | {r / (sum(x) / len(x)):.2f} |" if r and x else f"| {k} | {cell(a1.get(k))} | {cell(rp.get(k))} | {cell(a2.get(k))} | - |")
PY
fi
if [[ ${SPAWN:-1} == 1 ]]; then
  # where fork_vs_spawn_cuda's time goes (21 s of the report on 2026-12-04): each line of its script
  # with the seconds since start, and the run's wall time
  echo "== fork_vs_spawn.py alone, each event with seconds since start"
  python3 -c 'import zipfile,sys; sys.stdout.buffer.write(zipfile.ZipFile("target/hostside.jar").read("hostside/cpu/dataloader/fork_vs_spawn.py"))' >"$out/fork_vs_spawn.py"
  python3 - "$out/fork_vs_spawn.py" <<'PY' | tee "$out/spawn-timeline.txt"
import subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen([sys.executable, sys.argv[1], "--tries", "3", "--child-seconds", "60", "--max-seconds", "120"], stdout=subprocess.PIPE, text=True)
for line in p.stdout: print("  %6.2f s  %s" % (time.monotonic() - t0, line.strip()[:150]))
p.wait(); print("  %6.2f s  exit %d" % (time.monotonic() - t0, p.returncode))
PY
fi
echo "== the report: wall time and peak RSS (GNU time)"
grep -E 'Elapsed|Maximum resident|Percent of CPU' "$out/report.err" | sed 's/^\s*/  /'
echo "== peak RSS while in each case (MiB, sampled each second)"
awk '{k=$2" "$3" "$4" "$5; if ($1>m[k]) m[k]=$1; if (!(k in o)) {o[k]=++n; order[n]=k}} END {for (i=1;i<=n;i++) printf "  %6d  %s\n", m[order[i]], order[i]}' "$out/rss.txt"
echo "== each case's time inside the report"
tr '\r' '\n' <"$out/report.err" | grep -E ': (ok|not run|failed).* in [0-9.]+ s' | sed -E 's/^hostside: //; s/^/  /'
rm -rf "$out/report/h200.html" "$out/report/h200.md"
