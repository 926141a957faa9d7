#!/usr/bin/env bash
# Issue 17: every figure of `hostside io` beside the fio job it names, interleaved figure by
# figure (fio, hostside, fio, hostside...), ROUNDS rounds (default 3), on one file system (DIR,
# default /var/tmp), then a ratio table of medians. Each tool reads a 2 GiB file it wrote just
# before: fio lays its file out anew before each read job (as fio does for a read job), hostside
# writes its test file at each run. On a VM the host caches what the guest wrote: a file read
# long after it was written comes slower, for both.
#
#   bench/issue17-io.sh OUTDIR [DIR]          ROUNDS=5 KEYS=seq_read_direct_qd1,write_fsync bench/issue17-io.sh OUTDIR /data
#
# Besides the figures it keeps the evidence of why two figures differ: per run the device's
# /proc/diskstats delta (requests, sectors, ms), fio's JSON, hostside's JSON (its detail holds
# bufferPieces: into how many physical pieces each O_DIRECT 1 MiB buffer fell), and for fio's
# O_DIRECT 1 MiB jobs the same count read from fio's own buffer (root only). Two extra fio rows
# run the cold jobs with fio's default fadvise hint, which hostside's named jobs turn off.
#
# Peers: .peers/ in the checkout, else /work/shared/tools/peers. Java: .jre/bin/java, else
# $JAVA_HOME/bin/java, else java; the jar: target/hostside.jar (JAR=... another, e.g. an older build). Every file fio makes is removed on
# every exit path; hostside removes its own.
set -euo pipefail
out=${1:?usage: bench/issue17-io.sh OUTDIR [DIR]}; dir=${2:-/var/tmp}; rounds=${ROUNDS:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
bench_fio
bench_java
[[ -d $dir && -w $dir ]] || { echo "$dir: not a writable folder" >&2; exit 1; }
out=$(bench_out "$out")
size=2147483648; half=1073741824
file=$dir/issue17-fio-$$.dat; wfile=$dir/issue17-fio-$$-write.dat
bench_remove_on_exit "$file" "$wfile"

# the block device under DIR, for its /proc/diskstats line
devno=$((16#$(stat -c %D "$dir")))
dev=$(awk -F= '/^DEVNAME=/{print $2}' "/sys/dev/block/$(( devno >> 8 )):$(( devno & 255 ))/uevent" 2>/dev/null || true)
disk() { if [[ -n $dev ]]; then awk -v d="$dev" '$3==d {print $4, $6, $7}' /proc/diskstats; else echo "0 0 0"; fi; }

{
  echo "date: $(date -u +%FT%TZ)  host: $(hostname)  kernel: $(uname -r)"
  echo "dir: $dir ($(stat -f -c %T "$dir"), device ${dev:-unknown})  rounds: $rounds  fio: $("$fio" --version)  java: $java"
  echo "hostside: $jar (built $(date -u -r "$jar" +%FT%TZ)); checkout: $(git -C "$root" log --oneline -1 2>/dev/null | cut -c1-70 || echo unknown)"
  echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)  clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
  echo "loadavg before: $(cat /proc/loadavg)"
} | tee "$out/env.txt"

# fio's jobs, as hostside names them for a 2 GiB file with 1000 ms samples (each result's anchor says
# the same; checked against it below): KEY then fio options. Time-based jobs run 5 s, the cold
# sequential pass reads 1 GiB, the writes write 1 GiB to a new file.
jobs=(
  "seq_read_cold_qd1 --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --fadvise_hint=0 --iomem_align=4096 --io_size=$half"
  "seq_read_warm_qd1 --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=0 --invalidate=0 --fadvise_hint=0 --iomem_align=4096 --time_based --runtime=5"
  "seq_read_direct_qd1 --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=1 --invalidate=0 --time_based --runtime=5"
  "seq_read_direct_uring_qd32 --rw=read --bs=1M --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --time_based --runtime=5"
  "rand_read_cold_qd1 --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --fadvise_hint=0 --iomem_align=4096 --time_based --runtime=5"
  "rand_read_warm_qd1 --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=0 --invalidate=0 --fadvise_hint=0 --iomem_align=4096 --time_based --runtime=5"
  "rand_read_direct_qd1 --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=1 --invalidate=0 --time_based --runtime=5"
  "rand_read_direct_uring_qd1 --rw=randread --bs=4k --ioengine=io_uring --iodepth=1 --direct=1 --invalidate=0 --time_based --runtime=5"
  "rand_read_direct_uring_qd32 --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --time_based --runtime=5"
  "write_buffered --rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --fallocate=none --iomem_align=4096 --end_fsync=0"
  "write_fsync --rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --fallocate=none --iomem_align=4096 --end_fsync=1"
)
# fio's own defaults for the cold jobs (POSIX_FADV_SEQUENTIAL / _RANDOM): not hostside's figure, shown beside it
# (--iomem_align kept: fio's default buffer, 16 bytes past a page, costs the copies on some CPUs, not the hint)
extra=(
  "seq_read_cold_qd1:fio_default_hint --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --iomem_align=4096 --io_size=$half"
  "rand_read_cold_qd1:fio_default_hint --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --iomem_align=4096 --time_based --runtime=5"
)

# fio's O_DIRECT buffer, read from its job process mid-run (root only): the anonymous mapping of
# bs*depth and a few pages (glibc's header, then fio's alignment up to the next page)
fio_pieces() {  # FIO_PID BLOCK DEPTH -> mean physical pieces per block, or n/a
  python3 - "$@" <<'PY' 2>/dev/null || echo n/a
import os, struct, subprocess, sys
parent, block, depth = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
page = os.sysconf("SC_PAGE_SIZE"); want = block * depth
kids = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout.split()

def pieces(pid, starts):  # None when a page is absent or frame numbers are hidden
    total = 0
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for start in starts:
            pm.seek(start // page * 8); e = struct.unpack(f"{block // page}Q", pm.read(block // page * 8))
            pfn = [x & ((1 << 55) - 1) for x in e]
            if any(not x >> 63 for x in e) or not any(pfn): return None
            total += 1 + sum(1 for a, b in zip(pfn, pfn[1:]) if b != a + 1)
    return total / len(starts)

for pid in kids + [str(parent)]:  # the job process first: the parent only watches
    for line in open(f"/proc/{pid}/maps"):
        f = line.split()
        if len(f) != 5 or f[1] != "rw-p": continue
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        if want + page <= hi - lo <= want + 4 * page:
            n = pieces(pid, [lo + page + b * block for b in range(depth)])
            if n is not None: print(f"{n:.1f}"); raise SystemExit(0)
raise SystemExit(1)
PY
}

run_fio() {  # ROUND KEY OPTIONS...
  local r=$1 key=$2; shift 2
  local tag=${key//:/-} target=$file extra_opts=(--size=$size) pieces=- a b pid
  if [[ $key == write_* ]]; then
    target=$wfile; extra_opts=(--size=$half); rm -f "$wfile"
  else
    layout  # a file as fresh below the guest as hostside's, which it writes just before its reads
    if [[ " $* " == *" --direct=0 "* && " $* " == *" --invalidate=0 "* ]]; then cat "$file" > /dev/null; fi  # warm: cached first, as hostside's warm-up does
  fi
  a=$(disk)
  "$fio" --name="$tag" --filename="$target" "${extra_opts[@]}" --output-format=json "$@" > "$out/r$r-fio-$tag.json" 2> "$out/r$r-fio-$tag.err" &
  pid=$!
  if [[ $key == seq_read_direct* ]]; then sleep 2; pieces=$(fio_pieces $pid $((1 << 20)) "$(sed -n 's/.*--iodepth=\([0-9]*\).*/\1/p' <<< "$*")"); fi
  wait $pid || echo "fio $key failed: $(tail -2 "$out/r$r-fio-$tag.err")"
  b=$(disk)
  # hostside flushes each written file outside its timing; so the next run does not share the disk with this one's flush
  if [[ $target == "$wfile" ]]; then sync "$wfile" 2>/dev/null || sync; rm -f "$wfile"; fi
  echo "$r fio $key $a $b $pieces" >> "$out/disk.txt"
}

# fio's read file, laid out anew by fio as for any read job (fiojobs5.sh's "a 2 GiB file fio wrote"):
# on a VM the host caches what the guest just wrote, and hostside reads a test file it just wrote
layout() {
  rm -f "$file"
  bench_layout "$file" "$size" 2>> "$out/fio-layout.err"
}

run_hostside() {  # ROUND KEY
  local r=$1 key=$2 a b
  a=$(disk)
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io --only "$key" --dir "$dir" --size 2G --json > "$out/r$r-hs-$key.json" 2> "$out/r$r-hs-$key.err" \
    || echo "hostside $key failed: $(tail -2 "$out/r$r-hs-$key.err")"
  b=$(disk)
  echo "$r hostside $key $a $b -" >> "$out/disk.txt"
}

: > "$out/disk.txt"
# what each figure's anchor must name: its options, with the file's size (1 GiB for the writes)
for j in "${jobs[@]}"; do set -- $j; key=$1; shift; case $key in write_*) echo "$j --size=$half";; *) echo "$j --size=$size";; esac; done > "$out/jobs.txt"
layout; filefrag "$file" > "$out/filefrag.txt" 2>&1 || true
wanted() { [[ -z ${KEYS:-} || ,$KEYS, == *,${1%%:*},* ]]; }
for r in $(seq 1 "$rounds"); do
  for j in "${jobs[@]}"; do
    set -- $j; key=$1; shift
    wanted "$key" || continue
    echo "round $r/$rounds: $key"
    run_fio "$r" "$key" "$@"
    run_hostside "$r" "$key"
  done
  for j in "${extra[@]}"; do set -- $j; key=$1; shift; wanted "$key" && run_fio "$r" "$key" "$@"; done
done
echo "loadavg after: $(cat /proc/loadavg)" | tee -a "$out/env.txt"

python3 "$root/bench/issue17-io-table.py" "$out" "$rounds" | tee "$out/table.md"
