#!/usr/bin/env bash
# hostside checklist against sysstat on the same process over the same seconds: per-thread CPU
# and context switches (pidstat -t -u -w), per-CPU use (mpstat -P ALL), the disk (iostat -dx),
# context switches and runnable threads of the machine (vmstat), side by side with the ratio.
#
# The load: a python3 process with three named threads, "spin" (pure Python, holds the GIL),
# "hash" (sha256 of 1 MiB buffers, which releases the GIL) and "tick" (sleeps 1 ms in a loop:
# voluntary context switches), and beside it dd writing a 1 GiB file with O_DIRECT, over and
# over, so that the disk is busy and iowait shows.
#
# sysstat's tools start with hostside and run a few intervals longer; their per-second rows are
# then cut to the ones inside hostside's window (the JSON's window.startedAt), since the JVM takes
# a second or two to start. sysstat prints whole seconds, so the two windows can be up to a
# second apart: a steady load makes that matter little.
#
#   bench/run checklist [SECONDS] [DIR]
# DIR is where dd writes (default /var/tmp); the file is removed on every exit.
set -euo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
seconds=${1:-10}
where=${2:-/var/tmp}
for t in mpstat pidstat iostat vmstat python3 dd; do
  command -v "$t" >/dev/null || { echo "$t is not installed (apt-get install sysstat python3 coreutils)"; exit 1; }
done
# a first start builds the jar and trains the AOT cache (tens of seconds): not inside the window
$HOSTSIDE --version >/dev/null 2>&1 || { echo "$HOSTSIDE does not start"; exit 1; }
tmp=$(mktemp -d)
file="$where/hostside-checklist-bench.$$"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp" "$file"
}
trap cleanup EXIT
# sysstat in the C locale: 24-hour times in mpstat and pidstat, ISO dates in iostat -t (hostside keeps
# the user's locale: its marks are UTF-8)
sysstat() { LC_ALL=C S_TIME_FORMAT=ISO "$@"; }

python3 - <<'PY' &
import ctypes, hashlib, os, threading, time
libc = ctypes.CDLL(None)
def named(name, body):
    def run():
        libc.prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME: the thread's comm, as pidstat and hostside show it
        body()
    threading.Thread(target=run, daemon=True).start()
def spin():
    x = 0
    while True:
        x += 1
def hashing():
    b = os.urandom(1 << 20)
    while True:
        hashlib.sha256(b).digest()
def tick():
    while True:
        time.sleep(0.001)
named("spin", spin); named("hash", hashing); named("tick", tick)
time.sleep(3600)
PY
load=$!; pids+=("$load")
( while :; do dd if=/dev/zero of="$file" bs=1M count=1024 oflag=direct conv=notrunc status=none; done ) &
pids+=($!)
sleep 2   # let the threads and dd settle

n=$((seconds + 6))
echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r), $(nproc) CPUs; load PID $load (python3: spin, hash, tick) + dd oflag=direct to $where; window $seconds s"
sysstat mpstat -P ALL 1 "$n" >"$tmp/mpstat" & m=$!
sysstat pidstat -t -u -w -p "$load" 1 "$n" >"$tmp/pidstat" & p=$!
sysstat iostat -y -t -dx 1 "$n" >"$tmp/iostat" & i=$!
sysstat vmstat -t 1 "$((n + 1))" >"$tmp/vmstat" & v=$!
$HOSTSIDE checklist "$load" --seconds "$seconds" --json >"$tmp/hostside.json" 2>"$tmp/hostside.err" || { cat "$tmp/hostside.err"; exit 1; }
wait "$m" "$p" "$i" "$v"

python3 - "$tmp" "$seconds" <<'PY'
import datetime as dt, json, os, sys
tmp, seconds = sys.argv[1], float(sys.argv[2])
h = json.load(open(os.path.join(tmp, "hostside.json")))
start = dt.datetime.fromisoformat(h["window"]["startedAt"].replace("Z", "+00:00"))
first = int(start.timestamp())                 # sysstat rows carry the END of their second, truncated
last = first + int(round(h["window"]["seconds"]))
day = start.date()

def in_window(hms):
    t = dt.datetime.combine(day, dt.time.fromisoformat(hms), tzinfo=dt.timezone.utc).timestamp()
    return first < t <= last

def mean(xs):
    return sum(xs) / len(xs) if xs else None

# mpstat -P ALL: per CPU, busy = 100 - idle - iowait, usr + nice, sys, iowait
mp = {}
for line in open(os.path.join(tmp, "mpstat")):
    f = line.split()
    if len(f) == 12 and f[0][:2].isdigit() and f[1] != "CPU" and in_window(f[0]):
        usr, nice, sys_, iow, idle = map(float, (f[2], f[3], f[4], f[5], f[11]))
        mp.setdefault(f[1], []).append((100 - idle - iow, usr + nice, sys_, iow))
# pidstat -t -u -w: two blocks per second, told apart by their header
cpu, cs, mode, rows_p = {}, {}, None, set()
for line in open(os.path.join(tmp, "pidstat")):
    f = line.split()
    if not f or f[0] == "Average:" or not f[0][:2].isdigit():
        continue
    if "%CPU" in f: mode = "u"; continue
    if "cswch/s" in f: mode = "w"; continue
    if not in_window(f[0]):
        continue
    key = ("process", f[2]) if f[3] == "-" else ("thread", f[3])
    name = f[-1].replace("|__", "")
    if mode == "u":
        cpu.setdefault(key, [name, []])[1].append(float(f[8])); rows_p.add(f[0])
    elif mode == "w":
        cs.setdefault(key, [name, [], []]); cs[key][1].append(float(f[4])); cs[key][2].append(float(f[5]))
# iostat -y -t -dx: a timestamp line, a header, a row per device
io, stamp, cols = {}, None, None
for line in open(os.path.join(tmp, "iostat")):
    f = line.split()
    if len(f) == 1 and "T" in f[0]:
        stamp = f[0].split("T")[1][:8]; continue
    if f and f[0] == "Device": cols = f; continue
    if cols and len(f) == len(cols) and stamp and in_window(stamp):
        io.setdefault(f[0], []).append(dict(zip(cols[1:], map(float, f[1:]))))
# vmstat -t: the first row is since boot; the rest per second
vm, vcols = [], None
for line in open(os.path.join(tmp, "vmstat")):
    f = line.split()
    if f and f[0] == "r": vcols = f; continue
    if vcols and f and f[0].isdigit():   # the last two are the date and the time
        vm.append((f[-1], dict(zip(vcols, map(float, f[:-2])))))
vm = [r for t, r in vm[1:] if in_window(t)]

rows = []
def row(what, ours, theirs, tool, small):
    if ours is None or theirs is None:
        rows.append((what, "-" if ours is None else f"{ours:.1f}", "-" if theirs is None else f"{theirs:.1f}", tool, "", "not measured"))
        return
    ratio = ours / theirs if theirs else float("inf")
    if max(abs(ours), abs(theirs)) < small:
        verdict = "both small"
    else:
        verdict = "within 10%" if abs(ratio - 1) <= 0.10 else "DIFFERS"
    rows.append((what, f"{ours:.1f}", f"{theirs:.1f}", tool, f"{ratio:.3f}" if theirs else "-", verdict))

p = h["process"]
row(f"process {h['pid']} CPU %", p["cpuPercent"], mean(next((v[1] for k, v in cpu.items() if k[0] == "process"), [])), "pidstat -u", 5)
for t in sorted(p["threadList"], key=lambda t: -(t["cpuPercent"] or 0)):
    k = ("thread", str(t["tid"]))
    row(f"thread {t['name']} ({t['tid']}) CPU %", t["cpuPercent"], mean(cpu.get(k, [None, []])[1]), "pidstat -t -u", 5)
for t in p["threadList"]:
    k = ("thread", str(t["tid"]))
    if k in cs and (t["voluntarySwitchesPerSecond"] or 0) + mean(cs[k][1]) > 50:
        row(f"thread {t['name']} voluntary cs/s", t["voluntarySwitchesPerSecond"], mean(cs[k][1]), "pidstat -t -w", 20)
        row(f"thread {t['name']} involuntary cs/s", t["involuntarySwitchesPerSecond"], mean(cs[k][2]), "pidstat -t -w", 20)
c = h["cpus"]
for u in [c["all"]] + c["cpus"]:
    m = mp.get(u["cpu"], [])
    row(f"CPU {u['cpu']} busy %", u["busy"], mean([x[0] for x in m]), "mpstat -P ALL", 5)
    row(f"CPU {u['cpu']} usr %", u["user"] + u["nice"], mean([x[1] for x in m]), "mpstat -P ALL", 5)
    row(f"CPU {u['cpu']} sys %", u["system"], mean([x[2] for x in m]), "mpstat -P ALL", 5)
    row(f"CPU {u['cpu']} iowait %", u["iowait"], mean([x[3] for x in m]), "mpstat -P ALL", 5)
for d in h["io"]["disks"]:
    r = io.get(d["name"], [])
    row(f"{d['name']} write MB/s", d["writeBytesPerSecond"] / 1e6, mean([x["wkB/s"] * 1024 / 1e6 for x in r]), "iostat -dx", 1)
    row(f"{d['name']} writes/s", d["writesPerSecond"], mean([x["w/s"] for x in r]), "iostat -dx", 10)
    row(f"{d['name']} read MB/s", d["readBytesPerSecond"] / 1e6, mean([x["rkB/s"] * 1024 / 1e6 for x in r]), "iostat -dx", 1)
    row(f"{d['name']} util %", d["utilPercent"], mean([x["%util"] for x in r]), "iostat -dx", 5)
    if d["awaitMs"] is not None:
        # iostat gives r_await and w_await; hostside one await over both: weigh iostat's by the requests
        n = sum(x["r/s"] + x["w/s"] for x in r)
        aw = sum(x["r_await"] * x["r/s"] + x["w_await"] * x["w/s"] for x in r) / n if n else None
        row(f"{d['name']} await ms (reads and writes)", d["awaitMs"], aw, "iostat -dx", 0.5)
row("machine context switches/s", c["contextSwitchesPerSecond"], mean([r["cs"] for r in vm]), "vmstat", 100)
row("runnable threads (procs_running)", h["load"]["procsRunning"]["mean"], mean([r["r"] for r in vm]), "vmstat", 1)

print(f"hostside window: {h['window']['startedAt']} + {h['window']['seconds']} s, {h['window']['samples']} samples; "
      f"sysstat rows used: mpstat {len(mp.get('all', []))}, pidstat {len(rows_p)}, iostat {len(next(iter(io.values()), []))}, vmstat {len(vm)}")
print(f"hostside's verdict: {h['verdict']['text']}" + "".join(f"; also: {v['text']}" for v in h["verdicts"][1:]))
w = [max(len(r[i]) for r in rows + [("figure", "hostside", "sysstat", "tool", "ratio", "")]) for i in range(6)]
fmt = "  ".join(["{:<%d}" % w[0]] + ["{:>%d}" % w[i] for i in (1, 2)] + ["{:<%d}" % w[3], "{:>%d}" % w[4], "{}"])
print(fmt.format("figure", "hostside", "sysstat", "tool", "ratio", ""))
for r in rows:
    print(fmt.format(*r))
PY

echo
echo "# the same load as a person sees it: hostside checklist $load --seconds 5, right after"
$HOSTSIDE checklist "$load" --seconds 5 2>/dev/null
