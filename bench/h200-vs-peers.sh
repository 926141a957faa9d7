#!/usr/bin/env bash
# Issue 17's comparison in one run: hostside and the established tools interleaved on this machine
# (made for the H200 VM; runs on any Linux box, where the GPU parts say "not run").
#   bash bench/h200-vs-peers.sh OUTDIR
# Each part is a script of its own (bench/issue17-*.sh) that runs peer and hostside in turn, three
# rounds or more, and prints a ratio table; this one runs them one after the other on a quiet
# machine and gathers the tables in OUTDIR/ratios.md.
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
{
  echo "# hostside beside its peers, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "$(nproc) CPUs, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no NVIDIA GPU'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg) at the start"
} >"$out/ratios.md"
for part in copies sched jitter io; do
  s=bench/issue17-$part.sh
  [[ -f $s ]] || { printf '\n## %s\n\nnot run: %s is missing\n' "$part" "$s" >>"$out/ratios.md"; continue; }
  echo "== $part (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  start=$(date +%s)
  bash "$s" "$out/$part" >"$out/$part.txt" 2>"$out/$part.err"
  printf '\n## %s (%d s)\n\n' "$part" $(( $(date +%s) - start )) >>"$out/ratios.md"
  grep -E '^\|' "$out/$part.txt" >>"$out/ratios.md" || tail -n 20 "$out/$part.txt" >>"$out/ratios.md"
done
cat "$out/ratios.md"
