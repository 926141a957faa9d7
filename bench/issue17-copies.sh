#!/usr/bin/env bash
# Issue 17: hostside's host<->device copies beside their peers, interleaved in one run, three rounds:
# nvbandwidth's host_to_device_memcpy_ce / device_to_host_memcpy_ce for the pinned copies, PyTorch's
# copy_ (torch_copies.py, wall clock around 10 copies, 256 MiB) for the pageable ones.
#   bash bench/issue17-copies.sh OUTDIR
# Peers from .peers/ (a copy of shared/tools/peers in the checkout) or ../shared/tools/peers; the
# jar run by .jre/bin/java when there is one. Prints "| figure | hostside | peer | ratio |" rows.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
P=.peers; [[ -d $P ]] || P=../shared/tools/peers
JAVA=.jre/bin/java; [[ -x $JAVA ]] || JAVA=${JAVA_HOME:?}/bin/java
hs() { $JAVA --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
nvb() { "$P/bin/nvbandwidth" "$@" 2>/dev/null || "$P/lib/glibc/ld-linux-x86-64.so.2" --library-path "$P/lib/glibc:$P/lib:/usr/local/nvidia/lib64" "$P/bin/nvbandwidth" "$@"; }
if ! nvidia-smi -L >/dev/null 2>&1; then echo "not run: no NVIDIA GPU here"; exit 0; fi
keys=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
for r in 1 2 3; do
  nvb -t host_to_device_memcpy_ce device_to_host_memcpy_ce >"$out/nvb-$r.txt" 2>&1
  hs machine --only $keys --json >"$out/hs-$r.json" 2>"$out/hs-$r.err"
  python3 "$P/src/torch_copies.py" >"$out/torch-$r.json" 2>"$out/torch-$r.err"
  hs machine --only $keys --json >"$out/hs-$r-b.json" 2>>"$out/hs-$r.err"
done
python3 - "$out" <<'PY'
import glob, json, re, statistics, sys
out = sys.argv[1]
hs = {}
for f in sorted(glob.glob(out + "/hs-*.json")):
    for x in json.load(open(f)).get("figures", []):
        hs.setdefault(x["key"], []).append(x["value"])
peer = {}
for f in sorted(glob.glob(out + "/nvb-*.txt")):
    t = open(f).read()
    for case, key in (("host_to_device_memcpy_ce", "host_to_device_ce_pinned"), ("device_to_host_memcpy_ce", "device_to_host_ce_pinned")):
        m = re.search(r"SUM " + case + r"\s+([0-9.]+)", t)
        if m: peer.setdefault(key, []).append(float(m.group(1)))
for f in sorted(glob.glob(out + "/torch-*.json")):
    try: d = json.loads(open(f).read().strip().splitlines()[-1])
    except Exception: continue
    peer.setdefault("host_to_device_ce_pageable", []).append(d["h2d_pageable"]["wall_median"])
    peer.setdefault("device_to_host_ce_pageable", []).append(d["d2h_pageable"]["wall_median"])
print("| figure | hostside GB/s (median of rounds, min-max) | peer GB/s | ratio | peer |")
print("|---|---|---|---|---|")
names = {"host_to_device_ce_pinned": "nvbandwidth", "device_to_host_ce_pinned": "nvbandwidth",
         "host_to_device_ce_pageable": "PyTorch copy_", "device_to_host_ce_pageable": "PyTorch copy_"}
for k in names:
    h, p = hs.get(k, []), peer.get(k, [])
    if not h or not p:
        print(f"| {k} | {'-' if not h else round(statistics.median(h), 2)} | {'-' if not p else round(statistics.median(p), 2)} | - | {names[k]} |"); continue
    hm, pm = statistics.median(h), statistics.median(p)
    print(f"| {k} | {hm:.2f} ({min(h):.2f}-{max(h):.2f}, {len(h)} runs) | {pm:.2f} ({min(p):.2f}-{max(p):.2f}, {len(p)} runs) | {hm/pm:.3f} | {names[k]} |")
PY
