#!/usr/bin/env bash
# The report's own bars in one device call (a minute for `report`, ten seconds for `report --quick`, each
# figure beside its peer): where a quick report's time goes (its stderr stamped, under GNU time's wall and
# peak RSS), whether the JIT compiles inside a jitter recording (the four launch conditions under
# -Xlog:jit+compilation: each recording's jitInRecordingMs and warm-up, the feeder's compilations), then,
# with a before-bundle, `bench/run report-costs` before and after (one round: the same machine, minutes apart),
# then as many `bench/run report-peers` rounds as the time left holds (join them across calls with
# `bench/run report-peers --merge`). Every output is kept in $OUT.
#
#   bench/run minute [SECONDS [BEFORE-BUNDLE.tar.gz]]     (SECONDS: the call's budget, default 585; the before-bundle
#                                                          may be thin, as report-costs --before takes it)
set -uo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
out=${OUT:-/tmp/bench/minute}
budget=${1:-585}
before=${2:-}
[[ -z $before || -f $before ]] || { echo "no before-bundle at $before"; exit 2; }
mkdir -p "$out"
t0=$SECONDS
repo=$(cd "$(dirname "$0")/../.." && pwd)
$HOSTSIDE --version >/dev/null 2>&1 || { echo "$HOSTSIDE does not start"; exit 1; }
date -u
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

stamp() { python3 -u -c "import sys,time
t=time.monotonic()
for l in sys.stdin: print('%8.3f %s' % (time.monotonic()-t, l), end='', flush=True)"; }
timer=(/usr/bin/time -f "wall %e s, peak RSS %M KiB")
[[ -x /usr/bin/time ]] || timer=()
[[ -n ${HOSTSIDE_PEERS:-} && -x $HOSTSIDE_PEERS/bin/gnutime ]] && timer=("$HOSTSIDE_PEERS/bin/gnutime" -f "wall %e s, peak RSS %M KiB")

echo; echo "## report --quick, its stderr stamped (s since start)"
{ "${timer[@]}" timeout 120 $HOSTSIDE report --quick --out "$out/quick" 2>&1 >"$out/quick.out"; } | stamp >"$out/quick-stamped.txt"
grep -v "not run" "$out/quick-stamped.txt" | cut -c1-160

echo; echo "## the launch conditions under the JIT's log"
HOSTSIDE_JAVA_OPTS="-Xlog:jit+compilation=debug:file=$out/jit.log:uptimemillis" timeout 90 $HOSTSIDE cpu \
  --only launch_jitter_quiet,launch_jitter_noisy,launch_jitter_pinned,launch_jitter_graph --json >"$out/cpu-jit.json" 2>"$out/cpu-jit.err"
echo "cpu exit $?"
python3 - "$out/cpu-jit.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit("no JSON from the cpu drill (see cpu-jit.err)")
def walk(x):
    if isinstance(x, dict):
        dd = x.get("detail")
        if "key" in x and isinstance(dd, dict) and "jitInRecordingMs" in dd:
            v = x.get("value") or {}
            print(f'{x["key"]}: JIT {dd.get("jitInRecordingMs")} ms inside the recording, warm-up {dd.get("warmupMs")} ms, '
                  f'settled {dd.get("jitSettledInWarmup")}, p50 {v.get("median")}')
        for y in x.values(): walk(y)
    elif isinstance(x, list):
        for y in x: walk(y)
walk(d)
PY
grep -E "Feeder|Ticker" "$out/jit.log" >"$out/jit-feeder.log" 2>/dev/null; echo "$(wc -l <"$out/jit-feeder.log") compilations of the feeder (jit-feeder.log)"

cd "$repo" || exit 1
if [[ -n $before ]]; then
  echo; echo "## report-costs, before ($before) and after, one round"
  left=$((budget - (SECONDS - t0)))
  timeout "$left" python3 bench/run report-costs --rounds 1 --before "$before" --out "$out/costs" >"$out/report-costs.txt" 2>&1
  echo "report-costs exit $? at $((SECONDS - t0)) s"
  grep -E "^\| report" "$out/report-costs.txt"
fi

n=0
while :; do
  left=$((budget - (SECONDS - t0)))
  # a round is the report and every peer: some 165 s on the H100 VM
  ((left > 180)) || { echo "no time left for another report-peers round ($left s)"; break; }
  n=$((n + 1))
  sleep 10 # the disk's writeback of the run before, out of the report's first drill
  echo; echo "## report-peers round $n (load $(cut -d' ' -f1-3 /proc/loadavg))"
  timeout "$left" python3 bench/run report-peers --rounds 1 --out "$out/peers$n" >"$out/report-peers-$n.txt" 2>&1
  echo "report-peers exit $? at $((SECONDS - t0)) s"
  grep -E "^verdicts|report: wall|report: peak" "$out/report-peers-$n.txt" | cut -c1-200
done
((n > 1)) && python3 bench/run report-peers --merge $(for i in $(seq 1 $n); do printf '%s ' "$out/peers$i"; done) >"$out/report-peers-merged.txt" 2>&1 \
  && grep -E "^verdicts" "$out/report-peers-merged.txt"
date -u
