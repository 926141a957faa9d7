#!/usr/bin/env bash
# hostside's copies and PyTorch's, alternated in one run on one machine, so that the comparison
# is not spoiled by the machine's mood on the day the anchors were taken.
# Usage (repo root, .jre/ and target/hostside.jar present, python3 with torch): bash bench/device-pageable.sh OUTDIR [ROUNDS]
set -uo pipefail
out=${1:?usage: bench/device-pageable.sh OUTDIR [ROUNDS]}
rounds=${2:-3}
mkdir -p "$out"
J=(.jre/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar target/hostside.jar)
keys=host_to_device_ce_pinned,device_to_host_ce_pinned,host_to_device_ce_pageable,device_to_host_ce_pageable
{
  for r in $(seq "$rounds"); do
    echo "== round $r: pytorch"; python3 bench/pytorch-copies.py
    echo "== round $r: hostside"; "${J[@]}" machine --only "$keys" --json | python3 -c '
import json, sys
g = json.load(sys.stdin)["gpu"]
for run in g["runs"]:
    for x in run["results"]:
        v = x.get("value") or {}
        print(x["key"], x["status"], v.get("median"), v.get("min"), v.get("max"))'
  done
} 2>&1 | tee "$out/pageable.log"
