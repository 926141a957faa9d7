#!/bin/bash
# report-costs --before d462ff4 (the evening's callE.sh, with BEFORE), then PyTorch's pageable copies by buffer alignment
# (run then as .devbundle/d2h_align.py; the same code is now bench/pytorch-copies.py --alignment)
set -u
BEFORE=.devbundle/before-d462ff4-thin.tar.gz bash docs/measurements/2026-12-07-h200-evening/callE.sh
cat /sys/kernel/mm/transparent_hugepage/enabled
timeout 150 python3 bench/pytorch-copies.py --alignment 3 > $OUT/d2h-align.txt 2>&1; echo "d2h_align rc=$?"; cat $OUT/d2h-align.txt
