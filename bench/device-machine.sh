#!/usr/bin/env bash
# Runs hostside's Module 1 facts on a live GPU machine that has no Java, with the runtime that
# ../shared/tools/device-jre.sh builds, and checks them against NVIDIA's own view (nvidia-smi).
# Usage (from the repo root, .jre/ and target/hostside.jar present): bash bench/device-machine.sh OUTDIR
set -uo pipefail
out=${1:?usage: bench/device-machine.sh OUTDIR}
mkdir -p "$out"
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar target/hostside.jar)
log=$out/device-machine.log
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)"
  echo "== nvidia-smi topo -m"; nvidia-smi topo -m
  echo "== nvidia-smi -q -d PCIE (idle)"; nvidia-smi -q -d PCIE | sed -n '/PCI/,$p' | head -40
  gpu=$(ls /proc/driver/nvidia/gpus | head -n 1)
  echo "== sysfs link of $gpu at idle: $(cat /sys/bus/pci/devices/$gpu/current_link_speed) x$(cat /sys/bus/pci/devices/$gpu/current_link_width)"
  if command -v python3 >/dev/null && python3 -c 'import torch' 2>/dev/null; then
    # Keep the link busy with pinned host-to-device copies, then read the link speed again:
    # an idle GPU may downtrain, so the current speed only means something under load.
    python3 - <<'PY' &
import torch, time
a = torch.empty(256 << 20, dtype=torch.uint8).pin_memory()
b = torch.empty_like(a, device="cuda")
t = time.time()
while time.time() - t < 6:
    b.copy_(a, non_blocking=True)
torch.cuda.synchronize()
PY
    sleep 4
    echo "== sysfs link of $gpu under copy load: $(cat /sys/bus/pci/devices/$gpu/current_link_speed) x$(cat /sys/bus/pci/devices/$gpu/current_link_width)"
    echo "== nvidia-smi under load: $(nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv,noheader)"
    wait
  fi
  echo "== hostside machine"; "${J[@]}" machine; echo "exit $?"
  "${J[@]}" machine --json > "$out/machine.json"; echo "machine --json exit $?"
  "${J[@]}" snapshot -o "$out/h200-live.tar.gz"; echo "snapshot exit $?"
  "${J[@]}" machine --root "$out/h200-live.tar.gz" --json > /tmp/from-snapshot.json
  if diff <(grep -v '"source"' "$out/machine.json") <(grep -v '"source"' /tmp/from-snapshot.json) >/dev/null; then
    echo "== snapshot round trip: same facts"
  else
    echo "== snapshot round trip: DIFFERENT"; diff <(grep -v '"source"' "$out/machine.json") <(grep -v '"source"' /tmp/from-snapshot.json) | head -20
  fi
  "${J[@]}" report --out "$out" --name h200-live; echo "report exit $?"
  echo "== startup: machine --json, wall ms, 10 runs"
  for i in $(seq 10); do s=$(date +%s%N); "${J[@]}" machine --json >/dev/null; echo $(( ($(date +%s%N) - s) / 1000000 )); done | sort -n | tr '\n' ' '; echo
  if .jre/bin/java -XX:AOTCacheOutput=/tmp/hostside.aot -jar target/hostside.jar machine --json >/dev/null 2>/tmp/aot.err; then
    echo "== startup with AOT cache, wall ms, 10 runs"
    for i in $(seq 10); do s=$(date +%s%N); "${J[@]:0:1}" -XX:AOTCache=/tmp/hostside.aot "${J[@]:1}" machine --json >/dev/null; echo $(( ($(date +%s%N) - s) / 1000000 )); done | sort -n | tr '\n' ' '; echo
  else
    echo "== no AOT cache: $(head -c 300 /tmp/aot.err)"
  fi
} > "$log" 2>&1
cat "$log"
