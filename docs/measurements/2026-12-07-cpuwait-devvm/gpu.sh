#!/usr/bin/env bash
# The cpu drill before and after (branch cpuwait) on the GPU machine, interleaved, refs timer beside.
# Not run on 2026-12-07 (the session's device time was spent). To run it, put in .devbundle/
# (ignored, carried): hostside-bundle.tar.gz (./hostside bundle -o .devbundle/hostside-bundle.tar.gz
# on this branch), before.jar (target/hostside.jar built from main) and refs (the peers' bin/refs);
# then a device call with carry [".devbundle"] and the command
#   bash docs/measurements/2026-12-07-cpuwait-devvm/gpu.sh
# Outputs go to $OUT: rN-before/-after.json and .err (the drill's progress lines), refs' lines, load.txt.
B=.devbundle
nproc; uname -r
python3 -c 'import sys, torch; print("torch", torch.__version__, torch.cuda.is_available(), sys.executable)' 2>&1 | tail -1
command -v python3
mkdir -p /tmp/a /tmp/b && tar xzf $B/hostside-bundle.tar.gz -C /tmp/a && tar xzf $B/hostside-bundle.tar.gz -C /tmp/b \
  && cp $B/before.jar /tmp/b/hostside/hostside.jar && rm -f /tmp/b/hostside/hostside.aot
chmod +x $B/refs
/tmp/b/hostside/hostside cpu --list > /dev/null 2>&1   # the before jar's start-up cache, trained once, outside the rounds
run() { echo "$1 before $(cat /proc/loadavg)" >> $OUT/load.txt; s=$(date +%s.%N); /tmp/$2/hostside/hostside cpu --json > $OUT/$1.json 2> $OUT/$1.err; echo "$1 after $(cat /proc/loadavg) wall $(echo "$(date +%s.%N) - $s" | bc)" >> $OUT/load.txt; }
for r in 1 2 3; do
  $B/refs timer 100 20000 > $OUT/r$r-refs-quiet.txt
  if (( r % 2 )); then run r$r-before b; run r$r-after a; else run r$r-after a; run r$r-before b; fi
  $B/refs hog "$(nproc)" 6 & h=$!
  sleep 0.5; $B/refs timer 100 20000 > $OUT/r$r-refs-hogs.txt; wait $h
done
grep -h ' ok in \| not run\| failed' $OUT/*.err | sed 's/^hostside: //' | head -80
