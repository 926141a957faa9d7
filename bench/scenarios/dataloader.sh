#!/usr/bin/env bash
# hostside's DataLoader copy-on-write figures against /usr/bin/time -v, in one run: the peak RSS
# that hostside reads (the largest VmHWM of the script's main process and its forked workers)
# beside "Maximum resident set size" of the same script run standalone under GNU time, which
# is wait4()'s ru_maxrss: the largest peak among a process and its waited-for children. Where
# /usr/bin/time is missing, python's os.wait4 gives the same ru_maxrss (GNU time's own source).
# time -v has no USS or PSS: the growth of private memory per worker, hostside's main figure,
# has no counterpart there; smaps_rollup is checked against VmRSS inside hostside instead.
#
#   bench/run dataloader [SIZE] [WORKERS]
# NO_GNU_TIME=1 takes the os.wait4 path even where /usr/bin/time exists.
set -euo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
size=${1:-128M}; workers=${2:-4}
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bytes=$(python3 -c "import sys; s=sys.argv[1].upper(); m={'K':1<<10,'M':1<<20,'G':1<<30}; print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$size")
# the workers hostside runs, from the checkout's resources (the jar holds the same file)
cp src/main/resources/hostside/cpu/dataloader/cow_workers.py "$tmp/cow_workers.py"

echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r); dataset $size, $workers workers"
$HOSTSIDE cpu --only dataloader_cow_list,dataloader_cow_array --dataset-size "$size" --workers "$workers" --json 2>/dev/null > "$tmp/h.json"
for kind in list array; do
  python3 - "$tmp/h.json" "$kind" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = next(x for x in doc["dataloader"] if x["key"] == "dataloader_cow_" + sys.argv[2])
if r["status"] != "ok":
    print(f"hostside {sys.argv[2]:5}: {r['status']}: {r.get('why', '')}"); sys.exit()
d = r["detail"]
print(f"hostside {sys.argv[2]:5}  peak RSS {d['peakRssBytes'] / 2**20:8.1f} MiB ({d['peakRssOf']}; VmHWM)  USS growth per worker {d['meanGrowthPercent']}% of the dataset")
PY
  args=(--data "$kind" --bytes "$bytes" --workers "$workers" --passes 3 --pass-ms 1000 --max-seconds 120 --standalone)
  if [[ -x /usr/bin/time && -z ${NO_GNU_TIME:-} ]]; then
    /usr/bin/time -v python3 "$tmp/cow_workers.py" "${args[@]}" >/dev/null 2>"$tmp/time.txt" || { cat "$tmp/time.txt"; exit 1; }
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt"); how="/usr/bin/time -v"
  else
    kib=$(python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1); os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
sys.exit(f"exit status {status}") if status else print(ru.ru_maxrss)' python3 "$tmp/cow_workers.py" "${args[@]}"); how="os.wait4 ru_maxrss (no /usr/bin/time)"
  fi
  printf 'time -v  %-5s  peak RSS %8.1f MiB (%s, "Maximum resident set size")\n' "$kind" "$(python3 -c "print($kib / 1024)")" "$how"
done
