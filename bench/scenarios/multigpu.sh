#!/usr/bin/env bash
# Several GPUs on one machine: what NVIDIA's tools say of the GPUs' wiring (nvidia-smi topo -m, topo -p2p r, nvlink -s),
# hostside's all-GPU and peer test cases three times (nvbandwidth's keys; with one GPU the peer
# ones say why they cannot run), the whole of hostside machine as text and JSON, and PyTorch's
# view of peer access and host copies beside them. Where nvbandwidth is installed it runs the
# matching test cases in the same call and bench/scenarios/multigpu-table.py sets the two side by
# side. Both number the GPUs by PCI address (CUDA_DEVICE_ORDER), so their matrices line up.
# Everything is tarred to all.tar.gz (the device tool returns few files).
# Usage: HOSTSIDE_PEERS=.peers BUNDLE=.devbundle/hostside-bundle.tar.gz bench/run multigpu
set -uo pipefail
out=${OUT:?run it through bench/run, which sets OUT}
mkdir -p "$out"
read -r -a J <<<"${HOSTSIDE:?run it through bench/run, which sets HOSTSIDE}"
nvbandwidth=${HOSTSIDE_PEERS:-.}/bin/nvbandwidth
CASES=host_to_all_memcpy_ce,all_to_host_memcpy_ce,host_to_device_ce_pinned,device_to_host_ce_pinned
CASES+=,device_to_device_memcpy_read_ce,device_to_device_memcpy_write_ce
CASES+=,device_to_device_bidirectional_memcpy_read_ce,device_to_device_bidirectional_memcpy_write_ce
CASES+=,device_to_device_memcpy_read_sm,device_to_device_memcpy_write_sm,device_to_device_latency_sm
CASES+=,device_to_device_memcpy_staged_ce
# nvbandwidth's names for the same cases (its pinned single-GPU copies are hostside's *_ce_pinned)
NVB="host_to_all_memcpy_ce all_to_host_memcpy_ce host_to_device_memcpy_ce device_to_host_memcpy_ce"
NVB+=" device_to_device_memcpy_read_ce device_to_device_memcpy_write_ce"
NVB+=" device_to_device_bidirectional_memcpy_read_ce device_to_device_bidirectional_memcpy_write_ce"
NVB+=" device_to_device_memcpy_read_sm device_to_device_memcpy_write_sm device_to_device_latency_sm"
export CUDA_DEVICE_ORDER=PCI_BUS_ID

{ date -u +%FT%TZ; hostname; nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv; } > "$out/machine-id.txt" 2>&1
nvidia-smi topo -m > "$out/topo-m.txt" 2>&1
nvidia-smi topo -p2p r > "$out/topo-p2p-r.txt" 2>&1
nvidia-smi nvlink -s > "$out/nvlink-s.txt" 2>&1
if [[ -x $nvbandwidth ]]; then
  "$nvbandwidth" -t $NVB > "$out/nvbandwidth.txt" 2>&1
else
  echo "nvbandwidth: not run: no bin/nvbandwidth in HOSTSIDE_PEERS" > "$out/nvbandwidth.txt"
fi
"${J[@]}" machine --list > "$out/list.txt" 2>&1
for i in 1 2 3; do
  /usr/bin/time -v "${J[@]}" machine --only "$CASES" --json > "$out/cases-$i.json" 2> "$out/cases-$i.err"
  echo "cases run $i: exit $?" >> "$out/exits.txt"
done
"${J[@]}" machine > "$out/machine.txt" 2>&1; echo "machine text: exit $?" >> "$out/exits.txt"
"${J[@]}" machine --no-measure --json > "$out/machine-facts.json" 2> "$out/machine-facts.err"; echo "machine facts: exit $?" >> "$out/exits.txt"
if [[ -x $nvbandwidth ]]; then
  python3 bench/scenarios/multigpu-table.py "$out/nvbandwidth.txt" "$out"/cases-*.json > "$out/vs-nvbandwidth.txt" 2>&1
fi
python3 bench/scenarios/p2p-pytorch.py > "$out/p2p-pytorch.json" 2>&1
python3 bench/pytorch-copies.py > "$out/pytorch-copies.txt" 2>&1
tar czf "$out/all.tar.gz" -C "$out" --exclude all.tar.gz .
