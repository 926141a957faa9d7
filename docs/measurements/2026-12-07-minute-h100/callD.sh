#!/bin/bash
# O_DIRECT buffers (fio mmap/malloc beside hostside, 3 rounds), then report --quick and report under GNU time, progress kept
set -u
bash .devbundle/callC.sh > $OUT/odirect.txt 2>&1; tail -20 $OUT/odirect.txt
W=/tmp/w2; mkdir -p $W; H=/tmp/hs/hostside/hostside
timeout 60 .peers/bin/gnutime -v $H report --quick --out $W/quick --name gpu-quick > $W/quick.out 2> $OUT/quick.err; echo "quick rc=$?"
grep -E "Elapsed|Maximum resident" $OUT/quick.err; grep -E "ok in|writing|drill [0-9]" $OUT/quick.err | sed 's/hostside: //' | tail -30
timeout 170 .peers/bin/gnutime -v $H report --out $W/full --name gpu-full > $W/full.out 2> $OUT/full.err; echo "full rc=$?"
grep -E "Elapsed|Maximum resident" $OUT/full.err; grep -E "drill [0-9]" $OUT/full.err | sed 's/hostside: //'
cp $W/full/*.json $OUT/ 2>/dev/null; date -u
