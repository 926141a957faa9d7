#!/usr/bin/env bash
# Is hostside's every-CPU triad below STREAM's because hostside pins its threads and the STREAM
# build runs unpinned? STREAM unpinned, STREAM with OMP_PROC_BIND=true OMP_PLACES=cores (one thread
# bound to each core, as hostside binds one to each CPU) and hostside at STREAM's array size,
# interleaved, ROUNDS rounds (default 5), their order rotated each round (one device call, ~2 min).
#   PEERS=$PWD/.peers18 bash bench/device-triad-pinning.sh
# Carry .jre (or .jre.tar.xz, unpacked first), the peers folder (bin/stream) and target/hostside.jar.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/pinning; mkdir -p "$res"
stream=${PEERS:-.peers}/bin/stream
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED)
echo "== on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
elements=$("$stream" 2>/dev/null | sed -n 's/^Array size = \([0-9]*\).*/\1/p' | head -1)
one() {  # one NAME ROUND
  case $1 in
    free) env -u OMP_NUM_THREADS -u OMP_PROC_BIND -u OMP_PLACES "$stream" >"$res/r$2-free.txt" 2>&1 ;;
    bound) env -u OMP_NUM_THREADS OMP_PROC_BIND=true OMP_PLACES=cores "$stream" >"$res/r$2-bound.txt" 2>&1 ;;
    hs) "${java[@]}" -jar target/hostside.jar machine --json --only memory_bandwidth_triad --stream-array $((elements * 8)) >"$res/r$2-hs.json" 2>"$res/r$2-hs.err" ;;
  esac
}
order=(free bound hs)
for r in $(seq "${ROUNDS:-5}"); do
  echo "== round $r $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg): ${order[*]}"
  for x in "${order[@]}"; do one "$x" "$r"; done
  order=("${order[@]:1}" "${order[0]}")
done
python3 - "$res" "${ROUNDS:-5}" <<'PY'
# memory-table.py's parsers: STREAM's Triad line, hostside's typed figure
import importlib.util, statistics, sys
spec = importlib.util.spec_from_file_location("memory_table", "bench/memory-table.py")
mt = importlib.util.module_from_spec(spec); spec.loader.exec_module(mt)
res, rounds = sys.argv[1], int(sys.argv[2])
def best(tag, r):
    s, _ = mt.stream(res, r, tag)
    return s["best"] if s else float("nan")
print("| round | STREAM unpinned best | STREAM bound best | hostside median (max) | bound / unpinned | hostside median / unpinned | / bound | hostside max / bound |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
q = {"b/f": [], "h/f": [], "h/b": [], "hx/b": []}
for r in range(1, rounds + 1):
    f, b = best("free", r), best("bound", r)
    h, _ = mt.hostside(res, r, "hs", "memory_bandwidth_triad", "machine")
    hm, hx = (h["value"], h["max"]) if h else (float("nan"), float("nan"))
    q["b/f"].append(b / f); q["h/f"].append(hm / f); q["h/b"].append(hm / b); q["hx/b"].append(hx / b)
    print(f"| {r} | {f:.1f} | {b:.1f} | {hm:.1f} ({hx:.1f}) | {b/f:.3f} | {hm/f:.3f} | {hm/b:.3f} | {hx/b:.3f} |")
print("medians: " + ", ".join(f"{k} {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})" for k, v in q.items()))
PY
tar -czf "${OUT:-/tmp}/pinning.tar.gz" -C "${OUT:-/tmp}" pinning && rm -rf "$res"
echo "== done $(date -u +%T)"
