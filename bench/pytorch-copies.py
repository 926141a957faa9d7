"""PyTorch's copies, measured as shared/fixtures/h200/anchors.md did (tensor.copy_, 256 MiB,
10 copies after 3 warm-ups, synchronous, wall clock), so hostside's pageable and pinned figures
can be set beside PyTorch's in the same run on the same machine. Prints one JSON line."""
import json
import time

import torch

SIZE = 256 << 20
COPIES, WARMUPS = 10, 3


def rate(dst, src):
    for _ in range(WARMUPS):
        dst.copy_(src)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(COPIES):
        dst.copy_(src)
    torch.cuda.synchronize()
    return SIZE * COPIES / (time.perf_counter() - t) / 1e9


dev = torch.empty(SIZE, dtype=torch.uint8, device="cuda")
pageable = torch.ones(SIZE, dtype=torch.uint8)
pinned = torch.ones(SIZE, dtype=torch.uint8).pin_memory()
print(json.dumps({
    "h2d_pinned": rate(dev, pinned), "d2h_pinned": rate(pinned, dev),
    "h2d_pageable": rate(dev, pageable), "d2h_pageable": rate(pageable, dev),
}))
