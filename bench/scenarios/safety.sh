#!/usr/bin/env bash
# The safety promises of README's "What hostside does to your machine" on the GPU VM, as root, from
# a bundle (one device call, about 3 min):
#  1. live reads beneath "/" (openat2 on that kernel): machine --no-measure, its facts beside the
#     kernel's own (nproc, the GPU's PCI link from sysfs);
#  2. report --quick under GNU time, the GPU path included (the quick set took 27 s on the H100 VM on
#     2026-12-05), its three files as one set;
#  3. outputs refused: snapshot -o /dev/null, -o /dev/stdout, a report name that is a FIFO; /dev/null
#     stat'ed before and after;
#  4. a snapshot of this machine read back with --root;
#  5. the launcher under ulimit -v (1 GiB: facts; 4 GiB and unlimited: the GPU copy case), and below
#     its floor;
#  6. a recording folder whose /proc/cpuinfo is a FIFO with a writer waiting in its open, and whose
#     /proc/meminfo is a character device: machine --root reads neither (the writer still waits).
#   HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz bench/run safety   (bench/README.md)
# Carry the folder holding the bundle. Writes into $OUT (bench/run sets it); its summary to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-/tmp}; work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# hostside as bench/run gives it: $HOSTSIDE, the launcher of $BUNDLE unpacked, or ./hostside
read -r -a hs <<<"${HOSTSIDE:?run it through bench/run, which sets HOSTSIDE}"
gnutime=$(command -v time 2>/dev/null); [[ -x /usr/bin/time ]] && gnutime=/usr/bin/time
echo "== $(hostname), kernel $(uname -r), $(nproc) CPUs, $(id -un), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
"${hs[@]}" --version
nvidia-smi --query-gpu=name,pci.bus_id,driver_version --format=csv,noheader 2>&1 | head -2

echo "== 1. machine --json --no-measure (live reads)"
"${hs[@]}" machine --json --no-measure >"$out/machine.json" 2>"$out/machine.err"; echo "exit $?"
python3 - "$out/machine.json" <<'PY'
import json, sys, os, glob
j = json.load(open(sys.argv[1]))
t = j["topology"]
print("threads", t["threads"], "(nproc %d)" % os.cpu_count(), "numa", len(t["numaNodes"]), "caches", len(t["caches"]))
for d in j["pci"]:
    if d["kind"] == "gpu":
        base = "/sys/bus/pci/devices/" + d["address"]
        k = open(base + "/current_link_speed").read().split()[0], open(base + "/current_link_width").read().strip()
        print("gpu", d["address"], "link", d["link"], "sysfs", k)
PY

echo "== 2. report --quick"
[[ -x /usr/bin/time ]] && t=(/usr/bin/time -v) || t=()
"${t[@]}" "${hs[@]}" report --quick --out "$out/r" --name gpuvm >"$out/quick.out" 2>"$out/quick.err"; echo "exit $?"
grep -E "Elapsed|Maximum resident" "$out/quick.err"; ls -l "$out/r"
grep -m3 -E "host_to_device_ce_pinned|launch" "$out/r/gpuvm.md"

echo "== 3. outputs refused as root"
stat -c '%n: %F %t:%T' /dev/null
"${hs[@]}" snapshot -o /dev/null; echo "exit $?"
"${hs[@]}" snapshot -o /dev/stdout; echo "exit $?"
stat -c '%n: %F %t:%T' /dev/null
mkdir -p "$work/o" && mkfifo "$work/o/gpuvm.html"
timeout 60 "${hs[@]}" report --from "$out/r/gpuvm.json" --out "$work/o" --name gpuvm; echo "exit $?"; ls "$work/o"

echo "== 4. snapshot, read back"
"${hs[@]}" snapshot -o "$out/box.tar.gz"; echo "exit $?"
"${hs[@]}" machine --root "$out/box.tar.gz" --json >"$out/root.json"; echo "exit $?"
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); print('topology and pci equal live:', a['topology']==b['topology'] and a['pci']==b['pci'])" "$out/machine.json" "$out/root.json"

echo "== 5. under ulimit -v"
(ulimit -v 1048576; "${hs[@]}" machine --json --no-measure >/dev/null; echo "1 GiB, facts: exit $?")
(ulimit -v 400000; "${hs[@]}" machine --json --no-measure >/dev/null; echo "390 MiB, facts: exit $?")
for lim in 4194304 unlimited; do
  (ulimit -v "$lim"; "${hs[@]}" machine --json --only host_to_device_ce_pinned >"$out/copy-$lim.json" 2>"$out/copy-$lim.err"; echo "ulimit -v $lim, host_to_device_ce_pinned: exit $?")
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print([ (f['key'], round(f['value'],1), f['unit']) for f in j['figures'] if f['key']=='host_to_device_ce_pinned'])" "$out/copy-$lim.json" 2>&1 | tail -1
  grep -m2 -iE "not run|cuda|hostside:" "$out/copy-$lim.err"
done

echo "== 6. FIFOs and devices in a recording are never opened"
rec=$work/rec; mkdir -p "$rec" && tar xzf "$out/box.tar.gz" --warning=no-unknown-keyword -C "$rec" && top=$(ls "$rec") && rec=$rec/$top
rm -f "$rec/proc/cpuinfo" "$rec/proc/meminfo" && mkfifo "$rec/proc/cpuinfo" && mknod "$rec/proc/meminfo" c 1 3
( echo hello > "$rec/proc/cpuinfo" ) & writer=$!
sleep 1
"${hs[@]}" machine --root "$rec" --json >"$out/fifo.json" 2>"$out/fifo.err"; echo "machine --root with a FIFO and a device: exit $?"
sleep 1
if kill -0 "$writer" 2>/dev/null; then echo "the writer still waits in its open: the FIFO was never opened"; else echo "the writer returned: the FIFO was opened"; fi
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); t=j['topology']; print('threads', t['threads'], 'numa nodes', len(t['numaNodes']), 'memTotalBytes', [n.get('memTotalBytes') for n in t['numaNodes']])" "$out/fifo.json" 2>&1 | tail -1
timeout 5 cat "$rec/proc/cpuinfo" >/dev/null; wait "$writer" 2>/dev/null

ls "$PWD" | grep -c hs_err || true
