# How a file's cached pages are held: the share in large folios (compound pages) and
# single 4 KiB ones, from the frames its read-only mapping shows (root: /proc/self/pagemap,
# /proc/kpageflags). Only pages already cached are touched, so it reads nothing from the disk.
#   python3 bench/folios.py FILE
import ctypes, mmap, os, struct, sys

f = os.path.realpath(sys.argv[1]); page = os.sysconf("SC_PAGE_SIZE")
fd = os.open(f, os.O_RDONLY); size = os.fstat(fd).st_size
m = mmap.mmap(fd, size, prot=mmap.PROT_READ)
start = None
for line in open("/proc/self/maps"):
    parts = line.split()
    if len(parts) >= 6 and parts[5] == f:
        a, b = (int(x, 16) for x in parts[0].split("-"))
        if b - a >= size - page: start = a; break
n = (size + page - 1) // page
libc = ctypes.CDLL(None, use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
vec = (ctypes.c_ubyte * n)()
if libc.mincore(ctypes.c_void_p(start), ctypes.c_size_t(size), vec) != 0: sys.exit("mincore failed")
resident = [i for i in range(n) if vec[i] & 1]
for i in resident: m[i * page]  # mapped now, so pagemap shows the frame
heads = tails = single = unmapped = 0
with open("/proc/self/pagemap", "rb") as pm, open("/proc/kpageflags", "rb") as kf:
    for i in resident:
        pm.seek((start // page + i) * 8); e = struct.unpack("<Q", pm.read(8))[0]
        if not (e >> 63) & 1: unmapped += 1; continue
        kf.seek((e & ((1 << 55) - 1)) * 8); flags = struct.unpack("<Q", kf.read(8))[0]
        if flags >> 15 & 1: heads += 1     # KPF_COMPOUND_HEAD
        elif flags >> 16 & 1: tails += 1   # KPF_COMPOUND_TAIL
        else: single += 1
print(f"pages {n}, cached {len(resident)}, in large folios {heads + tails} ({heads} folios), single {single}, unmapped {unmapped}")
