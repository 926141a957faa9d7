#!/usr/bin/env bash
# Issue 19 on the H200 VM, one device call (about 2 min): `rack` as a user runs it (text, then
# --json) under GNU time, a snapshot that now holds the rack's files read back through --root,
# and nvml_layouts.c built against the machine's real nvml.h, diffed with the committed
# src/test/resources/nvml/layouts.txt (the NVML structs issue 19 added were written from a copy
# of the header, not this one).
#   PEERS=$PWD/.peers18 bash bench/device-issue19.sh     (on the device, from the checkout; $OUT set by it)
# Carry .jre, the peers folder (bin/gnutime) and target/hostside.jar, as for device-issue18.sh.
# What it writes goes into one tarball under $OUT; a summary to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
res=${OUT:-/tmp}/issue19; mkdir -p "$res"
gnutime=${PEERS:-.peers}/bin/gnutime
java=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions
      -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0 -jar target/hostside.jar)
echo "== issue 19 on $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo "== rack $(date -u +%T)"
"$gnutime" -v "${java[@]}" rack >"$res/rack.txt" 2>"$res/rack.err"
grep -E "Elapsed|Maximum resident" "$res/rack.err"
sed -n '1,60p' "$res/rack.txt"
"${java[@]}" rack --json >"$res/rack.json" 2>"$res/rack-json.err"; echo "rack --json exit $?"
python3 - "$res/rack.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("platform:", d["platform"]["kind"], "-", d["platform"]["evidence"])
for r in d.get("fabricReadiness", []):
    print("readiness GPU", r["ordinal"], r["outcome"], r.get("failedStep"), "-", r["why"])
    for s in r["steps"]:
        print("   ", s["name"], s["outcome"], s.get("call"), s.get("error"), s.get("errorCode"), s.get("micros"), "us")
PY
echo "== snapshot read back $(date -u +%T)"
"${java[@]}" snapshot -o "$res/h200-snapshot.tar.gz" >"$res/snapshot.out" 2>&1; echo "snapshot exit $?"
"${java[@]}" rack --root "$res/h200-snapshot.tar.gz" >"$res/rack-root.txt" 2>&1; echo "rack --root exit $?"
# the table's rows, less the items only a live machine answers (a recording says "not run" there)
rows() { grep -E '^  [a-z0-9_]+ {2,}(ok|info|warn|bad|unknown|n/a|not run) ' "$1" | grep -vE '^  (memory_bandwidth|process_placement|persistence|c2c_link|fabric_state|fabric_readiness|nvls|failure_domain) '; }
diff <(rows "$res/rack.txt") <(rows "$res/rack-root.txt") \
     > "$res/rack-live-vs-root.diff" && echo "live and --root agree on every item a recording answers" || { echo "live and --root differ:"; head -20 "$res/rack-live-vs-root.diff"; }
echo "== nvml.h layouts $(date -u +%T)"
hdr=$(ls -d /usr/local/cuda/include /usr/local/cuda-*/include /usr/include 2>/dev/null | while read -r d; do [[ -f $d/nvml.h ]] && echo "$d" && break; done)
if [[ -n $hdr ]] && gcc -std=c11 -Wall -Werror -I"$hdr" -o "$res/nvml_layouts" src/test/c/nvml_layouts.c 2>"$res/nvml_layouts.err"; then
  "$res/nvml_layouts" > "$res/layouts.txt"
  diff src/test/resources/nvml/layouts.txt "$res/layouts.txt" > "$res/layouts.diff" && echo "layouts.txt matches $hdr/nvml.h" \
    || { echo "layouts.txt differs from $hdr/nvml.h:"; head -30 "$res/layouts.diff"; }
else
  echo "nvml_layouts.c did not build against ${hdr:-no nvml.h found}:"; head -5 "$res/nvml_layouts.err" 2>/dev/null
fi
rm -f "$res/nvml_layouts"
tar -czf "${OUT:-/tmp}/issue19.tar.gz" -C "${OUT:-/tmp}" issue19 && rm -rf "$res"
echo "== done $(date -u +%T)"
