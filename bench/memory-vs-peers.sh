#!/usr/bin/env bash
# Issue 18: hostside's host-memory figures beside the established methods, in one run,
# interleaved (peer, hostside, peer, hostside...), ROUNDS rounds (default 3), each round:
#   stream                              STREAM's own binary, OpenMP, every CPU: Triad's best rate
#   OMP_NUM_THREADS=1 stream            the same on one thread
#   hostside machine --only memory_bandwidth_triad,memory_bandwidth_triad_one_thread --json
#   memref chase --cpu A --node 0       dependent pointer chase (bench/c/memref.c): idle latency
#   hostside machine --only memory_latency --json
#   memref read --cpus LIST --node 0    MLC-style read-only bandwidth, node 0's CPUs on node 0
#   hostside machine --only memory_bandwidth_read --json
# A is the first CPU of node 0 this process may use, LIST all of them (every allowed CPU where
# the kernel has no NUMA nodes, and then no --node): hostside's scope for the last two is
# nodes:0,0 (CPUs of node 0 reading memory of node 0).
#
# Prints a ratio table (bench/memory-table.py: figure, hostside's median and max over rounds,
# the peer's figure over rounds, the rounds' ratios) and keeps every run's output in OUTDIR.
# STREAM reports its best (max) rate and hostside's figure is a median: the triad rows give
# both hostside's median and its max beside STREAM's best. A figure hostside does not print
# (yet) does not stop the run: its row says "hostside: no figure" and why.
# Nothing else heavy may run meanwhile: /proc/loadavg is noted before each run.
#
# Usage, from the repository root or anywhere:
#   bench/memory-vs-peers.sh OUTDIR [ROUNDS]          (ROUNDS default $ROUNDS, else 3)
#   JAR=/path/to/hostside.jar bench/memory-vs-peers.sh OUTDIR 5
#   CHASE_ARGS="--size 64M --loads 1000000" READ_ARGS="--size 256M --samples 3" bench/memory-vs-peers.sh /tmp/m 1
#     (extra memref options, for a quick try; the defaults are for the real runs)
#   MEMREF=/path/to/memref bench/memory-vs-peers.sh OUTDIR   (a memref built elsewhere, e.g. on a
#     machine without gcc; else it is built with gcc into OUTDIR, static where libgomp.a exists)
# Peers: $PEERS, else .peers/ in the checkout, else /work/shared/tools/peers (bin/stream). Java:
# .jre/bin/java when it exists, else $JAVA_HOME/bin/java, else java; the jar: target/hostside.jar.
set -uo pipefail
out=${1:?usage: bench/memory-vs-peers.sh OUTDIR [ROUNDS]}
rounds=${2:-${ROUNDS:-3}}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS: \"$rounds\" is not a positive number" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
# paths named on the command line are relative to where it was typed
[[ -n ${JAR:-} ]] && JAR=$(realpath -- "$JAR")
[[ -n ${MEMREF:-} ]] && MEMREF=$(realpath -- "$MEMREF")
cd "$(dirname "$0")/.." || exit 1

. bench/lib.sh
stream=$(bench_peer stream) || exit 1
# no jar must not stop the peers' half: hostside's runs then fail, and the table says so
if why=$( (bench_java) 2>&1 ); then bench_java; else jar=; java=java; echo "$why; hostside's runs are skipped" >&2; fi

# memref: built here unless MEMREF names one
if [[ -n ${MEMREF:-} ]]; then
  [[ -x $MEMREF ]] || { echo "MEMREF=$MEMREF is not an executable" >&2; exit 1; }
  memref=$MEMREF; memref_build="given: $MEMREF"
else
  command -v gcc > /dev/null || { echo "gcc not found: it builds bench/c/memref.c (apt-get install gcc, or MEMREF=a memref built elsewhere)" >&2; exit 1; }
  memref=$out/memref
  memref_build="gcc -O2 -fopenmp -static -o $memref bench/c/memref.c"
  if ! gcc -O2 -fopenmp -static -o "$memref" bench/c/memref.c 2> "$out/memref-build.err"; then
    memref_build="gcc -O2 -fopenmp -o $memref bench/c/memref.c"
    echo "static build failed ($(grep -m1 -i error "$out/memref-build.err")); building it dynamic" >&2
    gcc -O2 -fopenmp -o "$memref" bench/c/memref.c 2>> "$out/memref-build.err" \
      || { echo "cannot build memref: $(grep -m1 -i error "$out/memref-build.err")" >&2; exit 1; }
  fi
fi

# node 0's CPUs that this process may use: the first for the chase, all for the reads
read -r cpu_a cpu_list node < <(python3 - <<'PY'
import os
allowed = sorted(os.sched_getaffinity(0))
def cpulist(s):
    out = set()
    for part in s.strip().split(","):
        if part:
            a, _, b = part.partition("-")
            out.update(range(int(a), int(b or a) + 1))
    return out
try:
    cpus, node = [c for c in allowed if c in cpulist(open("/sys/devices/system/node/node0/cpulist").read())], "0"
except OSError:
    cpus, node = allowed, "-"
if not cpus: cpus, node = allowed, "-"  # node 0 without CPUs of ours: no nodes:0,0 to match
runs, start = [], None
for i, c in enumerate(cpus):  # back into a cpulist: 0-3,8
    if start is None: start = c
    if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
        runs.append(f"{start}-{c}" if c > start else f"{c}"); start = None
# hostside's one-thread CPU: the lowest other than CPU 0 where there is another (MemoryTarget.oneCpu)
print(next((c for c in cpus if c != 0), cpus[0]), ",".join(runs), node)
PY
)
[[ -n ${cpu_a:-} ]] || { echo "cannot read this process's CPUs" >&2; exit 1; }
node_opt=(); [[ $node == - ]] || node_opt=(--node "$node")
hs=("$java" --enable-native-access=ALL-UNNAMED -jar "$jar" machine --json --only)
# memref's chase and read at hostside's own sizes (its rule: four times the last-level caches, or
# an assumed cache where sysfs names none), read off one hostside run before the rounds, so that
# the two measure the same working set; CHASE_ARGS / READ_ARGS given on the command line win.
if [[ -n $jar && ( -z ${CHASE_ARGS:-} || -z ${READ_ARGS:-} ) ]]; then
  "${hs[@]}" memory_latency,memory_bandwidth_read > "$out/sizes.json" 2> "$out/sizes.err"
  read -r chase_bytes read_bytes < <(python3 - "$out/sizes.json" <<'PY'
import json, sys
found = {}
def walk(o):
    if isinstance(o, dict):
        r = o.get("result")
        if isinstance(r, dict) and r.get("key") in ("memory_latency", "memory_bandwidth_read") and isinstance(r.get("detail"), dict):
            found.setdefault(r["key"], r["detail"].get("bytes"))
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
try:
    walk(json.load(open(sys.argv[1])))
except Exception:
    pass
print(found.get("memory_latency") or "-", found.get("memory_bandwidth_read") or "-")
PY
  )
  [[ -z ${CHASE_ARGS:-} && $chase_bytes =~ ^[0-9]+$ ]] && CHASE_ARGS="--size $chase_bytes"
  [[ -z ${READ_ARGS:-} && $read_bytes =~ ^[0-9]+$ ]] && READ_ARGS="--size $read_bytes"
  [[ $chase_bytes =~ ^[0-9]+$ && $read_bytes =~ ^[0-9]+$ ]] || echo "hostside's sizes not read ($out/sizes.err): memref at its own defaults" >&2
fi
# shellcheck disable=SC2206  # the extra options are words on purpose
chase=("$memref" chase --cpu "$cpu_a" "${node_opt[@]}" ${CHASE_ARGS:-})
# shellcheck disable=SC2206
readbw=("$memref" read --cpus "$cpu_list" "${node_opt[@]}" ${READ_ARGS:-})
# STREAM's arrays are fixed when it is built (80,000,000 doubles in the peers' build): hostside's
# triad is run with arrays of the same size beside STREAM, and once per round at its own rule's
# size (four times the last-level caches), which is what `hostside machine` reports.
stream_elements=$("$stream" 2>/dev/null | sed -n 's/^Array size = \([0-9]*\).*/\1/p' | head -1)
[[ $stream_elements =~ ^[0-9]+$ ]] || { echo "cannot read STREAM's array size from its output" >&2; exit 1; }
stream_bytes=$((stream_elements * 8))

# a run that is interrupted leaves no child behind
child=
trap '[[ -n $child ]] && kill "$child" 2>/dev/null; exit 130' INT TERM
run() {  # $1: file; the rest: the command, its output into the file, its exit status and the load before it beside
  local f=$1; shift
  cut -d' ' -f1-3 /proc/loadavg > "$out/$f.load"
  if [[ $1 == "$java" && -z $jar ]]; then echo "no jar" > "$out/$f.err"; echo 127 > "$out/$f.rc"; : > "$out/$f"; return; fi
  "$@" > "$out/$f" 2> "$out/$f.err" & child=$!
  wait "$child"; local rc=$?; child=
  echo "$rc" > "$out/$f.rc"
  [[ $rc == 0 ]] || echo "$f: exit $rc ($(tail -1 "$out/$f.err"))" >&2
}

{
  echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r), $(nproc) CPUs; rounds $rounds"
  echo "# $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1); L3 $(lscpu 2>/dev/null | sed -n 's/^L3 cache: *//p'); NUMA nodes: $(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)"
  echo "# THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null); memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "# stream: $stream ($stream_elements elements an array: hostside's triad runs with --stream-array $stream_bytes beside it, and at its own size in hs-triad-rule); memref: $memref_build; java: $java ($("$java" -version 2>&1 | head -1)); jar: ${jar:-none}"
  echo "# chase: ${chase[*]#"$out/"}"
  echo "# read: ${readbw[*]#"$out/"}"
  echo "# load before: $(cat /proc/loadavg)"
} | tee "$out/meta.txt"

for r in $(seq "$rounds"); do
  echo "round $r/$rounds" >&2
  run "r$r-stream.txt" env -u OMP_NUM_THREADS "$stream"
  run "r$r-stream1.txt" env OMP_NUM_THREADS=1 "$stream"
  run "r$r-hs-triad.json" "${hs[@]}" memory_bandwidth_triad,memory_bandwidth_triad_one_thread --stream-array "$stream_bytes"
  run "r$r-hs-triad-rule.json" "${hs[@]}" memory_bandwidth_triad,memory_bandwidth_triad_one_thread
  run "r$r-chase.txt" "${chase[@]}"
  run "r$r-hs-latency.json" "${hs[@]}" memory_latency
  run "r$r-read.txt" "${readbw[@]}"
  run "r$r-hs-read.json" "${hs[@]}" memory_bandwidth_read
done
echo "# load after: $(cat /proc/loadavg)" >> "$out/meta.txt"

python3 bench/memory-table.py "$out" "$rounds" "$node" | tee "$out/table.md"
