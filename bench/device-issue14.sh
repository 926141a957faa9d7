#!/usr/bin/env bash
# Issue 14 on a real machine (the H200 VM): hostside's safety promises checked from outside.
#   bash bench/device-issue14.sh OUTDIR
# Needs .jre/ (bash ../shared/tools/device-jre.sh) and target/hostside.jar beside it, root,
# util-linux (unshare). Each part prints PASS or FAIL lines; the last line counts them.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
hs() { .jre/bin/java --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
# In the background: exec, so that $! is the JVM itself and kill -9 hits hostside, not a subshell.
hs_bg() { exec .jre/bin/java --enable-native-access=ALL-UNNAMED -XX:-UsePerfData -jar target/hostside.jar "$@"; }
pass=0; fail=0
ok() { echo "PASS $*"; pass=$((pass+1)); }
bad() { echo "FAIL $*"; fail=$((fail+1)); }
descendants() { local p=$1 c; for c in $(pgrep -P "$p"); do echo "$c"; descendants "$c"; done; }
alive() { local n=0 p; for p in "$@"; do [[ -d /proc/$p && $(awk '{print $3}' /proc/$p/stat 2>/dev/null) != Z ]] && n=$((n+1)); done; echo $n; }

# Starts "hostside ARGS" in the background, waits until it has at least MIN descendants whose
# comm matches RE, SIGKILLs the JVM and checks every descendant seen is gone 5 s later.
kill_test() {
  local name=$1 min=$2 re=$3; shift 3
  hs_bg "$@" >"$out/$name.log" 2>&1 & local jvm=$!
  local seen=() t
  for t in $(seq 1 120); do
    sleep 0.25
    mapfile -t seen < <(descendants $jvm)
    local n=0 p; for p in "${seen[@]}"; do grep -qE "$re" /proc/$p/comm 2>/dev/null && n=$((n+1)); done
    ((n >= min)) && break
  done
  [[ $(cat /proc/$jvm/comm 2>/dev/null) == java ]] || bad "$name: pid $jvm is not the JVM"
  { echo "descendants before SIGKILL:"; for p in "${seen[@]}"; do echo "$p $(cat /proc/$p/comm 2>/dev/null)"; done; } >>"$out/$name.log"
  kill -9 $jvm; wait $jvm 2>/dev/null
  sleep 5
  local left; left=$(alive "${seen[@]}")
  if ((${#seen[@]} == 0)); then bad "$name: no child seen within 30 s (see $name.log)"
  elif ((left == 0)); then ok "$name: ${#seen[@]} children (${re}), all gone 5 s after SIGKILL of hostside"
  else bad "$name: $left of ${#seen[@]} children still alive after SIGKILL"; ps -o pid,ppid,pgid,comm -p "$(IFS=,; echo "${seen[*]}")" >>"$out/$name.log"; fi
}

echo "== machine"; hs machine --json >"$out/machine.json" 2>"$out/machine.err" && ok "machine --json" || bad "machine --json rc=$?"

echo "== children die with hostside (SIGKILL)"
kill_test hogs 2 'sh' cpu --only launch_jitter_noisy --launches 20000 --period-us 1000
kill_test dataloader 3 python cpu --only dataloader_cow_list --workers 4
if command -v strace >/dev/null; then kill_test trace 2 'strace|sleep' cpu --trace -- sleep 60
else echo "NOT RUN trace: no strace on this machine"; fi

echo "== two io runs in separate PID namespaces, one folder"
d=/var/tmp/hostside-issue14; rm -rf "$d"; mkdir -p "$d"
for i in 1 2; do unshare --pid --fork --mount-proc bash -c "$(declare -f hs); hs io --dir $d --size 256M --json" >"$out/io$i.json" 2>"$out/io$i.err" & done; wait
for i in 1 2; do
  python3 - "$out/io$i.json" <<'PY' && ok "io run $i in its own PID namespace: exit 0, every figure measured" || bad "io run $i (see io$i.err)"
import json, sys
d = json.load(open(sys.argv[1]))
rs = d.get("results") or d.get("measurements") or []
failed = [r["key"] for r in rs if r.get("status") not in ("ok", "OK")]
print(len(rs), "results; not ok:", failed)
sys.exit(1 if failed or not rs else 0)
PY
done
left=$(ls -A "$d"); [[ -z $left ]] && ok "io: the folder is empty after both runs" || bad "io: left behind: $left"

echo "== SIGKILL during io, then the next run sweeps"
hs_bg io --dir "$d" --size 512M >"$out/io-killed.log" 2>&1 & jvm=$!
for t in $(seq 1 80); do sleep 0.25; ls "$d"/hostside-io-*.tmp >/dev/null 2>&1 && break; done
sleep 1; kill -9 $jvm; wait $jvm 2>/dev/null
ls -la "$d" >"$out/io-after-kill.txt"
hs io --dir "$d" --size 64M >"$out/io-sweep.log" 2>&1
grep -q "removed" "$out/io-sweep.log" && ok "io: the next run removed the killed run's files and said so" || bad "io: no sweep line (see io-sweep.log, io-after-kill.txt)"
left=$(ls -A "$d"); [[ -z $left ]] && ok "io: folder empty after the sweeping run" || bad "io: left behind after sweep: $left"
rm -rf "$d"

echo "== a secret in PID 1's environment and arguments"
secret=tok$RANDOM$RANDOM$RANDOM; arg=arg$RANDOM$RANDOM
SECRET_TOKEN=$secret unshare --pid --fork --mount-proc sh -c "$(declare -f hs); hs snapshot -o $out/snap.tar.gz; hs container --json >$out/container.json; hs report --root $out/snap.tar.gz --out $out/snapreport --name snap >/dev/null" hostside-pid1 --token=$arg 2>"$out/secret.err"
if [[ -s $out/snap.tar.gz ]]; then
  hits=$( (zcat "$out/snap.tar.gz"; cat "$out/container.json" "$out"/snapreport/*) | grep -ac -e "$secret" -e "$arg" -e SECRET_TOKEN)
  ((hits == 0)) && ok "secret: neither value nor name in the snapshot, container --json or the report" || bad "secret: $hits lines carry it"
  python3 -c "import json,sys; n=json.load(open('$out/container.json'))['facts']['namespaces']; print('pid1', n.get('pid1'), n.get('pid1Kind'))" 2>&1 | tee -a "$out/secret.err"
else bad "secret: no snapshot written (see secret.err)"; fi
rm -f "$out/snap.tar.gz"

echo "== the report, end to end"
/usr/bin/time -v -o "$out/report.time" bash -c "$(declare -f hs); hs report --out $out/report" >"$out/report.log" 2>&1 && ok "report: exit 0" || bad "report rc=$?"
grep -E "Elapsed|Maximum resident" "$out/report.time"
stray=$(ls -A /var/tmp | grep -c '^hostside-'); ((stray == 0)) && ok "no hostside-* file left in /var/tmp" || bad "$stray hostside-* files left in /var/tmp"
kids=$(pgrep -fc 'hostside-watchdog|cow_workers|refs hog' ); ((kids == 0)) && ok "no helper process left running" || bad "$kids helper processes left"
echo "RESULT $pass passed, $fail failed"
