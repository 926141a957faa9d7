#!/usr/bin/env bash
# fio for a machine without it and without a network: built from Debian's fio 3.33 source
# (.devtools/src/fio_3.33.orig.tar.gz, carried) with only what that machine has (no libaio,
# rbd, rdma engines needed: psync and io_uring are fio's own). Puts fio in .devtools/bin.
set -euo pipefail
command -v fio >/dev/null && { echo "fio: $(command -v fio)"; exit 0; }
mkdir -p .devtools/build .devtools/bin
tar xzf .devtools/src/fio_3.33.orig.tar.gz -C .devtools/build
cd .devtools/build/fio-3.33
./configure --disable-native > configure.log 2>&1 || { tail -20 configure.log; exit 1; }
make -j"$(nproc)" fio > make.log 2>&1 || { tail -30 make.log; exit 1; }
cp fio ../../bin/fio
echo "fio built: $(../../bin/fio --version)"
