#!/usr/bin/env bash
# Issue 17, second experiment on random 4 KiB O_DIRECT io_uring QD32 (hostside 0.84 of fio on the H200):
# on one fio-laid 2 GiB file, ROUNDS times (default 3), interleaved:
#   fio        the job hostside names
#   hostside   io --only rand_read_direct_uring_qd32
#   probe-hs   bench/uring-probe: hostside's read loop alone on hostside's IoUring
#   probe-fio  the same ring with fio's submission pattern (one enter per read, a separate wait)
#   probe-split the refills of a round submitted in one enter, and a separate wait
# and beside each: the reads the block device held in flight (sampled every 10 ms from
# /sys/class/block/DEV/inflight), io-wq worker threads seen mid-run, and what the submitting
# thread cost (CPU %, voluntary switches per read: fio's ctx and usr+sys, the probe's getrusage).
#   bench/issue17-uring2.sh OUTDIR [DIR]      (needs target/bench-classes: see UringProbe.java)
set -uo pipefail
out=${1:?usage: bench/issue17-uring2.sh OUTDIR [DIR]}; dir=${2:-/var/tmp}; rounds=${ROUNDS:-3}; secs=${SECS:-5}
. "$(dirname "$0")/lib.sh"
bench_fio
bench_java
out=$(bench_out "$out")
file=$dir/issue17-uring2-$$.dat
bench_remove_on_exit "$file"
bench_layout "$file"
dev=$(basename "$(findmnt -no SOURCE --target "$dir")")
inflight=/sys/class/block/$dev/inflight
echo "# $(date -u +%FT%TZ) $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $file on $dev ($(cat /sys/class/block/${dev%%[0-9]*}/queue/nr_requests 2>/dev/null) requests, scheduler $(cat /sys/class/block/${dev%%[0-9]*}/queue/scheduler 2>/dev/null))" | tee "$out/meta.txt"
watch() {  # $1: name; samples in-flight reads every 10 ms and io-wq workers after 2 s, until told to stop
  local name=$1 i=0
  while [[ ! -e $out/stop ]]; do
    read -r r _ < "$inflight"; echo "$r" >> "$out/$name.inflight"
    (( i++ == 100 )) && ps -eLo comm= | grep -c '^iou-wrk' > "$out/$name.iowq"
    sleep 0.01
  done
}
run() {  # $1: name; the rest: the command
  local name=$1; shift
  rm -f "$out/stop"; watch "$name" & local w=$!
  "$@" > "$out/$name.out" 2> "$out/$name.err"
  touch "$out/stop"; wait "$w"
}
job=(--rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --time_based --runtime="$secs" --size=2g)
for r in $(seq 1 "$rounds"); do
  run "r$r-fio" "$fio" --name=fio --filename="$file" "${job[@]}" --output-format=json
  run "r$r-hostside" "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io --only rand_read_direct_uring_qd32 --file "$file" --json
  run "r$r-probe-hs" "$java" --enable-native-access=ALL-UNNAMED -cp "$jar:$bench_root/target/bench-classes" UringProbe "$file" hs "$secs"
  run "r$r-probe-fio" "$java" --enable-native-access=ALL-UNNAMED -cp "$jar:$bench_root/target/bench-classes" UringProbe "$file" fio "$secs"
  run "r$r-probe-split" "$java" --enable-native-access=ALL-UNNAMED -cp "$jar:$bench_root/target/bench-classes" UringProbe "$file" split "$secs"
done
python3 - "$out" "$rounds" <<'PY'
import json, re, statistics as st, sys, os
out, rounds = sys.argv[1], int(sys.argv[2])
def inflight(n):
    v = [int(x) for x in open(f"{out}/{n}.inflight") if x.strip()]
    busy = [x for x in v if x > 0]
    return st.median(busy) if busy else 0
def iowq(n):
    p = f"{out}/{n}.iowq"; return open(p).read().strip() if os.path.exists(p) else "-"
def row(v, n):
    if v == "fio":
        j = json.load(open(f"{out}/{n}.out"))["jobs"][0]; rd = j["read"]
        ios = rd["total_ios"]
        return rd["iops"], rd["clat_ns"]["percentile"]["50.000000"] / 1e3, j["usr_cpu"] + j["sys_cpu"], j["ctx"] / max(1, ios)
    if v == "hostside":
        d = json.load(open(f"{out}/{n}.out"))
        r = next(r for r in d["results"] if r["key"] == "rand_read_direct_uring_qd32")
        return r["value"]["median"], r["detail"]["latencyUs"]["p50"], None, None
    m = re.search(r"iops (\S+) p50_us (\S+) p99_us \S+ cpu_pct (\S+) volsw_per_io (\S+)", open(f"{out}/{n}.out").read())
    return float(m[1]), float(m[2]), float(m[3]), float(m[4])
print("| variant | IOPS median | range | p50 latency (us) | device in flight (median while busy) | io-wq workers | thread CPU % | switches per read |")
print("|---|---:|---|---:|---:|---|---:|---:|")
for v in ["fio", "hostside", "probe-hs", "probe-fio", "probe-split"]:
    rows = [row(v, f"r{r}-{v}") for r in range(1, rounds + 1)]
    i = [x[0] for x in rows]
    f = lambda k, fmt: fmt.format(st.median([x[k] for x in rows])) if rows[0][k] is not None else "-"
    print(f"| {v} | {st.median(i):,.0f} | {min(i):,.0f}-{max(i):,.0f} | {f(1, '{:.0f}')} | "
          f"{st.median([inflight(f'r{r}-{v}') for r in range(1, rounds + 1)])} | {','.join(iowq(f'r{r}-{v}') for r in range(1, rounds + 1))} | {f(2, '{:.0f}')} | {f(3, '{:.3f}')} |")
PY
