#!/usr/bin/env bash
# The rulebook on the GPU VM, from a bundle (one device call, about 3 min): what each drill
# concludes, by rule, on a quiet machine and on the same machine made busy.
#  1. hostside rules: how many rules, how many cite a primary source first;
#  2. machine (the GPU drill's copies and launches, host memory): its findings by rule ID;
#  3. report --quick on the quiet machine: page one, and the findings the report records;
#  4. report --quick with a hog on every CPU (yes > /dev/null): page one must say busy and put no fix
#     of a measured rule on it; the measured rules give unknown;
#  5. compare of the two: the findings counted by rule, the busy differences marked not fair.
#   HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz bench/run findings   (bench/README.md)
#  6. syscalls per CUDA launch, synchronize and copy; 7. pin_memory against RLIMIT_MEMLOCK;
#  8. the 60-second checklist on a running PyTorch job (a GPU loop fed by a DataLoader): its verdict by rule;
#  9. rack on a machine that is no superchip: its rows by rule;
# 10. the course from the quiet and the busy report: what the steppers say of busy figures, by rule.
# Carry the folder holding the bundle. Writes into $OUT (bench/run sets it); its summary to stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1   # the repository root: bench/cuda and the io drill's working folder are read from there
out=${OUT:-/tmp}; work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# hostside as bench/run gives it: $HOSTSIDE, the launcher of $BUNDLE unpacked, or ./hostside
read -r -a hs <<<"${HOSTSIDE:?run it through bench/run, which sets HOSTSIDE}"
echo "== $(hostname), kernel $(uname -r), $(nproc) CPUs, $(id -un), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
"${hs[@]}" --version
nvidia-smi --query-gpu=name,pci.bus_id,driver_version --format=csv,noheader 2>&1 | head -2

findings() { # the findings of a report's JSON, one line each: module, ID, severity, subject
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for f in j.get("findings", []):
    print("  M%d %-22s %-8s %s" % (f["module"], f["id"] or "(no rule)", f["severity"], f["subject"][:50]))
PY
}

echo "== 1. rules"
"${hs[@]}" rules --json >"$out/rules.json"; echo "exit $?"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r['rules']) if isinstance(r,dict) else len(r), 'rules')" "$out/rules.json"
"${hs[@]}" rules | head -n 3

echo "== 2. machine --json (the GPU drill and host memory)"
"${hs[@]}" machine --json >"$out/machine.json" 2>"$out/machine.err"; echo "exit $?"
python3 - "$out/machine.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for f in j.get("findings", []):
    print("  facts %-22s %-8s %s" % (f.get("id") or "(no rule)", f["severity"], f["text"][:90]))
for g in (j.get("gpu") or {}).get("runs", []):
    for f in g.get("verdicts", []):
        print("  %s %-22s %-8s %s" % (g["gpu"], f.get("id") or "(no rule)", f["severity"], f["text"][:90]))
PY

echo "== 3. report --quick, quiet"
"${hs[@]}" report --quick --out "$out/quiet" --name quiet >"$out/quiet.out" 2>"$out/quiet.err"; echo "exit $?"
sed -n '/## What to fix here/,/^## [^W]/p' "$out/quiet/quiet.md" | head -n 20
findings "$out/quiet/quiet.json"

echo "== 4. report --quick, a hog on every CPU"
pids=(); for _ in $(seq "$(nproc)"); do yes >/dev/null & pids+=($!); done
sleep 5
"${hs[@]}" report --quick --out "$out/busy" --name busy >"$out/busy.out" 2>"$out/busy.err"; echo "exit $?"
kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null
sed -n '/## What to fix here/,/^## [^W]/p' "$out/busy/busy.md" | head -n 20
findings "$out/busy/busy.json"

echo "== 5. compare quiet busy"
"${hs[@]}" compare "$out/quiet/quiet.json" "$out/busy/busy.json" >"$out/compare.md" 2>"$out/compare.err"; echo "exit $?"
sed -n '/Findings by rule/,/^## /p' "$out/compare.md" | head -n 30
grep -c "not fair" "$out/compare.md"

echo "== 6. syscalls per CUDA launch, synchronize and copy (ptrace count, bench/cuda/syscalls_per_launch.cu)"
if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nv" -O2 -o "$work/spl" bench/cuda/syscalls_per_launch.cu && "$work/spl" 10000 && "$work/spl" 10000 blocking && "$work/spl" 10000
else
  echo "no nvcc"
fi

echo "== 7. is pin_memory() charged to RLIMIT_MEMLOCK? (without CAP_IPC_LOCK, memlock 64 KiB)"
# Root holds CAP_IPC_LOCK, which lifts the limit: drop it from the bounding set so that the python
# exec'd below has it in neither its permitted nor its effective set, then lower the limit.
pin='import torch, ctypes
print("CapEff", [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0], "memlock", open("/proc/self/limits").read().split("Max locked memory")[1].split()[0:2])
t = torch.empty(256 << 20, dtype=torch.uint8).pin_memory(); print("pin_memory 256 MiB:", t.is_pinned())
libc = ctypes.CDLL(None, use_errno=True); buf = ctypes.create_string_buffer(1 << 20)
print("mlock 1 MiB:", libc.mlock(buf, 1 << 20), "errno", ctypes.get_errno())'
if command -v setpriv >/dev/null; then
  bash -c "ulimit -l 64; exec setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock python3 -c '$pin'" 2>&1 | tail -n 4
else
  echo "no setpriv"
fi

echo "== 8. checklist of a running PyTorch job (GPU loop fed by 4 DataLoader workers), 10 s"
job='import torch, time
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.randn(20000, 1024)); dl = DataLoader(ds, batch_size=256, num_workers=4, pin_memory=True, persistent_workers=True)
w = torch.randn(1024, 1024, device="cuda"); t0 = time.time()
while time.time() - t0 < 40:
    for (x,) in dl: (x.cuda(non_blocking=True) @ w).sum().item()'
python3 -c "$job" >"$out/job.out" 2>&1 & jp=$!
sleep 8
"${hs[@]}" checklist "$jp" --seconds 10 --json >"$out/checklist.json" 2>"$out/checklist.err"; echo "exit $?"
kill "$jp" 2>/dev/null; wait "$jp" 2>/dev/null
python3 - "$out/checklist.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
v = j.get("verdict") or {}
print("  verdict %-22s %-8s %s" % (v.get("id"), v.get("severity"), (v.get("text") or "")[:100]))
for f in j.get("verdicts", []) or []:
    print("  %-26s %-8s %s" % (f.get("id"), f.get("severity"), (f.get("text") or "")[:90]))
PY

echo "== 9. rack --json"
"${hs[@]}" rack --json >"$out/rack.json" 2>"$out/rack.err"; echo "exit $?"
python3 - "$out/rack.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if "id" in o and "severity" in o and str(o.get("id", "")).startswith("M5"):
            print("  %-24s %-8s %s" % (o["id"], o["severity"], str(o.get("text") or o.get("detail") or "")[:90]))
        else:
            for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(j)
PY

echo "== 10. the course from each report: lines that say busy, noise or a rule ID"
for r in quiet busy; do
  for s in h2d-copy tlb-reach feeder-step read-paths placement; do
    "${hs[@]}" learn "$s" --from "$out/$r/$r.json" >"$out/learn-$r-$s.txt" 2>&1 || echo "  $r $s: exit $?"
    grep -oE "[^.]*(busy|noise|M[1-6]-[A-Z0-9-]+)[^.]*\." "$out/learn-$r-$s.txt" | sort -u | head -n 4 | sed "s/^/  $r $s: /" | cut -c1-220
  done
done
