#!/usr/bin/env bash
# Issue 17: hostside's scheduler costs beside the C references, in one run, interleaved
# (peer, hostside, peer, hostside...), each round:
#   refs syscall                        getppid by syscall(2) in a C loop, ns/call
#   refs pingpong futex A A             futex ping-pong of two threads on CPU A, ns/hand-over
#   refs pingpong futex A B             the same across CPUs A and B
#   hostside cpu --only syscall_getppid,context_switch_same_core,context_switch_cross_core --json
# A and B are the first two CPUs this process may use: the ones hostside pins to.
#
# Prints a ratio table (figure, hostside median over rounds, peer median over rounds, the median
# of the rounds' ratios hostside/peer and their range) and keeps every run's output in OUTDIR.
# Nothing else heavy may run meanwhile: /proc/loadavg is noted before each run. On a shared
# machine WAIT_IDLE=SECONDS makes each run wait, up to that long, for a second in which the
# CPUs were at least 90% idle (the idle share it saw is noted beside the load).
#
# Usage, from the repository root or anywhere:
#   bench/issue17-sched.sh OUTDIR [ROUNDS]          (ROUNDS default 3)
#   JAR=/path/to/hostside.jar bench/issue17-sched.sh OUTDIR 5
#   BEFORE=/path/to/older.jar bench/issue17-sched.sh OUTDIR   (that jar too, each round after
#     the current one: its rows say "before")
# Peers: $PEERS, else .peers/ in the checkout, else /work/shared/tools/peers. Java: .jre/bin/java
# when it exists, else $JAVA_HOME/bin/java, else java; with the flags ./hostside gives `cpu`.
set -uo pipefail
out=${1:?usage: bench/issue17-sched.sh OUTDIR [ROUNDS]}
rounds=${2:-3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# jars named on the command line are relative to where it was typed
[[ -n ${JAR:-} ]] && JAR=$(realpath -- "$JAR")
[[ -n ${BEFORE:-} ]] && BEFORE=$(realpath -- "$BEFORE")
cd "$(dirname "$0")/.." || exit 1

. bench/lib.sh
bench_refs
bench_java
J=("${CPU_JAVA[@]}" -jar)
before=${BEFORE:-}
[[ -z $before || -f $before ]] || { echo "no jar at $before (BEFORE)" >&2; exit 1; }
keys=syscall_getppid,context_switch_same_core,context_switch_cross_core

# the CPUs hostside pins to: the first two of this process's affinity (Cpus_allowed_list)
cpus=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0))[:2])))')
read -r cpu_a cpu_b <<<"$cpus"
[[ -n $cpu_a ]] || { echo "cannot read this process's CPUs" >&2; exit 1; }

# a run that is interrupted leaves no child behind
child=
trap '[[ -n $child ]] && kill "$child" 2>/dev/null; exit 130' INT TERM
idle_pct() {  # the CPUs' idle share over the next second, %, from /proc/stat
  local _ u n s i w q sq st b t
  read -r _ u n s i w q sq st _ </proc/stat; b=$((u + n + s + q + sq + st)); t=$((b + i + w))
  sleep 1
  read -r _ u n s i w q sq st _ </proc/stat
  echo $(( 100 - 100 * (u + n + s + q + sq + st - b) / (u + n + s + q + sq + st + i + w - t) ))
}
wait_idle() {
  local end=$((SECONDS + ${WAIT_IDLE:-0})) idle
  [[ ${WAIT_IDLE:-0} -gt 0 ]] || return 0
  while :; do
    idle=$(idle_pct)
    if [[ $idle -ge 90 || $SECONDS -ge $end ]]; then echo "idle ${idle}%"; return 0; fi
  done
}
run() {  # $1: file; the rest: the command, its output into the file, the load before it beside
  local f=$1; shift
  local idle; idle=$(wait_idle)
  echo "$(cut -d' ' -f1-3 /proc/loadavg) $idle" >"$out/$f.load"
  "$@" >"$out/$f" 2>"$out/$f.err" & child=$!
  wait "$child"; local rc=$?; child=
  [[ $rc == 0 ]] || echo "$f: exit $rc ($(tail -1 "$out/$f.err"))" >&2
}

{
  echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r), $(nproc) CPUs; CPUs $cpu_a and ${cpu_b:-none}; rounds $rounds"
  echo "# refs: $refs; java: $java ($("$java" -version 2>&1 | head -1)); jar: $jar${before:+; before: $before}"
  echo "# load before: $(cat /proc/loadavg)"
} | tee "$out/meta.txt"

for r in $(seq "$rounds"); do
  echo "round $r/$rounds" >&2
  run "r$r-peer-syscall.txt" "$refs" syscall
  run "r$r-hostside.json" "${J[@]}" "$jar" cpu --only "$keys" --json
  [[ -n $before ]] && run "r$r-before.json" "${J[@]}" "$before" cpu --only "$keys" --json
  run "r$r-peer-same.txt" "$refs" pingpong futex "$cpu_a" "$cpu_a"
  [[ -n ${cpu_b:-} ]] && run "r$r-peer-cross.txt" "$refs" pingpong futex "$cpu_a" "$cpu_b"
done

python3 - "$out" "$rounds" <<'PY' | tee "$out/table.md"
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
# hostside key -> the peer's file and the label of its line
pairs = [("syscall_getppid", "peer-syscall", "refs syscall"),
         ("context_switch_same_core", "peer-same", "refs pingpong futex A A"),
         ("context_switch_cross_core", "peer-cross", "refs pingpong futex A B")]

def peer(r, f):
    p = os.path.join(out, f"r{r}-{f}.txt")
    if not os.path.exists(p): return None
    m = re.search(r"^\S+ median ([0-9.]+)", open(p).read(), re.M)
    return float(m.group(1)) if m else None

def ours(r, which="hostside"):
    try: d = json.load(open(os.path.join(out, f"r{r}-{which}.json")))
    except (OSError, ValueError): return {}
    return {x["key"]: x for x in d["measured"]["results"] if x["status"] == "ok"}

runs = [ours(r) for r in range(1, rounds + 1)]
olds = [ours(r, "before") for r in range(1, rounds + 1)]
loads = sorted(float(open(os.path.join(out, f)).read().split()[0]) for f in os.listdir(out) if f.endswith(".load"))
def med(v): return statistics.median(v) if v else float("nan")
print("| figure | hostside median | peer median | ratio (median of rounds) | ratio range | rounds | peer |")
print("| --- | ---: | ---: | ---: | --- | ---: | --- |")
for key, f, label in pairs:
    for name, which in (("", runs), (" before", olds)):
        if name and not any(olds): continue
        hs, ps, ratios = [], [], []
        for r in range(1, rounds + 1):
            h, p = which[r - 1].get(key), peer(r, f)
            if h: hs.append(h["value"]["median"])
            if p: ps.append(p)
            if h and p: ratios.append(h["value"]["median"] / p)
        rng = f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-"
        print(f"| {key}{name} (ns) | {med(hs):.0f} | {med(ps):.0f} | {med(ratios):.2f} | {rng} | {len(ratios)} | {label} |")
# each round's figures: a machine that flips between two modes (seen on the H200) shows it here
print("\n| round | " + " | ".join(f"{k} hostside{n} / peer" for k, _, _ in pairs for n in (("", " before") if any(olds) else ("",))) + " |")
print("| ---: |" + " ---: |" * (len(pairs) * (2 if any(olds) else 1)))
for r in range(1, rounds + 1):
    cells = []
    for key, f, _ in pairs:
        p = peer(r, f)
        for which in ((runs, olds) if any(olds) else (runs,)):
            h = which[r - 1].get(key)
            cells.append((f"{h['value']['median']:.0f}" if h else "-") + " / " + (f"{p:.0f}" if p else "-"))
    print(f"| {r} | " + " | ".join(cells) + " |")
if loads: print(f"\n1-minute load before the runs: {loads[0]:.2f} to {loads[-1]:.2f} (median {med(loads):.2f})")
idles = sorted(int(l.split("idle ")[1].rstrip("%\n")) for l in (open(os.path.join(out, f)).read() for f in os.listdir(out) if f.endswith(".load")) if "idle " in l)
if idles: print(f"CPUs idle in the second before each run (WAIT_IDLE): {idles[0]}% to {idles[-1]}%, {sum(i >= 90 for i in idles)} of {len(idles)} runs at 90% or more")
# beside the syscall: what the detail says the native call and the kernel took
for name, which in (("", runs), (" before", olds)):
    det = [x["syscall_getppid"]["detail"] for x in which if "syscall_getppid" in x]
    if det:
        print(f"\nsyscall_getppid{name} detail, median over rounds: native call that stays in user space %.1f ns, kernel's share %.0f ns"
              % (med([d["nativeCallNs"] for d in det]), med([d["kernelNs"] for d in det])))
PY
