#!/bin/bash
# same-core futex ping-pong: refs (C) with its AVX-512 state clean and dirtied (DIRTY_ZMM), hostside's case with the JVM as it
# is and limited to AVX2 (-XX:UseAVX=2), three rounds; whether the XSAVE state a JVM thread carries is the 1.2x
set -u
gcc -O2 -mavx512f -o /tmp/refsz .devbundle/refsz.c -lpthread || exit 0
grep -m1 "model name" /proc/cpuinfo; grep -m1 -o "avx512f" /proc/cpuinfo
mkdir -p /tmp/hs && [ -x /tmp/hs/hostside/hostside ] || tar xzf .devbundle/hostside-bundle.tar.gz -C /tmp/hs
H=/tmp/hs/hostside/hostside
hs() { $H cpu --only context_switch_same_core --json 2>/dev/null | python3 -c "
import json,sys;d=json.load(sys.stdin)
f=[x for x in d['figures'] if x['key']=='context_switch_same_core']
print('hostside $1', round(f[0]['value']), 'ns', round(f[0]['min']), '-', round(f[0]['max']) if f else 'no figure')"; }
for r in 1 2 3; do
  echo "round $r"; /tmp/refsz pingpong futex 0 0 | cut -c1-80; DIRTY_ZMM=1 /tmp/refsz pingpong futex 0 0 | cut -c1-80
  hs default; JAVA_TOOL_OPTIONS=-XX:UseAVX=2 hs avx2
done
