#!/usr/bin/env bash
# Issue 17: which of hostside's JVM threads run while its timer loop records under `refs hog`
# (the condition where hostside's loop misses more ticks than refs timer's): ROUNDS (default 3)
# runs of `cpu --only timer_jitter_quiet` with one refs hog per CPU, every thread sampled every
# 0.2 s (bench/thread-sampler.sh). Prints, per run, the threads that gained CPU time after the
# warm-up (the feeder's first sample plus the run's warmupMs), with the CPUs they ran on.
#   bench/issue17-threads.sh OUTDIR [ROUNDS]
set -uo pipefail
out=${1:?usage: bench/issue17-threads.sh OUTDIR [ROUNDS]}; rounds=${2:-3}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_refs
bench_java
set -m
"$refs" hog "$(nproc)" 600 >/dev/null 2>&1 &
hog=$!
trap 'kill -- -"$hog" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
sleep 1
for r in $(seq 1 "$rounds"); do
  "${CPU_JAVA[@]}" -jar "$jar" cpu --only timer_jitter_quiet --json >"$out/r$r.json" 2>"$out/r$r.err" &
  p=$!
  bash bench/thread-sampler.sh "$p" "$out/r$r.threads" 2>/dev/null  # a thread may end between the listing and the read
  wait "$p"
done
python3 - "$out" "$rounds" <<'PY'
import collections, json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
for r in range(1, rounds + 1):
    d = json.load(open(f"{out}/r{r}.json"))
    det = next(x["detail"] for x in d["measured"]["results"] if x["key"] == "timer_jitter_quiet")
    rows = [l.rstrip("\n").split(" | ") for l in open(f"{out}/r{r}.threads")]
    s = collections.defaultdict(list)
    for head, name, cpu, ticks in rows:
        t, task = head.split()
        s[(task.split("/")[0], name)].append((float(t), int(ticks.split()[1]), cpu.split()[1]))
    feeder = next((v for (tid, n), v in s.items() if n == "hostside-feeder"), None)
    if not feeder:
        print(f"run {r}: no feeder thread seen"); continue
    start, end = feeder[0][0] + det["warmupMs"] / 1000, feeder[-1][0]
    print(f"run {r}: missed ticks {det['missedTicks']}, recording {end - start:.1f} s (warm-up {det['warmupMs']} ms, JIT settled {det['jitSettledInWarmup']})")
    for (tid, n), v in sorted(s.items()):
        inside = [(t, k, c) for t, k, c in v if start <= t <= end]
        if len(inside) > 1 and inside[-1][1] > inside[0][1]:
            print(f"  {n:20s} tid {tid}: {inside[-1][1] - inside[0][1]} ticks on CPUs {','.join(sorted(set(c for _, _, c in inside)))}")
PY
