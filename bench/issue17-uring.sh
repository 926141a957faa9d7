#!/usr/bin/env bash
# Issue 17: why hostside's random 4 KiB O_DIRECT io_uring QD32 differs from fio's, on one file.
# fio lays out one 2 GiB file; then, ROUNDS times (default 3), interleaved on that same file:
#   fio       the job hostside names (rand_read_direct_uring_qd32's anchor)
#   fio-batch the same with --iodepth_batch_submit=32 --iodepth_batch_complete_min=1: refills submitted together, as hostside's loop does
#   fio-norm  the same with --norandommap: offsets drawn with replacement, as hostside draws them
#   hostside  io --only rand_read_direct_uring_qd32 --file FILE
# and prints IOPS per variant (median, range) and the median completion latency.
#   bench/issue17-uring.sh OUTDIR [DIR]     ROUNDS=5 bench/issue17-uring.sh /tmp/u /var/tmp
set -euo pipefail
out=${1:?usage: bench/issue17-uring.sh OUTDIR [DIR]}; dir=${2:-/var/tmp}; rounds=${ROUNDS:-3}
. "$(dirname "$0")/lib.sh"
bench_fio
bench_java
out=$(bench_out "$out")
file=$dir/issue17-uring-$$.dat
bench_remove_on_exit "$file"
bench_layout "$file"
job=(--rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --direct=1 --invalidate=0 --time_based --runtime=5 --size=2g)
declare -A opts=([fio]="" [fio-batch]="--iodepth_batch_submit=32 --iodepth_batch_complete_min=1" [fio-norm]="--norandommap")
echo "# $(date -u +%FT%TZ) $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $file" | tee "$out/meta.txt"
for r in $(seq 1 "$rounds"); do
  for v in fio fio-batch fio-norm; do
    # shellcheck disable=SC2086
    "$fio" --name="$v" --filename="$file" "${job[@]}" ${opts[$v]} --output-format=json > "$out/r$r-$v.json"
  done
  "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io --only rand_read_direct_uring_qd32 --file "$file" --json > "$out/r$r-hostside.json" 2> "$out/r$r-hostside.err"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def fio(p):
    j = json.load(open(p))["jobs"][0]["read"]; return j["iops"], j["clat_ns"]["percentile"]["50.000000"] / 1000
def hs(p):
    d = json.load(open(p))
    for r in d["results"]:
        if r["key"] == "rand_read_direct_uring_qd32":
            return r["value"]["median"], r["detail"]["latencyUs"]["p50"]
print("| variant | IOPS median | range | median completion latency (us) |\n|---|---:|---|---:|")
for v in ["fio", "fio-batch", "fio-norm", "hostside"]:
    rows = [(hs if v == "hostside" else fio)(f"{out}/r{r}-{v}.json") for r in range(1, rounds + 1)]
    i = [x[0] for x in rows]; l = [x[1] for x in rows]
    print(f"| {v} | {statistics.median(i):,.0f} | {min(i):,.0f}-{max(i):,.0f} | {statistics.median(l):.0f} |")
PY
