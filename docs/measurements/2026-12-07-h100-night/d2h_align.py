"""Pageable device-to-host copies by PyTorch into destinations of different alignment, interleaved:
torch.ones (PyTorch's CPU allocator: posix_memalign to 64 bytes), a page-aligned mmap, the same mmap 64 bytes in,
a 2 MiB-aligned mmap with MADV_HUGEPAGE. 256 MiB, 10 copies after 3 warm-ups, as bench/pytorch-copies.py."""
import ctypes, json, mmap, sys, time
import torch

SIZE = 256 << 20
COPIES, WARMUPS, ROUNDS = 10, 3, int(sys.argv[1]) if len(sys.argv) > 1 else 3
libc = ctypes.CDLL(None)

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
    m = mmap.mmap(-1, SIZE + extra)
    buf = (ctypes.c_char * (SIZE + extra)).from_buffer(m)
    addr = ctypes.addressof(buf)
    start = offset
    if huge:
        start = (-addr) % (2 << 20)
        libc.madvise(ctypes.c_void_p(addr + start), ctypes.c_size_t(SIZE), 14)  # MADV_HUGEPAGE
    t = torch.frombuffer(m, dtype=torch.uint8, count=SIZE, offset=start)
    t.fill_(1)
    return m, t

dev = torch.empty(SIZE, dtype=torch.uint8, device="cuda")
dev.fill_(2)
ones = torch.ones(SIZE, dtype=torch.uint8)
keep = []
m1, page = mapped(0, 0); keep.append(m1)
m2, off64 = mapped(4096, 64); keep.append(m2)
m3, huge = mapped(4 << 20, 0, True); keep.append(m3)
print("torch.ones data_ptr % 4096 =", ones.data_ptr() % 4096, "; % 2MiB =", ones.data_ptr() % (2 << 20))
for r in range(ROUNDS):
    out = {}
    for name, t in (("torch.ones", ones), ("mmap page-aligned", page), ("mmap +64 B", off64), ("mmap 2 MiB + MADV_HUGEPAGE", huge)):
        out[name + " d2h"] = round(rate(t, dev), 2)
        out[name + " h2d"] = round(rate(dev, t), 2)
    print(json.dumps({"round": r + 1, **out}))
