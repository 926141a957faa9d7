#!/usr/bin/env bash
# Issues 18 and 21 on the device VM (H200 or H100), one device call (about 5 min):
#  1. issue 21: `report --quick` twice under GNU time (the fleet's quick profile; target < 30 s);
#  2. issue 18: Module 1's memory and per-core/per-node cases alone (`machine --only ...`) under GNU
#     time, with each case's time from the progress lines (target: the whole addition < 20 s);
#  3. issue 18: STREAM beside hostside's triad (all CPUs and one thread, at STREAM's array size),
#     interleaved, ROUNDS rounds (default 3); HS_VARIANTS names JVM flags for extra hostside runs
#     of each round (e.g. a kernel variant being tried), ';'-separated.
#   PEERS=$PWD/.peers18 bash bench/device-issue18-time.sh
# Carry .jre, the peers folder (bin/stream, bin/gnutime) and target/hostside.jar. Everything it
# writes goes into one tarball under $OUT; its summary to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/issue18-time; mkdir -p "$res"
peers=${PEERS:-.peers}; gnutime=$peers/bin/gnutime; stream=$peers/bin/stream
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED)
echo "== on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for i in $(seq "${QUICK:-2}"); do   # QUICK=0 skips issue 21's part
  echo "== report --quick $i $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  "$gnutime" -v "${java[@]}" -jar target/hostside.jar report --quick --out "$res" --name "device-quick$i" >"$res/quick$i.out" 2>"$res/quick$i.err"
  echo "exit $?"; grep -E "Elapsed|Maximum resident" "$res/quick$i.err"
done
only=memory_bandwidth_triad,memory_bandwidth_triad_one_thread,memory_bandwidth_read,memory_latency,launch_cost_by_core_kind,host_copies_by_node
IFS=';' read -r -a variants <<< "${HS_VARIANTS:-}"
variants=("" "${variants[@]}")
for v in "${variants[@]}"; do
  tag=${v:-plain}; tag=${tag//[^A-Za-z0-9]/_}
  echo "== machine --only (Module 1's addition) [$tag] $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  # shellcheck disable=SC2086  # the variant's flags are words on purpose
  "$gnutime" -v "${java[@]}" $v -jar target/hostside.jar machine --json --only "$only" >"$res/addition-$tag.json" 2>"$res/addition-$tag.err"
  echo "exit $?"; grep -E "Elapsed|Maximum resident|ok in|not run|failed" "$res/addition-$tag.err"
done
elements=$("$stream" 2>/dev/null | sed -n 's/^Array size = \([0-9]*\).*/\1/p' | head -1)
for r in $(seq "${ROUNDS:-3}"); do
  echo "== round $r $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  env -u OMP_NUM_THREADS "$stream" >"$res/r$r-stream.txt" 2>&1
  env OMP_NUM_THREADS=1 "$stream" >"$res/r$r-stream1.txt" 2>&1
  for v in "${variants[@]}"; do
    tag=${v:-plain}; tag=${tag//[^A-Za-z0-9]/_}
    # shellcheck disable=SC2086
    "${java[@]}" $v -jar target/hostside.jar machine --json --only memory_bandwidth_triad,memory_bandwidth_triad_one_thread \
      --stream-array $((elements * 8)) >"$res/r$r-hs-$tag.json" 2>"$res/r$r-hs-$tag.err"
  done
done
python3 - "$res" "${ROUNDS:-3}" "${variants[@]}" <<'PY'
import json, re, sys, statistics
res, rounds, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def stream_triad(f):
    m = re.search(r"^Triad:\s+([\d.]+)", open(f).read(), re.M)
    return float(m.group(1)) / 1000 if m else None
def hs(f):
    out = {}
    def walk(o):
        if isinstance(o, dict):
            if o.get("key") in ("memory_bandwidth_triad", "memory_bandwidth_triad_one_thread") and isinstance(o.get("value"), dict):
                out.setdefault(o["key"], o["value"])
            for v in o.values(): walk(v)
        elif isinstance(o, list):
            for v in o: walk(v)
    try: walk(json.load(open(f)))
    except Exception as e: print(f, e)
    return out
print("round | STREAM all | STREAM 1 | " + " | ".join(f"{v or 'plain'} all med (max) | 1 thread med (max)" for v in variants))
for r in range(1, rounds + 1):
    row = [str(r), "%.1f" % (stream_triad(f"{res}/r{r}-stream.txt") or 0), "%.2f" % (stream_triad(f"{res}/r{r}-stream1.txt") or 0)]
    for v in variants:
        tag = re.sub(r"[^A-Za-z0-9]", "_", v or "plain")
        h = hs(f"{res}/r{r}-hs-{tag}.json")
        a, o = h.get("memory_bandwidth_triad", {}), h.get("memory_bandwidth_triad_one_thread", {})
        row.append("%.1f (%.1f)" % (a.get("median", 0), a.get("max", 0)))
        row.append("%.2f (%.2f)" % (o.get("median", 0), o.get("max", 0)))
    print(" | ".join(row))
PY
tar -czf "${OUT:-/tmp}/issue18-time.tar.gz" -C "${OUT:-/tmp}" issue18-time && rm -rf "$res"
echo "== done $(date -u +%T)"
