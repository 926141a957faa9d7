"""PyTorch's copies, measured as shared/fixtures/h200/anchors.md did (tensor.copy_, 256 MiB,
10 copies after 3 warm-ups, synchronous, wall clock), so hostside's pageable and pinned figures
can be set beside PyTorch's in the same run on the same machine. Prints one JSON line.

With --alignment [ROUNDS] (default 3): the pageable copies into and out of host buffers of four
alignments instead, in turn each round, one JSON line a round: torch.ones (PyTorch's CPU allocator,
posix_memalign to 64 bytes: 64 bytes past a page), a page-aligned anonymous mapping, the same 64 bytes
in, and a 2 MiB-aligned mapping with MADV_HUGEPAGE (docs/measurements/2026-12-07-h100-night.md)."""
import ctypes
import json
import mmap
import sys
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


def mapped(extra, offset, huge=False):
    """SIZE bytes of an anonymous mapping as a tensor, `offset` bytes in (or at its first 2 MiB boundary with
    MADV_HUGEPAGE), filled; the mapping is returned too, to be kept alive."""
    m = mmap.mmap(-1, SIZE + extra)
    addr = ctypes.addressof((ctypes.c_char * (SIZE + extra)).from_buffer(m))
    if huge:
        offset = (-addr) % (2 << 20)
        ctypes.CDLL(None).madvise(ctypes.c_void_p(addr + offset), ctypes.c_size_t(SIZE), 14)  # MADV_HUGEPAGE
    t = torch.frombuffer(m, dtype=torch.uint8, count=SIZE, offset=offset)
    t.fill_(1)
    return m, t


def alignments(dev, rounds):
    ones = torch.ones(SIZE, dtype=torch.uint8)
    (m1, page), (m2, off64), (m3, huge) = mapped(0, 0), mapped(4096, 64), mapped(4 << 20, 0, True)
    print(json.dumps({"torch.ones % 4096": ones.data_ptr() % 4096}))
    for r in range(rounds):
        out = {"round": r + 1}
        for name, t in (("torch.ones", ones), ("mmap page-aligned", page), ("mmap +64 B", off64), ("mmap 2 MiB + MADV_HUGEPAGE", huge)):
            out[name + " d2h"] = round(rate(t, dev), 2)
            out[name + " h2d"] = round(rate(dev, t), 2)
        print(json.dumps(out))
    del m1, m2, m3


dev = torch.empty(SIZE, dtype=torch.uint8, device="cuda")
if len(sys.argv) > 1 and sys.argv[1] == "--alignment":
    alignments(dev, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    sys.exit(0)
pageable = torch.ones(SIZE, dtype=torch.uint8)
pinned = torch.ones(SIZE, dtype=torch.uint8).pin_memory()
print(json.dumps({
    "h2d_pinned": rate(dev, pinned), "d2h_pinned": rate(pinned, dev),
    "h2d_pageable": rate(dev, pageable), "d2h_pageable": rate(pageable, dev),
}))
