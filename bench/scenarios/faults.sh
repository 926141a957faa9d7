#!/usr/bin/env bash
# Checks hostside's fault counts (getrusage(RUSAGE_THREAD) around each pass) against the kernel's
# count for the whole process as /usr/bin/time -v reports it (wait4's rusage). The JVM faults
# on its own too, so the check is differential. Major faults: the same command with
# --no-measure is the baseline (the JVM takes no major faults once its files are cached).
# Minor faults: the JVM running a test takes a few thousand of its own (classes, JIT, heap), so
# the baseline is the same test on a region half the size: what is left is the work's alone.
#
#   bench/run faults [--dir DIR] [--size 512M]
#
# Needs /usr/bin/time (GNU time) and python3 (to read the JSON).
set -euo pipefail
read -r -a HS <<<"${HOSTSIDE:?run it through bench/run, which sets HOSTSIDE}"
extra=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timed() {  # timed NAME ARGS...: runs hostside vm under /usr/bin/time -v, keeps JSON and the counts
  local name=$1; shift
  /usr/bin/time -v -o "$tmp/$name.time" "${HS[@]}" vm --json "$@" >"$tmp/$name.json"
}
count() { awk -F': ' -v k="$2" '$1 ~ k {print $2}' "$tmp/$1.time"; }

# passes: how many times each test touches its memory (warm-up included)
check() {  # check KEY PASSES FIELD KIND(minor|major)
  local key=$1 passes=$2 field=$3 kind=$4
  local label="Minor" ; [[ $kind == major ]] && label="Major"
  for i in 1 2 3; do
    timed base$i --no-measure "${extra[@]}"
    timed run$i --only "$key" "${extra[@]}"
    local b r
    b=$(count base$i "$label \\(")
    r=$(count run$i "$label \\(")
    python3 - "$tmp/run$i.json" "$key" "$field" "$passes" "$b" "$r" <<'PY'
import json, sys
path, key, field, passes, base, run = sys.argv[1:]
d = json.load(open(path))
res = [x for x in d["host"] if x["key"] == key][0]
if res["status"] != "ok":
    print(f"{key}: {res['status']}: {res['why']}"); sys.exit(0)
per = res["detail"][field]
expected = int(passes) * per
measured = int(run) - int(base)
print(f"{key:24s} {field:12s} hostside {per:>9} x {passes} passes = {expected:>9}   /usr/bin/time -v: run {run:>9} - baseline {base:>8} = {measured:>9}   difference {measured-expected:+d} ({(measured-expected)/max(expected,1)*100:+.3f}%)")
PY
  done
}

echo "# $(date -u +%FT%TZ) $(hostname) kernel $(uname -r)"
# anon: 6 passes (a warm-up and 5 samples) at two region sizes
for i in 1 2 3; do
  timed small$i --only anon_first_touch_base --anon-size 128M "${extra[@]}"
  timed big$i --only anon_first_touch_base --anon-size 256M "${extra[@]}"
  python3 - "$tmp/small$i.json" "$tmp/big$i.json" "$(count small$i 'Minor \(')" "$(count big$i 'Minor \(')" <<'PY'
import json, sys
small, big, ts, tb = sys.argv[1:]
def per(p):
    r = [x for x in json.load(open(p))["host"] if x["key"] == "anon_first_touch_base"][0]
    return r["detail"]["faults"]
expected = 6 * (per(big) - per(small))
measured = int(tb) - int(ts)
print(f"anon_first_touch_base    faults       hostside 6 x ({per(big)} - {per(small)}) = {expected:>9}   /usr/bin/time -v: {tb} - {ts} = {measured:>9}   difference {measured-expected:+d} ({(measured-expected)/max(expected,1)*100:+.3f}%)")
PY
done
# The same work by a process without a JVM's own faults: python3 touching one byte per page of
# an anonymous 256 MiB mapping (MADV_NOHUGEPAGE), minus python3 touching none. The kernel should
# count one fault per page, as hostside's anon_first_touch_base does (its "faults" per pass).
touch_py='import mmap,sys; n=int(sys.argv[1]); m=mmap.mmap(-1, max(n,4096)); m.madvise(mmap.MADV_NOHUGEPAGE) if n else None
for i in range(0, n, 4096): m[i]=1'
for i in 1 2 3; do
  /usr/bin/time -v -o "$tmp/py0.time" python3 -c "$touch_py" 0
  /usr/bin/time -v -o "$tmp/py1.time" python3 -c "$touch_py" $((256 << 20))
  a=$(count py0 'Minor \('); b=$(count py1 'Minor \(')
  echo "python3 reference        faults       65536 pages of 256 MiB touched   /usr/bin/time -v: $b - $a = $((b - a))   difference $((b - a - 65536))"
done
check file_mmap_cold 3 majorFaults major
check file_read_cold 3 majorFaults major
