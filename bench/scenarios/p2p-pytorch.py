"""PyTorch's view of the GPUs' peers, beside hostside's P2P figures on a multi-GPU machine:
torch.cuda.can_device_access_peer for every ordered pair, and a device-to-device copy per
pair (tensor.copy_ of 512 MiB, nvbandwidth's default buffer, 10 copies after 3 warm-ups,
timed with CUDA events on the destination's stream, median of 5 samples). With one GPU it says
so. Prints one JSON line."""
import json
import statistics

import torch

SIZE = 512 << 20
COPIES, WARMUPS, SAMPLES = 10, 3, 5


def copy_gbs(src_dev, dst_dev):
    src = torch.empty(SIZE, dtype=torch.uint8, device=f"cuda:{src_dev}")
    dst = torch.empty(SIZE, dtype=torch.uint8, device=f"cuda:{dst_dev}")
    rates = []
    with torch.cuda.device(dst_dev):
        for _ in range(WARMUPS):
            dst.copy_(src)
        torch.cuda.synchronize(dst_dev)
        torch.cuda.synchronize(src_dev)
        for _ in range(SAMPLES):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(COPIES):
                dst.copy_(src, non_blocking=True)
            end.record()
            end.synchronize()
            rates.append(SIZE * COPIES / (start.elapsed_time(end) / 1e3) / 1e9)
    return statistics.median(rates)


n = torch.cuda.device_count()
out = {"gpus": n, "names": [torch.cuda.get_device_name(i) for i in range(n)]}
if n < 2:
    out["note"] = "one GPU: no peer to copy to"
else:
    out["can_access_peer"] = [[i == j or torch.cuda.can_device_access_peer(i, j) for j in range(n)] for i in range(n)]
    out["copy_gbs"] = [[None if i == j else round(copy_gbs(i, j), 2) for j in range(n)] for i in range(n)]
print(json.dumps(out))
