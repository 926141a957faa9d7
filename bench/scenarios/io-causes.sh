#!/usr/bin/env bash
# Why hostside io's sequential and warm figures differed from the fio jobs they name (issue of
# 2026-12-07, docs/measurements/2026-12-07-io-equal-to-fio.md): one probe per cause, fio 3.42 and a C
# probe, no hostside. About 2 minutes on the GPU VM.
#   - the machine: readahead, max_segments, THP, the CPU's caches, and whether the VM hands freed
#     memory back to its host (virtio-balloon, feature bit 5: free page reporting)
#   - buffered 1 MiB reads from the page cache, and O_DIRECT ones, into a buffer laid out three ways
#     (bench/c/layout_read.c: every page apart, in order, fio's untouched malloc)
#   - fio's own cost per cached random 4 KiB read, with the options that shed some of it
#   - a cold 1 GiB read of a file just written, its pages dropped at once or 6 s before, beside a file
#     written at the start and not read since, and the same O_DIRECT (the host's cache of the disk, seen
#     without the guest's); last, so that the older file has several GiB of writes behind it
#   - a buffered 1 GiB write 6 s after the last one, right after the last one's fsync and removal (as
#     hostside's samples follow each other), and as the warm-up and measured jobs hostside names
#   - O_DIRECT reads 32 in flight into fio's default buffers and into one mmap (--iomem=mmap, as
#     hostside's), with each buffer's physical pieces per MiB read from the job's /proc/PID/pagemap
#
#   bench/run io-causes [DIR]        (DIR: where the files go, default /var/tmp; all removed at exit)
#
# Needs $HOSTSIDE_PEERS/bin/fio, python3, and gcc for the C probe (its rows are skipped without).
set -uo pipefail
dir=${1:-/var/tmp}
F=${HOSTSIDE_PEERS:?run it through bench/run with HOSTSIDE_PEERS set}/bin/fio
[[ -x $F ]] || { echo "no fio in $HOSTSIDE_PEERS/bin"; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
P=$dir/io-causes-$$-probe.dat O=$dir/io-causes-$$-old.dat N=$dir/io-causes-$$-new.dat W=$dir/io-causes-$$-write.dat
trap 'rm -rf "$tmp"; rm -f "$P" "$O" "$N" "$W"' EXIT

# each fio job of the JSON on stdin: GB/s, IOPS, user and system CPU per I/O, clat p10 and p50
cat >"$tmp/summary.py" <<'PY'
import json, sys
out = []
for j in json.load(sys.stdin)["jobs"]:
    s = j["write"] if j["write"]["io_bytes"] else j["read"]
    n, ms = max(1, s["total_ios"]), j["job_runtime"] or s["runtime"]
    p = s.get("clat_ns", {}).get("percentile", {})
    lat = " clat p10 %.0f p50 %.0f us" % (p["10.000000"] / 1e3, p["50.000000"] / 1e3) if p else ""
    out.append("%s %.2f GB/s %s IOPS, usr %.2f sys %.2f us/io%s" % (j["jobname"], s["bw_bytes"] / 1e9, format(round(s["iops"]), ","),
               j["usr_cpu"] * ms * 10 / n, j["sys_cpu"] * ms * 10 / n, lat))
print(" | ".join(out))
PY
summary() { python3 "$tmp/summary.py"; }
lay() { rm -f "$1"; "$F" --name=layout --filename="$1" --size=2G --rw=read --bs=1M --io_size=1M --output-format=json >/dev/null; }
drop() { python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$1"; }
cold() { "$F" --name=cold --filename="$1" --rw=read --bs=1M --size=2G --io_size=1G --ioengine=psync --fadvise_hint=0 --iomem_align=4096 \
         --output-format=json "${@:2}" | summary; }

echo "== the machine $(date -u +%FT%TZ), load $(cat /proc/loadavg)"
uname -r
lscpu | grep -E "Model name|^CPU\(s\)|L1d|L2|L3"
echo "THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
dev=$(df --output=source "$dir" | tail -1)
for b in /sys/block/*; do
  [[ -e $b/device ]] || continue
  echo "$(basename "$b") read_ahead_kb=$(cat "$b/queue/read_ahead_kb") max_segments=$(cat "$b/queue/max_segments") max_sectors_kb=$(cat "$b/queue/max_sectors_kb") $(cat "$b/queue/scheduler")"
done
echo "$dir on $dev ($(stat -f -c %T "$dir"))"
for v in /sys/bus/virtio/devices/*; do
  [[ $(cat "$v/device" 2>/dev/null) == 0x0005 ]] || continue
  f=$(cat "$v/features"); echo "virtio-balloon features $f: free page reporting ${f:5:1} (bit 5)"
done
sysctl vm.dirty_background_ratio vm.dirty_ratio 2>/dev/null | tr '\n' ' '; echo

lay "$O"; drop "$O"  # the older file: not read again before the cold probe, several GiB written meanwhile
lay "$P"
if gcc -O2 -Wall -o "$tmp/layout_read" "$here/bench/c/layout_read.c" 2>"$tmp/gcc.err"; then
  echo "== buffered 1 MiB reads of the cached file, 2 s per buffer layout, 3 rounds"
  cat "$P" >/dev/null
  "$tmp/layout_read" "$P" 0 2 3
  echo "== O_DIRECT 1 MiB reads, one at a time, 1.5 s per buffer layout, 2 rounds"
  "$tmp/layout_read" "$P" 1 1.5 2
else
  echo "== the C probe: not built ($(tail -1 "$tmp/gcc.err"))"
fi

echo "== cached random 4 KiB reads, 3 s each: the job hostside names, then without fio's random map, then without its clocks"
cat "$P" >/dev/null
for o in "" --norandommap --gtod_reduce=1; do
  echo "[${o:-as named}] $("$F" --name=randwarm --filename="$P" --rw=randread --bs=4k --size=2G --ioengine=psync --direct=0 --invalidate=0 \
     --fadvise_hint=0 --iomem_align=4096 --time_based --runtime=3 --output-format=json $o | summary)"
done

echo "== buffered 1 GiB writes of a new file, no fsync: 6 s after the last; right after another's fsync and removal (as"
echo "   hostside's samples follow each other); the two jobs hostside names (a warm-up written, synced, removed; the measured one)"
WO=(--rw=write --bs=1M --ioengine=psync --direct=0 --fallocate=none --iomem_align=4096 --size=1G --output-format=json)
for i in 1 2; do
  sleep 6
  echo "after 6 s: $("$F" --name=idle --filename="$W" "${WO[@]}" | summary)"; sync; rm -f "$W"
  "$F" --name=before --filename="$W" "${WO[@]}" --end_fsync=1 >/dev/null; rm -f "$W"
  echo "right after: $("$F" --name=next --filename="$W" "${WO[@]}" | summary)"; sync; rm -f "$W"
  echo "named jobs: $("$F" --filename="$W" "${WO[@]}" --name=warmup --end_fsync=1 --unlink=1 --name=measured --stonewall | summary)"; sync; rm -f "$W"
done

echo "== O_DIRECT 1 MiB reads, 32 in flight (io_uring), 4 s: fio's default buffers (one malloc) and one mmap (--iomem=mmap, as"
echo "   hostside's), with the physical pieces per MiB of the buffer read from the job's pagemap (root)"
cat >"$tmp/pieces.py" <<'PY'
import re, struct, subprocess, sys, time
parent, depth, block = int(sys.argv[1]), 32, 1 << 20
pid = None
for _ in range(50):
    kids = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout.split()
    if kids:
        pid = int(kids[0]); break
    time.sleep(0.1)
time.sleep(1.5)
try:
    region = None
    for line in open(f"/proc/{pid}/maps"):
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) rw-p 00000000 00:00 0", line)
        if m and depth * block <= int(m.group(2), 16) - int(m.group(1), 16) < (depth + 4) * block:
            region = (int(m.group(1), 16), int(m.group(2), 16))
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for base in range((region[0] + 4095) // 4096 * 4096, (region[0] + 4095) // 4096 * 4096 + 8193, 4096):
            total, ok = 0, True
            for b in range(depth):
                prev, runs = None, 0
                for pg in range(block // 4096):
                    pm.seek(((base + b * block) // 4096 + pg) * 8)
                    e = struct.unpack("Q", pm.read(8))[0]
                    if not e >> 63 or not e & ((1 << 55) - 1):
                        ok = False; break
                    pfn = e & ((1 << 55) - 1)
                    runs += prev is None or pfn != prev + 1
                    prev = pfn
                if not ok: break
                total += runs
            if ok:
                print(f"{total / depth:.1f}"); break
        else:
            print("unknown")
except (OSError, TypeError, struct.error):
    print("unknown")
PY
for i in 1 2; do
  for mem in malloc mmap; do
    "$F" --name=qd32 --filename="$P" --rw=read --bs=1M --size=2G --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --iomem=$mem \
      --time_based --runtime=4 --output-format=json >"$tmp/qd32.json" & job=$!
    pieces=$(python3 "$tmp/pieces.py" $job); wait $job
    echo "--iomem=$mem: $(summary <"$tmp/qd32.json"), pieces per MiB $pieces"
  done
done
echo "== cold 1 GiB: the file laid out first and not read since (some GiB written meanwhile: neither the host's cache nor the"
echo "   guest's memory holds it), its first GiB buffered and its second O_DIRECT; then twice a file just laid out, its pages"
echo "   dropped at once or 6 s before, and O_DIRECT"
echo "older, buffered: $(cold "$O" --invalidate=1)"
echo "older, O_DIRECT (its second GiB): $("$F" --name=cold --filename="$O" --rw=read --bs=1M --offset=1G --size=1G --ioengine=psync \
  --direct=1 --output-format=json | summary)"
for i in 1 2; do
  lay "$N"; drop "$N"; echo "new, at once: $(cold "$N" --invalidate=1)"
  drop "$N"; sleep 6; echo "new, 6 s after the drop: $(cold "$N" --invalidate=1)"
  echo "new, O_DIRECT: $(cold "$N" --direct=1)"
done
echo "== done $(date -u +%T), load $(cat /proc/loadavg)"
