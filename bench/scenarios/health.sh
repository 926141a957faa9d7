#!/usr/bin/env bash
# hostside health beside nvidia-smi -q on the same GPUs, in one call, interleaved (nvidia-smi,
# hostside, nvidia-smi, hostside): each field health reads from NVML against nvidia-smi's
# (bench/harness/smi_q.py: ECC, retired pages, row remapper, clocks and their event reasons,
# temperature, power, PCIe, persistence, compute and MIG modes, recovery action), both programs'
# wall time, then a snapshot of this node replayed under --root (the NVML answers it recorded read
# back, the findings compared with the live run's), and the formats a fleet reads (line,
# prometheus) with their exit codes. Everything is kept in $OUT; the snapshot is the GPU node's
# recording the tests replay (testdata/health/gpu-node.tar.gz).
#
#   bench/run health [ROUNDS]
set -uo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
rounds=${1:-3}
out=${OUT:-/tmp/bench/health}
mkdir -p "$out"
command -v nvidia-smi >/dev/null || { echo "not run: no nvidia-smi here (health is compared with it on a GPU node)"; exit 0; }
# a first start unpacks or builds hostside and trains its start-up cache: not inside a timing
$HOSTSIDE --version >/dev/null 2>&1 || { echo "$HOSTSIDE does not start"; exit 1; }

now() { date +%s.%N; }
took() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }

echo "# nvidia-smi -q and hostside health --json, interleaved, $rounds rounds"
printf '%-6s %-22s %-10s %-5s\n' round program seconds exit
differs=0
for i in $(seq 1 "$rounds"); do
  t0=$(now); nvidia-smi -q >"$out/smi-$i.txt" 2>"$out/smi-$i.err"; rc=$?; t1=$(now)
  printf '%-6s %-22s %-10s %-5s\n' "$i" "nvidia-smi -q" "$(took "$t0" "$t1")" "$rc"
  t0=$(now); $HOSTSIDE health --json >"$out/health-$i.json" 2>"$out/health-$i.err"; rc=$?; t1=$(now)
  printf '%-6s %-22s %-10s %-5s\n' "$i" "hostside health --json" "$(took "$t0" "$t1")" "$rc"
done
echo
for i in $(seq 1 "$rounds"); do
  echo "# round $i: nvidia-smi -q beside hostside health, field by field"
  python3 bench/harness/smi_q.py "$out/smi-$i.txt" "$out/health-$i.json" | tee "$out/side-by-side-$i.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || differs=$((differs + 1))
  echo
done
echo "rounds with a field that differs: $differs of $rounds"
echo

echo "# hostside health, as a person reads it"
$HOSTSIDE health >"$out/health.txt" 2>&1; echo "exit $?"
cat "$out/health.txt"
echo
echo "# --format line (Slurm's reason, node-problem-detector's message) and --format prometheus"
$HOSTSIDE health --format line; echo "exit $?"
$HOSTSIDE health --format prometheus -o "$out/hostside.prom"; echo "exit $?"
grep -c '^hostside_' "$out/hostside.prom" | sed 's/^/samples: /'
grep '^# TYPE' "$out/hostside.prom" | awk '{print $3}' | paste -sd' ' | sed 's/^/families: /'
echo

echo "# a snapshot of this node, replayed under --root"
$HOSTSIDE snapshot -o "$out/gpu-node.tar.gz" || { echo "snapshot failed"; exit 1; }
$HOSTSIDE health --json >"$out/live.json" 2>/dev/null
$HOSTSIDE health --root "$out/gpu-node.tar.gz" --json >"$out/replay.json" 2>"$out/replay.err"; echo "replay exit $?"
python3 - "$out/gpu-node.tar.gz" "$out/live.json" "$out/replay.json" <<'PY'
import json, sys, tarfile
snap, live, replay = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
with tarfile.open(snap) as t:
    member = next(m for m in t.getmembers() if m.name.endswith("/hostside/nvml-health.json"))
    recorded = json.load(t.extractfile(member))
print("recorded NVML answers equal the replay's:", recorded == replay["facts"]["nvml"])
print("GPUs recorded:", len(recorded["gpus"]), "| driver", recorded["driverVersion"])
def judged(doc):
    # the kernel log and the links under load are the live machine's only: a recording has neither
    return sorted((f["id"], f["severity"], f["subject"]) for f in doc["findings"] if f["id"] not in ("M6-HEALTH-XID",))
same = judged(live) == judged(replay)
print("findings of the live run and of the replay the same (Xids aside):", same)
if not same:
    print("  live:  ", judged(live))
    print("  replay:", judged(replay))
PY
ls -l "$out/gpu-node.tar.gz"
