#!/usr/bin/env bash
# Issue 17: the two io figures left apart from fio on the H200 (write_buffered 0.80, rand_read_warm_qd1
# 1.14), each beside fio's job and one fio variant that tests a cause, interleaved, ROUNDS (default 3):
#   writes (write_buffered, write_fsync): fio's job with fio's default fallocate=native (the file's
#          blocks reserved before the writes), the same with --fallocate=none (as hostside writes, and
#          the job it names now: a new file, its blocks found as it grows), hostside io --only KEY
#   warm random reads: fio's job, the same with --norandommap (no per-read bookkeeping of the blocks
#          already read), hostside io --only rand_read_warm_qd1; with fio's user and system CPU per read
#   bench/issue17-write.sh OUTDIR [DIR]
set -uo pipefail
out=${1:?usage: bench/issue17-write.sh OUTDIR [DIR]}; dir=${2:-/var/tmp}; rounds=${ROUNDS:-3}
. "$(dirname "$0")/lib.sh"
bench_fio
bench_java
out=$(bench_out "$out")
file=$dir/issue17-write-$$.dat; wfile=$dir/issue17-write-$$-w.dat
bench_remove_on_exit "$file" "$wfile"
echo "# $(date -u +%FT%TZ) $(hostname), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/meta.txt"
# both with fio's buffer on a page, as hostside's jobs name it since 5a17e2b (the H200 runs of 2026-12-04 were before: no gap there)
wjob=(--rw=write --bs=1M --ioengine=psync --iodepth=1 --direct=0 --iomem_align=4096 --size=1g)
rjob=(--rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=0 --invalidate=0 --fadvise_hint=0 --iomem_align=4096 --time_based --runtime=5 --size=2g)
hsrun() { "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" io --only "$1" --dir "$dir" --size 2G --json > "$2" 2> "${2%.json}.err"; }
bench_layout "$file"
for r in $(seq 1 "$rounds"); do
  for key in write_buffered write_fsync; do
    tag=w; [[ $key == write_fsync ]] && tag=f
    for v in fio fio-nofallocate; do
      rm -f "$wfile"; extra=(--end_fsync=$([[ $tag == f ]] && echo 1 || echo 0)); [[ $v == fio-nofallocate ]] && extra+=(--fallocate=none)
      "$fio" --name=w --filename="$wfile" "${wjob[@]}" "${extra[@]}" --output-format=json > "$out/r$r-$tag-$v.json"
      sync "$wfile"; rm -f "$wfile"
    done
    hsrun "$key" "$out/r$r-$tag-hostside.json"
  done
  cat "$file" > /dev/null   # the read file cached again, as fio's warm job finds it after its layout
  for v in fio fio-norandommap; do
    extra=(); [[ $v == fio-norandommap ]] && extra=(--norandommap)
    "$fio" --name=r --filename="$file" "${rjob[@]}" "${extra[@]}" --output-format=json > "$out/r$r-r-$v.json"
  done
  hsrun rand_read_warm_qd1 "$out/r$r-r-hostside.json"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics as st, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def fio(p, rw):
    j = json.load(open(p))["jobs"][0]; d = j[rw]; n = d["total_ios"]; t = j["job_runtime"] / 1e3
    v = d["bw_bytes"] / 1e9 if rw == "write" else d["iops"]
    return v, j["usr_cpu"] / 100 * t / n * 1e6, j["sys_cpu"] / 100 * t / n * 1e6
def hs(p, key):
    x = next(x for x in json.load(open(p))["results"] if x["key"] == key); return x["value"]["median"], None, None
print("| figure | variant | median | range | fio user us per op | fio system us per op |\n|---|---|---:|---|---:|---:|")
for fig, tag, rw, key in (("write_buffered (GB/s)", "w", "write", "write_buffered"), ("write_fsync (GB/s)", "f", "write", "write_fsync"),
                          ("rand_read_warm_qd1 (IOPS)", "r", "read", "rand_read_warm_qd1")):
    for v in (["fio", "fio-nofallocate"] if tag in "wf" else ["fio", "fio-norandommap"]) + ["hostside"]:
        rows = [hs(f"{out}/r{r}-{tag}-{v}.json", key) if v == "hostside" else fio(f"{out}/r{r}-{tag}-{v}.json", rw) for r in range(1, rounds + 1)]
        m = [x[0] for x in rows]; fmt = (lambda x: f"{x:.2f}") if tag in "wf" else (lambda x: f"{x:,.0f}")
        u = f"{st.median(x[1] for x in rows):.3f}" if rows[0][1] is not None else "-"
        s = f"{st.median(x[2] for x in rows):.3f}" if rows[0][2] is not None else "-"
        print(f"| {fig} | {v} | {fmt(st.median(m))} | {fmt(min(m))}-{fmt(max(m))} | {u} | {s} |")
PY
