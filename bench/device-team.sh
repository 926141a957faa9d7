#!/usr/bin/env bash
# The memory team's barrier on the device VM, one call (about 6 min): STREAM beside two hostside
# jars, interleaved, ROUNDS rounds (default 4), every CPU and one thread, hostside's triad at
# STREAM's array size; the jars' order flips each round. Then bench/memory-vs-peers.sh with the new
# jar (3 rounds) and Module 1's addition under GNU time.
#   OLD=.jarold/hostside.jar PEERS=$PWD/.peers18 bash bench/device-team.sh
# Carry .jre.tar.xz (unpack it first), .peers18 (bin/stream, bin/gnutime), target/hostside.jar (new)
# and the old jar's folder. Everything goes into one tarball under $OUT, the tables to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/team; mkdir -p "$res"
peers=${PEERS:-.peers}; stream=$peers/bin/stream
old=${OLD:?OLD names the jar to compare with}; new=target/hostside.jar
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED)
echo "== on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
elements=$("$stream" 2>/dev/null | sed -n 's/^Array size = \([0-9]*\).*/\1/p' | head -1)
hs() { "${java[@]}" -jar "$1" machine --json --only memory_bandwidth_triad,memory_bandwidth_triad_one_thread --stream-array $((elements * 8)) >"$2" 2>"$2.err"; }
for r in $(seq "${ROUNDS:-4}"); do
  echo "== round $r $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  env -u OMP_NUM_THREADS "$stream" >"$res/r$r-stream.txt" 2>&1
  env OMP_NUM_THREADS=1 "$stream" >"$res/r$r-stream1.txt" 2>&1
  if ((r % 2)); then hs "$old" "$res/r$r-old.json"; hs "$new" "$res/r$r-new.json"
  else hs "$new" "$res/r$r-new.json"; hs "$old" "$res/r$r-old.json"; fi
done
python3 - "$res" "${ROUNDS:-4}" <<'PY'
import json, re, sys, statistics
res, rounds = sys.argv[1], int(sys.argv[2])
def triad(f):
    m = re.search(r"^Triad:\s+([\d.]+)\s+([\d.]+)", open(f).read(), re.M)
    return float(m.group(1)) / 1000 if m else 0
def hs(f):
    out = {}
    try:
        for x in json.load(open(f))["memory"]["results"]:
            v = x["result"].get("value")
            if v: out[x["result"]["key"]] = v
    except Exception as e: print(f, e)
    return out
K, K1 = "memory_bandwidth_triad", "memory_bandwidth_triad_one_thread"
print("| round | STREAM | old median (max) | new median (max) | old/STREAM | new/STREAM | STREAM 1 | old 1 | new 1 | old1/S | new1/S |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
ratios = {"o": [], "n": [], "o1": [], "n1": []}
for r in range(1, rounds + 1):
    s, s1 = triad(f"{res}/r{r}-stream.txt"), triad(f"{res}/r{r}-stream1.txt")
    o, n = hs(f"{res}/r{r}-old.json"), hs(f"{res}/r{r}-new.json")
    om, nm = o.get(K, {}).get("median", 0), n.get(K, {}).get("median", 0)
    o1, n1 = o.get(K1, {}).get("median", 0), n.get(K1, {}).get("median", 0)
    ratios["o"].append(om / s if s else 0); ratios["n"].append(nm / s if s else 0)
    ratios["o1"].append(o1 / s1 if s1 else 0); ratios["n1"].append(n1 / s1 if s1 else 0)
    print(f"| {r} | {s:.1f} | {om:.1f} ({o.get(K, {}).get('max', 0):.1f}) | {nm:.1f} ({n.get(K, {}).get('max', 0):.1f}) | {om/s:.3f} | {nm/s:.3f} | {s1:.2f} | {o1:.2f} | {n1:.2f} | {o1/s1:.3f} | {n1/s1:.3f} |")
print("median ratios: " + ", ".join(f"{k} {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})" for k, v in ratios.items()))
PY
echo "== memory-vs-peers with the new jar $(date -u +%T)"
JAR=$new PEERS=${PEERS:-$PWD/.peers} bash bench/memory-vs-peers.sh "$res/peers" 3 2>"$res/peers.err" | sed -n '1,8p'
only=memory_bandwidth_triad,memory_bandwidth_triad_one_thread,memory_bandwidth_read,memory_latency,launch_cost_by_core_kind,host_copies_by_node
echo "== Module 1's addition, new jar $(date -u +%T)"
"$peers"/bin/gnutime -v "${java[@]}" -jar "$new" machine --json --only "$only" >"$res/addition.json" 2>"$res/addition.err"
echo "exit $?"; grep -E "Elapsed|Maximum resident|ok in|not run|failed" "$res/addition.err"
tar -czf "${OUT:-/tmp}/team.tar.gz" -C "${OUT:-/tmp}" team && rm -rf "$res"
echo "== done $(date -u +%T)"
