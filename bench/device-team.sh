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
# memory-table.py's parsers: STREAM's Triad line, hostside's typed figure
import importlib.util, statistics, sys
spec = importlib.util.spec_from_file_location("memory_table", "bench/memory-table.py")
mt = importlib.util.module_from_spec(spec); spec.loader.exec_module(mt)
res, rounds = sys.argv[1], int(sys.argv[2])
def best(tag, r):
    s, _ = mt.stream(res, r, tag)
    return s["best"] if s else float("nan")
def hs(tag, r, key):
    f, _ = mt.hostside(res, r, tag, key, "machine")
    return (f["value"], f["max"]) if f else (float("nan"), float("nan"))
print("| round | threads | STREAM best | old median (max) | new median (max) | old / STREAM | new / STREAM |")
print("|---:|---|---:|---:|---:|---:|---:|")
ratios = {}
for r in range(1, rounds + 1):
    for threads, stag, key in (("all", "stream", "memory_bandwidth_triad"), ("one", "stream1", "memory_bandwidth_triad_one_thread")):
        s, (om, ox), (nm, nx) = best(stag, r), hs("old", r, key), hs("new", r, key)
        ratios.setdefault(f"old/{threads}", []).append(om / s); ratios.setdefault(f"new/{threads}", []).append(nm / s)
        print(f"| {r} | {threads} | {s:.2f} | {om:.2f} ({ox:.2f}) | {nm:.2f} ({nx:.2f}) | {om / s:.3f} | {nm / s:.3f} |")
print("median ratios: " + ", ".join(f"{k} {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})" for k, v in ratios.items()))
PY
echo "== memory-vs-peers with the new jar $(date -u +%T)"
JAR=$new PEERS=${PEERS:-$PWD/.peers} bash bench/memory-vs-peers.sh "$res/peers" 3 2>"$res/peers.err" | tail -n 25
only=memory_bandwidth_triad,memory_bandwidth_triad_one_thread,memory_bandwidth_read,memory_latency,launch_cost_by_core_kind,host_copies_by_node
echo "== Module 1's addition, new jar $(date -u +%T)"
"$peers"/bin/gnutime -v "${java[@]}" -jar "$new" machine --json --only "$only" >"$res/addition.json" 2>"$res/addition.err"
echo "exit $?"; grep -E "Elapsed|Maximum resident|ok in|not run|failed" "$res/addition.err"
tar -czf "${OUT:-/tmp}/team.tar.gz" -C "${OUT:-/tmp}" team && rm -rf "$res"
echo "== done $(date -u +%T)"
