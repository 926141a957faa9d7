#!/usr/bin/env bash
# hostside io beside fio on the same file, alternating so both see the same (often noisy) disk:
# for each read figure, hostside says which fio job measures the same thing (detail.fio: rw, bs,
# engine, depth, direct, invalidate); this script runs `hostside io --only KEY --file FILE` and
# that fio job on FILE in turn, ROUNDS times each, and prints the medians side by side. The
# writes go to a file of their own in DIR with the same block size, size and fsync.
#
#   HOSTSIDE="java --enable-native-access=ALL-UNNAMED -jar target/hostside.jar" bench/io-vs-fio.sh DIR [SIZE] [ROUNDS] [SAMPLE_MS]
set -euo pipefail
HOSTSIDE=${HOSTSIDE:-./hostside}
dir=${1:?usage: bench/io-vs-fio.sh DIR [SIZE] [ROUNDS] [SAMPLE_MS]}; size=${2:-2G}; rounds=${3:-3}; sample_ms=${4:-1000}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
file="$dir/hostside-vs-fio.dat"; wfile="$dir/hostside-vs-fio-write.dat"
trap 'rm -f "$file" "$wfile"' EXIT
echo "# $(date -u +%FT%TZ) $(hostname) $(uname -r); $(fio --version); $dir ($(stat -f -c %T "$dir")), $size, $rounds rounds, samples of $sample_ms ms"
# the file both read: incompressible, written and synced by fio itself
fio --name=make --filename="$file" --size="$size" --rw=write --bs=1M --direct=1 --refill_buffers --end_fsync=1 --output=/dev/null
HOSTSIDE="$HOSTSIDE" python3 - "$file" "$wfile" "$dir" "$rounds" "$sample_ms" <<'PY'
import json, os, shlex, statistics, subprocess, sys
path, wpath, folder, rounds, sample_ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
hostside = shlex.split(os.environ["HOSTSIDE"])
keys = [l.split()[0] for l in subprocess.run(hostside + ["io", "--list"], capture_output=True, text=True, check=True).stdout.splitlines()[1:]]

def ours(key):
    out = subprocess.run(hostside + ["io", "--only", key, "--file", path, "--dir", folder, "--sample-ms", sample_ms, "--json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["results"][0]

def fio(r):
    opts = shlex.split(r["detail"]["fio"])
    write = "--rw=write" in opts
    target = ["--filename=" + (wpath if write else path)] + ([] if write else ["--size=" + str(r["detail"]["fileBytes"])])
    if not write and "--direct=0" in opts and "--invalidate=0" in opts:
        subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)  # warm: the file in the page cache first
    out = subprocess.run(["fio", "--name=job", "--output-format=json", *target, *opts], capture_output=True, text=True, check=True).stdout
    side = json.loads(out[out.index("{"):])["jobs"][0]["write" if write else "read"]
    if write: os.remove(wpath)
    return side["bw_bytes"] / 1e9 if r["unit"] == "GB/s" else side["iops"]

print(f"{'measurement':28} {'hostside':>10} {'fio':>10} {'ratio':>6}   rounds (hostside / fio)   fio job")
for key in keys:
    h, f, job, unit = [], [], "", ""
    for _ in range(rounds):
        r = ours(key)
        if r["status"] != "ok":
            print(f"{key:28} {r['status']}: {r.get('why', '')}"); break
        h.append(r["value"]["median"]); unit = r["unit"]; job = r["detail"]["fio"]
        f.append(fio(r))
    if not h: continue
    mh, mf = statistics.median(h), statistics.median(f)
    g = (lambda v: f"{v:.2f}") if unit == "GB/s" else (lambda v: f"{v:,.0f}")
    print(f"{key:28} {g(mh):>10} {g(mf):>10} {mh / mf:6.2f}   {' '.join(g(x) for x in h)} / {' '.join(g(x) for x in f)}   fio {job} ({unit})")
PY
