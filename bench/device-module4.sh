#!/usr/bin/env bash
# Module 4 on a live GPU machine without Java, with the runtime that ../shared/tools/device-jre.sh
# builds: hostside container, the storage and network facts (io --no-measure), io's bad input,
# hostside checklist on a PyTorch process twice (GPU-bound, then fed by one busy Python thread)
# with nvidia-smi logging the same GPU over the same seconds (and sysstat/procps where installed),
# a PID that exits mid-window and one that does not exist, then the report with its Module 4.
# bench/checklist-vs-nvidia-smi.py puts the two side by side.
# Usage (from the repo root, .jre/ and the jar present): bash bench/device-module4.sh OUTDIR [JAR]
set -uo pipefail
out=${1:?usage: bench/device-module4.sh OUTDIR [JAR]}
jar=${2:-target/hostside.jar}
mkdir -p "$out"
# short commands: C1 only starts faster; the timing drills get the launcher's flags (see ./hostside)
Q=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar")
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC
   -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0 -jar "$jar")
load_pids=()
cleanup() { for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

# the load: "gpu" runs 8192^2 matmuls on one stream while another copies 256 MiB from pinned
# host memory to the GPU back to back (steady PCIe traffic whose volume the load logs: the
# figure NVML's counter is checked against); "feed" makes one Python thread spend ~30 ms of pure
# Python per step before a small matmul, so the GPU waits on it (CPU-bound feeding). Both have a
# thread that sleeps 1 ms in a loop, as a pin-memory or logging thread would: a steady stream of
# context switches for vmstat and hostside to count.
# sets LOAD_PID; the load's output goes to a file, or a command substitution would wait for it
start_load() {
  python3 - "$1" > "$out/$1.load.log" 2>&1 <<'PY' &
import sys, threading, time, torch
mode = sys.argv[1]
def tick():
    while True:
        time.sleep(0.001)
threading.Thread(target=tick, daemon=True).start()
x = torch.randn(8192, 8192, device="cuda")
h = torch.empty(256 << 20, dtype=torch.uint8, pin_memory=True)
d = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
copies = torch.cuda.Stream()
end = time.time() + 45
copied = 0
while time.time() < end:
    if mode == "gpu":
        y = x @ x
        with torch.cuda.stream(copies):
            for _ in range(4):
                d.copy_(h, non_blocking=True)
        copied += 4 * h.numel()
    else:
        s = 0
        for i in range(400000):
            s += i
        y = x[:2048, :2048] @ x[:2048, :2048]
    torch.cuda.synchronize()
    print(f"{time.time():.4f} {copied}", flush=True)
PY
  LOAD_PID=$!
  load_pids+=($LOAD_PID)
  local pid=$LOAD_PID
  # wait until the process has its CUDA context (it shows in nvidia-smi), at most 30 s
  for i in $(seq 60); do nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | grep -qw "$pid" && break; sleep 0.5; done
  sleep 2
}

# one checklist window with nvidia-smi (and whatever of sysstat/procps is installed) beside it
side_by_side() {  # name pid
  local name=$1 pid=$2 n=16
  nvidia-smi --query-gpu=timestamp,utilization.gpu,utilization.memory,memory.used,power.draw,power.limit,clocks.sm,clocks.max.sm,clocks_event_reasons.active \
    --format=csv,noheader,nounits -lms 500 > "$out/$name.nvsmi.csv" 2>&1 & local q=$!
  nvidia-smi dmon -s ut -o DT -d 1 -c $n > "$out/$name.dmon.txt" 2>&1 & local dm=$!
  command -v vmstat >/dev/null && { LC_ALL=C vmstat -t 1 $n > "$out/$name.vmstat.txt" 2>&1 & }
  command -v pidstat >/dev/null && { LC_ALL=C S_TIME_FORMAT=ISO pidstat -t -u -w -p "$pid" 1 $n > "$out/$name.pidstat.txt" 2>&1 & }
  command -v mpstat >/dev/null && { LC_ALL=C S_TIME_FORMAT=ISO mpstat -P ALL 1 $n > "$out/$name.mpstat.txt" 2>&1 & }
  "${Q[@]}" checklist "$pid" --seconds 10 --json > "$out/$name.checklist.json" 2> "$out/$name.checklist.err"
  echo "checklist --json exit $?"
  kill $q 2>/dev/null; wait $dm 2>/dev/null
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits > "$out/$name.apps.csv" 2>&1
  wait
}

# PARTS=checklist runs only the checklist windows (no container, io facts or report)
parts=${PARTS:-all}
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)  kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  for t in vmstat mpstat pidstat iostat python3 nvidia-smi; do printf '%s: %s\n' "$t" "$(command -v $t || echo 'not installed')"; done
  if [ "$parts" = all ]; then
  echo "== hostside container"
  "${Q[@]}" container; echo "exit $?"
  "${Q[@]}" container --json > "$out/container.json"; echo "container --json exit $?"
  echo "== hostside io --no-measure (storage and network facts)"
  "${Q[@]}" io --no-measure; echo "exit $?"
  "${Q[@]}" io --no-measure --json > "$out/io-facts.json"; echo "io --no-measure --json exit $?"
  echo "== io: bad input (each one line, exit 2, nothing written)"
  before=$(ls /var/tmp /tmp | sort | md5sum)
  "${Q[@]}" io --dir /proc/sys; echo "exit $?"
  "${Q[@]}" io --dir /nonexistent/ckpt; echo "exit $?"
  "${Q[@]}" io --size 10T; echo "exit $?"
  "${Q[@]}" io --file /nonexistent/ckpt.pt; echo "exit $?"
  echo "files in /var/tmp and /tmp unchanged: $([ "$before" = "$(ls /var/tmp /tmp | sort | md5sum)" ] && echo yes || echo NO)"
  fi

  echo "== checklist on a GPU-bound PyTorch process (text, then JSON beside nvidia-smi)"
  start_load gpu; pid=$LOAD_PID
  echo "load pid $pid"
  "${Q[@]}" checklist "$pid" --seconds 6; echo "exit $?"
  side_by_side gpu "$pid"
  kill "$pid"; wait "$pid" 2>/dev/null
  echo "== checklist on a PyTorch process fed by one busy Python thread"
  start_load feed; pid=$LOAD_PID
  echo "load pid $pid"
  "${Q[@]}" checklist "$pid" --seconds 6; echo "exit $?"
  side_by_side feed "$pid"
  kill "$pid"; wait "$pid" 2>/dev/null
  echo "== checklist: a PID that exits mid-window, and one that does not exist"
  sleep 3 & s=$!
  "${Q[@]}" checklist "$s" --seconds 6; echo "exit $?"
  "${Q[@]}" checklist 999999; echo "exit $?"
  "${Q[@]}" checklist notapid; echo "exit $?"
  echo "== side by side"
  for name in gpu feed; do python3 bench/checklist-vs-nvidia-smi.py "$out" "$name"; done
  if [ "$parts" = all ]; then
  echo "== hostside report (Modules 1 to 4)"
  s=$(date +%s%N); "${J[@]}" report --out "$out" --name h200; rc=$?; e=$(date +%s%N)
  echo "exit $rc; wall $(( (e - s) / 1000000 )) ms"
  fi
  echo "== left behind: test files, python"
  ls -la /var/tmp /tmp | grep -i hostside || echo "no hostside files"
  pgrep -a python3 || echo "no python3"
} > "$out/device-module4.log" 2>&1
cat "$out/device-module4.log"
# the device tool brings back a few files only: one archive of the rest
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/all.tar.gz"
