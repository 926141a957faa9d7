#!/usr/bin/env bash
# Issue 16 on the H200 VM, second session: the locked-clocks confounder beside nvidia-smi, the NVML
# prototypes checked against the machine's own nvml.h, and a live report with its read-back.
#   bash bench/device-issue16-clocks.sh OUTDIR
# Needs .jre/ (bash ../shared/tools/device-jre.sh) and target/hostside.jar.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
hs() { .jre/bin/java --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
t() { local s=$(date +%s%N); "$@"; local rc=$?; echo "  ($(( ($(date +%s%N) - s) / 1000000 )) ms, rc $rc)" >&2; return $rc; }

echo "== machine: $(nproc) cores, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== clocks: nvidia-smi (the peer), hostside, nvidia-smi again"
q=clocks.applications.graphics,clocks.default_applications.graphics,clocks.applications.memory,clocks.default_applications.memory,power.limit,power.default_limit,clocks_event_reasons.active,clocks.sm,clocks.max.sm
nvidia-smi --query-gpu=$q --format=csv | sed 's/^/  nvidia-smi: /'
t hs machine --json --no-measure >"$out/machine.json" 2>"$out/machine.err"
python3 - "$out/machine.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["gpu"]["nvml"]["gpus"]:
    c = g.get("clocks")
    print(f"  hostside:   GPU{g['index']} SM {g['smClockMhz']}/{g['smClockMaxMhz']} MHz, clocks {json.dumps(c)}")
    print(f"  hostside:   GPU{g['index']} unknowns {g['unknowns']}")
PY
nvidia-smi --query-gpu=$q --format=csv,noheader | sed 's/^/  nvidia-smi: /'
t hs machine --no-measure >"$out/machine.txt" 2>>"$out/machine.err"; grep -A4 'clocks held' "$out/machine.txt" | sed 's/^/  /'

echo "== NVML prototypes and layouts against this machine's nvml.h"
h=$(ls /usr/local/cuda/include/nvml.h /usr/include/nvml.h /usr/local/cuda/targets/x86_64-linux/include/nvml.h 2>/dev/null | head -1)
echo "  header: ${h:-none}"
if [[ -n "$h" ]] && gcc -std=c11 -Wall -Werror -I"$(dirname "$h")" -o /tmp/nvml_layouts src/test/c/nvml_layouts.c 2>"$out/layouts.err"; then
  /tmp/nvml_layouts >"$out/layouts.txt"
  diff src/test/resources/nvml/layouts.txt "$out/layouts.txt" >"$out/layouts.diff" && echo "  layouts.txt: identical to the committed one" || { echo "  layouts.txt differs:"; head -20 "$out/layouts.diff"; }
else
  echo "  gcc failed:"; cat "$out/layouts.err" | head -20
fi

echo "== cpu facts, live (CPU sets typed)"
t hs cpu --json --no-measure >"$out/cpu.json" 2>"$out/cpu.err" || t hs cpu --json >"$out/cpu.json" 2>"$out/cpu.err"
python3 - "$out/cpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d.get("facts", d)
print("  onlineCpus", json.dumps(f.get("onlineCpus")), "| process", json.dumps((f.get("process") or {}).get("cpusAllowed")),
      "| feeders", json.dumps([(x.get("gpu"), x.get("localCpus"), x.get("feederCpus")) for x in f.get("feeders") or []]))
PY

echo "== report, live, then read back"
t hs report --out "$out/report" --name h200 >"$out/report.log" 2>"$out/report.err"; cat "$out/report.log"; tail -n 3 "$out/report.err"
python3 - "$out/report/h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("  schema", d["schema"], "| confounders", json.dumps(d["confounders"]), "|", len(d["figures"]), "figures")
PY
grep -i 'clocks locked' "$out/report/h200.md" | sed 's/^/  md: /'
t hs report --from "$out/report/h200.json" --out "$out/again" --name h200 >/dev/null 2>"$out/again.err"; cat "$out/again.err"
cmp "$out/report/h200.md" "$out/again/h200.md" && echo "  same Markdown" || echo "  Markdown differs"
cmp "$out/report/h200.html" "$out/again/h200.html" && echo "  same HTML" || echo "  HTML differs"
rm -rf "$out/again"
