#!/usr/bin/env python3
"""Writes the synthetic rack recordings: testdata/rack/<machine>.tar.gz, each one folder
<machine>/{sys,proc,etc,dev,lib} as `hostside --root` reads it.

Standard library only, deterministic: every run writes the same tarballs byte for byte (sorted
entries, mtime 0, owner root, gzip without a name or time). A machine of 72 or 144 cores is
thousands of small sysfs files; one tarball each keeps the repository light. The formats and their sources are in README.md beside this
file. Nothing here is a real machine: serial numbers, UUIDs and IP addresses are invented
(IPs from the documentation range 192.0.2.0/24, RFC 5737).

    python3 testdata/rack/make-fixtures.py
"""
import os
import shutil
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from machinetree import Tree as _Tree, pack as _pack  # noqa: E402 (testdata/machinetree.py)


def Tree(name):
    return _Tree(BUILD, name)


def pack(t):
    return _pack(t, HERE)
BUILD = None  # the temporary folder the machines are written into, then packed
MACHINES = ["gh200-numa", "gh200-cdmm", "gb200-tray", "dgx-spark", "hgx-h100"]
GIB_KB = 1024 * 1024


# ---------------------------------------------------------------- helpers

def cpulist(cpus):
    """Kernel list format: "0-71", "0-31,64-95", "" for none."""
    cpus = sorted(set(cpus))
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(out)


def cpumask(cpus, nbits):
    """Kernel bitmap format (%*pb): 32-bit hex groups, highest first, the first one only as wide as nbits needs."""
    value = 0
    for c in cpus:
        value |= 1 << c
    groups = []
    for g in range((nbits + 31) // 32):
        groups.append((value >> (32 * g)) & 0xFFFFFFFF)
    groups.reverse()
    first_bits = nbits % 32 or 32
    first_width = (first_bits + 3) // 4
    parts = [f"{groups[0]:0{first_width}x}"] + [f"{g:08x}" for g in groups[1:]]
    return ",".join(parts)


def rel(from_dir, to_path):
    return os.path.relpath(to_path, from_dir)


# ---------------------------------------------------------------- CPUs

ARM_FEATURES_V2 = ("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
                   "lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg "
                   "dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 dgh bti")
ARM_FEATURES_V92 = ARM_FEATURES_V2 + " ecv afp wfxt"
X86_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse "
             "sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl "
             "xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est "
             "tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes "
             "xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 intel_ppin "
             "cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase "
             "tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma "
             "clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc "
             "cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida "
             "arat pln pts hwp hwp_act_window hwp_epp hwp_pkg_req vnmi avx512vbmi umip pku ospke waitpkg "
             "avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid "
             "bus_lock_detect cldemote movdiri movdir64b enqcmd fsrm md_clear serialize tsxldtrk pconfig "
             "arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities")


class Cpu:
    def __init__(self, n, pkg, core_id, core_set, pkg_set, caches, **kw):
        self.n, self.pkg, self.core_id = n, pkg, core_id
        self.core_set, self.pkg_set = core_set, pkg_set
        self.caches = caches            # [(level, "Data"/"Instruction"/"Unified", size_text, shared_set)]
        self.part = kw.get("part")      # Arm MIDR part
        self.capacity = kw.get("capacity")
        self.max_khz = kw.get("max_khz")
        self.cur_khz = kw.get("cur_khz", kw.get("max_khz"))
        self.base_khz = kw.get("base_khz")
        self.cluster_set = kw.get("cluster_set")


def grace_cpus(first, count, pkg):
    """72 Neoverse V2 cores: 64K L1d/L1i and 1 MB L2 per core (hwloc#689), one L3 over the chip.

    Grace's cores differ slightly in capacity and maximum frequency (hwloc#634: LinuxCapacity
    996..1013, FrequencyMaxMHz 3321..3375, the one rising with the other): kept, spread
    deterministically, because that is what the kernel shows."""
    ladder = [(996, 3321000), (999, 3330000), (1002, 3339000), (1005, 3348000),
              (1007, 3357000), (1010, 3366000), (1013, 3375000)]
    allc = set(range(first, first + count))
    cpus = []
    for i in range(count):
        n = first + i
        cap, khz = ladder[(i * 5 + pkg * 3) % len(ladder)]
        caches = [(1, "Data", "64K", {n}), (1, "Instruction", "64K", {n}), (2, "Unified", "1024K", {n}),
                  (3, "Unified", "116736K", allc)]
        cpus.append(Cpu(n, pkg, i, {n}, allc, caches, part=0xd4f, capacity=cap, max_khz=khz,
                        cur_khz=3100000, cluster_set={n}))
    return cpus


def spark_cpus():
    """GB10: 10 Cortex-X925 + 10 Cortex-A725 in two clusters of ten (hwloc#766/#770: A725 = CPUs 0-4,10-14
    capacity 718; X925 = 5-9,15-19 capacity 997; package id 36; A725 L2 512K, L1 64K/64K, L3 8 MB)."""
    cpus = []
    for n in range(20):
        cluster = set(range(0, 10)) if n < 10 else set(range(10, 20))
        big = (n % 10) >= 5
        l2 = "2048K" if big else "512K"
        caches = [(1, "Data", "64K", {n}), (1, "Instruction", "64K", {n}), (2, "Unified", l2, {n}),
                  (3, "Unified", "8192K", cluster)]
        cpus.append(Cpu(n, 36, n, {n}, set(range(20)), caches, part=0xd85 if big else 0xd87,
                        capacity=997 if big else 718, max_khz=3900000 if big else 2808000,
                        cur_khz=2808000 if big else 2106000, cluster_set=cluster))
    return cpus


def xeon_cpus(sockets, cores):
    """Sapphire Rapids, HT on, Linux numbering: CPU n and n + sockets*cores are the two threads of a core."""
    total = sockets * cores
    cpus = []
    for t in range(2):
        for s in range(sockets):
            for c in range(cores):
                n = t * total + s * cores + c
                first = s * cores + c
                core = {first, first + total}
                pkg = set(range(s * cores, (s + 1) * cores)) | set(range(total + s * cores, total + (s + 1) * cores))
                caches = [(1, "Data", "48K", core), (1, "Instruction", "32K", core), (2, "Unified", "2048K", core),
                          (3, "Unified", "61440K", pkg)]
                cpus.append(Cpu(n, s, c, core, pkg, caches, max_khz=4100000, cur_khz=2000000, base_khz=2800000))
    cpus.sort(key=lambda x: x.n)
    return cpus


def write_cpus(t, cpus, arch, governor, driver):
    d = "/sys/devices/system/cpu"
    allc = [c.n for c in cpus]
    nbits = len(cpus)
    for f in ("online", "possible", "present"):
        t.line(f"{d}/{f}", cpulist(allc))
    t.line(f"{d}/isolated", "")
    t.line(f"{d}/offline", "")
    for c in cpus:
        cd = f"{d}/cpu{c.n}"
        tp = f"{cd}/topology"
        t.line(f"{tp}/core_cpus", cpumask(c.core_set, nbits))
        t.line(f"{tp}/package_cpus", cpumask(c.pkg_set, nbits))
        t.line(f"{tp}/core_id", c.core_id)
        t.line(f"{tp}/physical_package_id", c.pkg)
        if c.cluster_set is not None:
            t.line(f"{tp}/cluster_cpus", cpumask(c.cluster_set, nbits))
        for i, (level, typ, size, shared) in enumerate(c.caches):
            ci = f"{cd}/cache/index{i}"
            t.line(f"{ci}/level", level)
            t.line(f"{ci}/type", typ)
            t.line(f"{ci}/size", size)
            t.line(f"{ci}/shared_cpu_map", cpumask(shared, nbits))
        if c.capacity is not None:
            t.line(f"{cd}/cpu_capacity", c.capacity)
        pol = f"{d}/cpufreq/policy{c.n}"
        t.line(f"{pol}/scaling_governor", governor)
        t.line(f"{pol}/scaling_driver", driver)
        t.line(f"{pol}/cpuinfo_max_freq", c.max_khz)
        t.line(f"{pol}/scaling_cur_freq", c.cur_khz)
        if c.base_khz:
            t.line(f"{pol}/base_frequency", c.base_khz)
            t.line(f"{pol}/energy_performance_preference", "balance_performance")
        t.link(f"{cd}/cpufreq", f"../cpufreq/policy{c.n}")
    # cpuidle: the readers look at the driver, the governor and the first CPU's states only
    if arch == "arm64":
        t.line(f"{d}/cpuidle/current_driver", "psci_idle")
        states = [("WFI", 1), ("cpu-sleep", 100)]
    else:
        t.line(f"{d}/cpuidle/current_driver", "intel_idle")
        states = [("POLL", 0), ("C1", 1), ("C1E", 2), ("C6", 290)]
    t.line(f"{d}/cpuidle/current_governor_ro", "menu")
    for i, (sname, lat) in enumerate(states):
        t.line(f"{d}/cpu0/cpuidle/state{i}/name", sname)
        t.line(f"{d}/cpu0/cpuidle/state{i}/latency", lat)
        t.line(f"{d}/cpu0/cpuidle/state{i}/disable", 0)
    if driver == "intel_pstate":
        t.line(f"{d}/intel_pstate/status", "active")
        t.line(f"{d}/intel_pstate/no_turbo", 0)
    else:
        pass
    # /proc/cpuinfo
    out = []
    if arch == "arm64":
        for c in cpus:
            feats = ARM_FEATURES_V92 if c.part in (0xd85, 0xd87) else ARM_FEATURES_V2
            out.append(f"processor\t: {c.n}\nBogoMIPS\t: 2000.00\nFeatures\t: {feats}\n"
                       f"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
                       f"CPU part\t: 0x{c.part:03x}\nCPU revision\t: {1 if c.part in (0xd85, 0xd87) else 0}\n\n")
    else:
        per_pkg = len([x for x in cpus if x.pkg == 0])
        for c in cpus:
            out.append(f"processor\t: {c.n}\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
                       f"model name\t: Intel(R) Xeon(R) Platinum 8462Y+\nstepping\t: 8\nmicrocode\t: 0x2b000571\n"
                       f"cpu MHz\t\t: {c.cur_khz / 1000:.3f}\ncache size\t: 61440 KB\nphysical id\t: {c.pkg}\n"
                       f"siblings\t: {per_pkg}\ncore id\t\t: {c.core_id}\ncpu cores\t: {per_pkg // 2}\n"
                       f"apicid\t\t: {c.pkg * 128 + c.core_id * 2 + (1 if c.n >= len(cpus) // 2 else 0)}\n"
                       f"fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 32\nwp\t\t: yes\nflags\t\t: {X86_FLAGS}\n"
                       f"bugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb bhi\n"
                       f"bogomips\t: 5600.00\nclflush size\t: 64\ncache_alignment\t: 64\n"
                       f"address sizes\t: 46 bits physical, 57 bits virtual\npower management:\n\n")
    t.file("/proc/cpuinfo", "".join(out))


# ---------------------------------------------------------------- NUMA nodes and memory

def node_meminfo(node, total_kb, free_kb):
    used = total_kb - free_kb
    rows = [("MemTotal", total_kb), ("MemFree", free_kb), ("MemUsed", used), ("SwapCached", 0),
            ("Active", used // 3), ("Inactive", used // 3), ("Active(anon)", used // 6), ("Inactive(anon)", 0),
            ("Active(file)", used // 6), ("Inactive(file)", used // 3), ("Unevictable", 0), ("Mlocked", 0),
            ("Dirty", 0), ("Writeback", 0), ("FilePages", used // 2), ("Mapped", used // 20),
            ("AnonPages", used // 6), ("Shmem", 0), ("KernelStack", 0), ("PageTables", 0), ("SecPageTables", 0),
            ("NFS_Unstable", 0), ("Bounce", 0), ("WritebackTmp", 0), ("KReclaimable", 0), ("Slab", 0),
            ("SReclaimable", 0), ("SUnreclaim", 0), ("AnonHugePages", 0), ("ShmemHugePages", 0),
            ("ShmemPmdMapped", 0), ("FileHugePages", 0), ("FilePmdMapped", 0)]
    lines = [f"Node {node} {k + ':':<16}{v:>9} kB" for k, v in rows]
    lines += [f"Node {node} HugePages_Total:     0", f"Node {node} HugePages_Free:      0",
              f"Node {node} HugePages_Surp:      0"]
    return "\n".join(lines) + "\n"


def write_nodes(t, nbits, nodes, distance, possible=None, normal=None):
    """nodes: {id: (cpus, mem_kb)}, every node online; distance(a, b) -> int."""
    d = "/sys/devices/system/node"
    ids = sorted(nodes)
    t.line(f"{d}/online", cpulist(ids))
    t.line(f"{d}/possible", cpulist(possible if possible is not None else ids))
    t.line(f"{d}/has_cpu", cpulist([i for i in ids if nodes[i][0]]))
    t.line(f"{d}/has_memory", cpulist([i for i in ids if nodes[i][1] > 0]))
    t.line(f"{d}/has_normal_memory", cpulist(normal if normal is not None else [i for i in ids if nodes[i][1] > 0]))
    t.line(f"{d}/has_generic_initiator", "")
    for i in ids:
        cpus, mem = nodes[i]
        nd = f"{d}/node{i}"
        t.line(f"{nd}/cpumap", cpumask(cpus, nbits))
        t.line(f"{nd}/cpulist", cpulist(cpus))
        t.line(f"{nd}/distance", " ".join(str(distance(i, j)) for j in ids))
        free = mem - (mem // 50 if cpus else 64 if mem else 0)
        t.file(f"{nd}/meminfo", node_meminfo(i, mem, free))
        t.link(f"/sys/bus/node/devices/node{i}", f"../../../devices/system/node/node{i}")


def write_meminfo(t, total_kb, huge_kb, numa_gpu_kb=0):
    avail = total_kb - total_kb // 40
    rows = [("MemTotal", total_kb), ("MemFree", avail - total_kb // 100), ("MemAvailable", avail),
            ("Buffers", 81920), ("Cached", total_kb // 100), ("SwapCached", 0), ("Active", total_kb // 200),
            ("Inactive", total_kb // 100), ("Active(anon)", total_kb // 400), ("Inactive(anon)", 0),
            ("Active(file)", total_kb // 400), ("Inactive(file)", total_kb // 100), ("Unevictable", 0),
            ("Mlocked", 0), ("SwapTotal", 0), ("SwapFree", 0), ("Zswap", 0), ("Zswapped", 0), ("Dirty", 64),
            ("Writeback", 0), ("AnonPages", total_kb // 400), ("Mapped", 262144), ("Shmem", 65536),
            ("KReclaimable", 524288), ("Slab", 1048576), ("SReclaimable", 524288), ("SUnreclaim", 524288),
            ("KernelStack", 65536), ("PageTables", 32768), ("SecPageTables", 0), ("NFS_Unstable", 0),
            ("Bounce", 0), ("WritebackTmp", 0), ("CommitLimit", total_kb // 2), ("Committed_AS", 8388608),
            ("VmallocTotal", 133141626880 if huge_kb == 524288 else 34359738367), ("VmallocUsed", 262144),
            ("VmallocChunk", 0), ("Percpu", 98304), ("HardwareCorrupted", 0), ("AnonHugePages", 0),
            ("ShmemHugePages", 0), ("ShmemPmdMapped", 0), ("FileHugePages", 0), ("FilePmdMapped", 0)]
    lines = [f"{k + ':':<16}{v:>8} kB" for k, v in rows]
    lines += ["HugePages_Total:       0", "HugePages_Free:        0", "HugePages_Rsvd:        0",
              "HugePages_Surp:        0", f"{'Hugepagesize:':<16}{huge_kb:>8} kB", f"{'Hugetlb:':<16}{0:>8} kB"]
    t.file("/proc/meminfo", "\n".join(lines) + "\n")


def write_vm(t, thp_enabled, pmd_bytes, huge_sizes_kb, numa_balancing):
    thp = "/sys/kernel/mm/transparent_hugepage"
    modes = ["always", "madvise", "never"]
    t.line(f"{thp}/enabled", " ".join(f"[{m}]" if m == thp_enabled else m for m in modes))
    t.line(f"{thp}/defrag", "always defer defer+madvise [madvise] never")
    t.line(f"{thp}/shmem_enabled", "always within_size advise [never] deny force")
    t.line(f"{thp}/use_zero_page", 1)
    t.line(f"{thp}/hpage_pmd_size", pmd_bytes)
    t.line(f"{thp}/khugepaged/defrag", 1)
    t.line(f"{thp}/khugepaged/pages_to_scan", 4096 if pmd_bytes == 2097152 else 64)
    t.line(f"{thp}/khugepaged/scan_sleep_millisecs", 10000)
    t.line(f"{thp}/khugepaged/max_ptes_none", 511 if pmd_bytes == 2097152 else 8191)
    t.line(f"{thp}/khugepaged/pages_collapsed", 3)
    t.line(f"{thp}/khugepaged/full_scans", 120)
    for kb in huge_sizes_kb:
        h = f"/sys/kernel/mm/hugepages/hugepages-{kb}kB"
        for f in ("nr_hugepages", "free_hugepages", "resv_hugepages", "surplus_hugepages", "nr_overcommit_hugepages"):
            t.line(f"{h}/{f}", 0)
    vm = "/proc/sys/vm"
    for k, v in [("overcommit_memory", 0), ("overcommit_ratio", 50), ("swappiness", 60),
                 ("max_map_count", 65530), ("zone_reclaim_mode", 0), ("min_free_kbytes", 90112),
                 ("watermark_scale_factor", 10), ("compaction_proactiveness", 20), ("dirty_ratio", 20),
                 ("dirty_background_ratio", 10), ("nr_hugepages", 0)]:
        t.line(f"{vm}/{k}", v)
    t.line("/proc/sys/kernel/numa_balancing", numa_balancing)


# ---------------------------------------------------------------- PCI

class Pci:
    def __init__(self, bdf, cls, vendor, device, parents=(), **kw):
        self.bdf, self.cls, self.vendor, self.device = bdf, cls, vendor, device
        self.parents = list(parents)             # bridges above it, top first
        self.numa = kw.get("numa", -1)
        self.local = kw.get("local", [])
        self.link = kw.get("link")               # (speed, width) current = max
        self.driver = kw.get("driver")
        self.power = kw.get("power", "auto")
        self.group = kw.get("group")
        self.net = kw.get("net", [])             # [(ifname, speed_mbps)]
        self.ib = kw.get("ib")
        self.subsys = kw.get("subsys", (vendor, 0x0000))


def write_pci(t, devices, nbits, iommu_type):
    """Writes /sys/devices/pciDDDD:BB/... with /sys/bus/pci/devices/X relative links, as the kernel does."""
    drivers = set()
    groups = {}
    for dv in devices:
        dom_bus = dv.bdf.rsplit(":", 1)[0]
        host = f"pci{dom_bus}" if not dv.parents else f"pci{dv.parents[0].rsplit(':', 1)[0]}"
        chain = "/".join(dv.parents + [dv.bdf])
        dd = f"/sys/devices/{host}/{chain}"
        t.line(f"{dd}/class", f"0x{dv.cls:06x}")
        t.line(f"{dd}/vendor", f"0x{dv.vendor:04x}")
        t.line(f"{dd}/device", f"0x{dv.device:04x}")
        t.line(f"{dd}/subsystem_vendor", f"0x{dv.subsys[0]:04x}")
        t.line(f"{dd}/subsystem_device", f"0x{dv.subsys[1]:04x}")
        t.line(f"{dd}/numa_node", dv.numa)
        t.line(f"{dd}/local_cpulist", cpulist(dv.local))
        t.line(f"{dd}/local_cpus", cpumask(dv.local, nbits))
        t.line(f"{dd}/power/control", dv.power)
        t.line(f"{dd}/enable", 1)
        if dv.link:
            speed, width = dv.link
            for k in ("current", "max"):
                t.line(f"{dd}/{k}_link_speed", f"{speed} GT/s PCIe")
                t.line(f"{dd}/{k}_link_width", width)
        if dv.driver:
            t.link(f"{dd}/driver", rel(dd, f"/sys/bus/pci/drivers/{dv.driver}"))
            drivers.add(dv.driver)
        if dv.group is not None:
            t.link(f"{dd}/iommu_group", rel(dd, f"/sys/kernel/iommu_groups/{dv.group}"))
            groups.setdefault(dv.group, []).append((dv.bdf, dd))
        if dv.ib:
            t.line(f"{dd}/infiniband/{dv.ib}/node_type", "1: CA")
        for name, speed in dv.net:
            t.line(f"{dd}/net/{name}/speed", speed)
            t.line(f"{dd}/net/{name}/operstate", "up")
            t.line(f"{dd}/net/{name}/mtu", 4092 if name.startswith("ib") else 9000)
            t.link(f"/sys/class/net/{name}", rel("/sys/class/net", f"{dd}/net/{name}"))
        t.link(f"/sys/bus/pci/devices/{dv.bdf}", rel("/sys/bus/pci/devices", dd))
    for drv in sorted(drivers):
        t.dir(f"/sys/bus/pci/drivers/{drv}")
    for g in sorted(groups):
        gd = f"/sys/kernel/iommu_groups/{g}"
        t.line(f"{gd}/type", iommu_type)
        for bdf, dd in groups[g]:
            t.link(f"{gd}/devices/{bdf}", rel(f"{gd}/devices", dd))


def bridges(devs, entries):
    """Adds root ports / switch ports as their own Pci entries."""
    for e in entries:
        devs.append(e)


# ---------------------------------------------------------------- NVIDIA driver files

NV_PARAMS = [("ResmanDebugLevel", 4294967295), ("RmLogonRC", 1), ("ModifyDeviceFiles", 1), ("DeviceFileUID", 0),
             ("DeviceFileGID", 0), ("DeviceFileMode", 438), ("InitializeSystemMemoryAllocations", 1),
             ("UsePageAttributeTable", 4294967295), ("EnableMSI", 1), ("EnablePCIeGen3", 0), ("MemoryPoolSize", 0),
             ("KMallocHeapMaxSize", 0), ("VMallocHeapMaxSize", 0), ("IgnoreMMIOCheck", 0), ("EnableStreamMemOPs", 0),
             ("EnableUserNUMAManagement", None), ("NvLinkDisable", 0), ("RmProfilingAdminOnly", 1),
             ("PreserveVideoMemoryAllocations", 0), ("EnableS0ixPowerManagement", 0),
             ("S0ixPowerManagementVideoMemoryThreshold", 256), ("DynamicPowerManagement", 3),
             ("DynamicPowerManagementVideoMemoryThreshold", 200), ("RegisterPCIDriver", 1),
             ("EnablePCIERelaxedOrderingMode", 0), ("EnableResizableBar", 0), ("EnableGpuFirmware", 18),
             ("EnableGpuFirmwareLogs", 2), ("RmNvlinkBandwidthLinkCount", 0), ("EnableDbgBreakpoint", 0),
             ("OpenRmEnableUnsupportedGpus", 1), ("DmaRemapPeerMmio", 1), ("ImexChannelCount", 2048),
             ("CreateImexChannel0", 0), ("GrdmaPciTopoCheckOverride", 0)]


def write_nvidia(t, arch, gpus, model, coherent_mode, numa=None, uuid_seed=0):
    """gpus: list of bdf; numa: {bdf: (node, address, size)} for numa_status (absent = no file)."""
    user_numa = 0 if coherent_mode == "driver" else 1
    lines = [f"{k}: {user_numa if v is None else v}" for k, v in NV_PARAMS]
    lines += [f'CoherentGPUMemoryMode: "{coherent_mode}"', 'RegistryDwords: ""', 'RegistryDwordsPerDevice: ""',
              'RmMsg: ""', 'GpuBlacklist: ""', 'TemporaryFilePath: "/var/tmp"', 'ExcludedGpus: ""']
    t.file("/proc/driver/nvidia/params", "\n".join(lines) + "\n")
    machine = "aarch64" if arch == "arm64" else "x86_64"
    t.file("/proc/driver/nvidia/version",
           f"NVRM version: NVIDIA UNIX Open Kernel Module for {machine}  580.95.05  Release Build  (dvs-builder@U22-I3-AM02-24-3)  Tue Sep 23 09:57:46 UTC 2025\n"
           "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04) \n")
    for i, bdf in enumerate(gpus):
        uuid = f"GPU-00000000-0000-4000-8000-{uuid_seed:06x}{i:06x}"
        t.file(f"/proc/driver/nvidia/gpus/{bdf}/information",
               f"Model: \t\t {model}\nIRQ:   \t\t {200 + i}\nGPU UUID: \t {uuid}\nVideo BIOS: \t 00.00.00.00.00\n"
               f"Bus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t 0xfffffffffffff\nBus Location: \t {bdf}\n"
               f"Device Minor: \t {i}\nGPU Firmware: \t 580.95.05\nGPU Excluded:\t No\n")
        if numa and bdf in numa:
            node, addr, size = numa[bdf]
            t.file(f"/proc/driver/nvidia/gpus/{bdf}/numa_status",
                   f"Node:      {node}\nStatus:    online\nAddress:   {addr:x}\nSize:      {size:x}\n")
            t.file(f"/proc/driver/nvidia/gpus/{bdf}/offline_pages", "")
    t.line("/sys/module/nvidia/version", "580.95.05")


def write_proc_devices(t, imex=True):
    chars = ["1 mem", "4 /dev/vc/0", "4 tty", "4 ttyS", "5 /dev/tty", "5 /dev/console", "5 /dev/ptmx", "7 vcs",
             "10 misc", "13 input", "29 fb", "89 i2c", "128 ptm", "136 pts", "180 usb", "189 usb_device",
             "195 nvidia", "195 nvidiactl", "226 drm", "231 infiniband_verbs", "234 nvidia-uvm", "235 nvidia-caps"]
    if imex:
        chars.append("242 nvidia-caps-imex-channels")
    chars += ["243 uverbs", "244 ipmidev", "245 hidraw", "246 wwan_port", "247 ttyDBC", "248 aux",
              "249 cec", "250 bsg", "251 watchdog", "252 ptp", "253 pps", "254 rtc"]
    blocks = ["7 loop", "8 sd", "9 md", "11 sr", "65 sd", "128 sd", "253 device-mapper", "254 mdp", "259 blkext"]
    def row(entry):
        major, name = entry.split(" ", 1)
        return f"{int(major):>3} {name}\n"
    t.file("/proc/devices", "Character devices:\n" + "".join(row(c) for c in chars)
           + "\nBlock devices:\n" + "".join(row(b) for b in blocks))


def write_process(t, cpus, mems, mems_bits):
    pid = "4242"
    pd = f"/proc/{pid}"
    t.link("/proc/self", pid)
    t.line(f"{pd}/comm", "python3")
    t.line("/proc/irq/default_smp_affinity", cpumask(cpus, len(cpus)))
    mask = ",".join(f"{(sum(1 << m for m in mems) >> (32 * g)) & 0xFFFFFFFF:08x}"
                    for g in reversed(range(mems_bits // 32)))
    t.file(f"{pd}/status",
           "Name:\tpython3\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\nNgid:\t0\nPid:\t4242\nPPid:\t4100\n"
           "TracerPid:\t0\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nFDSize:\t256\nGroups:\t1000 \n"
           "Threads:\t1\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
           "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n"
           f"Cpus_allowed:\t{cpumask(cpus, len(cpus))}\nCpus_allowed_list:\t{cpulist(cpus)}\n"
           f"Mems_allowed:\t{mask}\nMems_allowed_list:\t{cpulist(mems)}\n"
           "voluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t1\n")
    t.file(f"{pd}/limits",
           "Limit                     Soft Limit           Hard Limit           Units     \n"
           "Max cpu time              unlimited            unlimited            seconds   \n"
           "Max file size             unlimited            unlimited            bytes     \n"
           "Max data size             unlimited            unlimited            bytes     \n"
           "Max stack size            8388608              unlimited            bytes     \n"
           "Max core file size        0                    unlimited            bytes     \n"
           "Max resident set          unlimited            unlimited            bytes     \n"
           "Max processes             2063511              2063511              processes \n"
           "Max open files            1048576              1048576              files     \n"
           "Max locked memory         unlimited            unlimited            bytes     \n"
           "Max address space         unlimited            unlimited            bytes     \n"
           "Max file locks            unlimited            unlimited            locks     \n"
           "Max pending signals       2063511              2063511              signals   \n"
           "Max msgqueue size         819200               819200               bytes     \n"
           "Max nice priority         0                    0                    \n"
           "Max realtime priority     0                    0                    \n"
           "Max realtime timeout      unlimited            unlimited            us        \n")
    t.line(f"{pd}/cgroup", "0::/user.slice/user-1000.slice/session-1.scope")
    t.file(f"{pd}/mounts",
           "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\nproc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
           "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0\n")
    t.file("/proc/mounts", "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
           "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
           "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0\n")
    # The session's cgroup holds cpu.max (the cpu controller is on for user slices) but no cpuset
    # files: systemd enables no cpuset controller for user sessions, so no reader applies a cgroup
    # restriction of CPUs or nodes.
    cg = "/sys/fs/cgroup/user.slice/user-1000.slice/session-1.scope"
    t.line(f"{cg}/cpu.max", "max 100000")
    t.line(f"{cg}/cpu.weight", 100)


def write_counters(t, arch, ncpu):
    """/proc/vmstat (the counters the readers keep, and a few more) and /proc/interrupts without device rows."""
    vm = [("nr_free_pages", 1000000), ("nr_anon_pages", 20000), ("nr_file_pages", 300000), ("numa_hit", 90000000),
          ("numa_miss", 0), ("numa_foreign", 0), ("numa_local", 90000000), ("numa_other", 0), ("pgfault", 120000000),
          ("pgmajfault", 4000), ("numa_pte_updates", 0), ("numa_hint_faults", 0), ("numa_hint_faults_local", 0),
          ("numa_pages_migrated", 0), ("compact_stall", 0), ("thp_fault_alloc", 12), ("thp_fault_fallback", 0),
          ("thp_collapse_alloc", 3)]
    t.file("/proc/vmstat", "".join(f"{k} {v}\n" for k, v in vm))
    head = " " * 11 + "".join(f"{'CPU' + str(c):<11}" for c in range(ncpu)).rstrip() + "\n"
    def row(label, each, tail):
        return f"{label:>4}: " + "".join(f"{each:>10} " for _ in range(ncpu)) + tail + "\n"
    if arch == "arm64":
        rows = [row("10", 250000, "    GICv3  27 Level     arch_timer"),
                row("IPI0", 9000, "      Rescheduling interrupts"),
                row("IPI1", 700, "      Function call interrupts")]
    else:
        rows = [row("0", 0, " IR-IO-APIC    2-edge      timer"),
                row("NMI", 40, "  Non-maskable interrupts"),
                row("LOC", 250000, "  Local timer interrupts"),
                row("RES", 9000, "  Rescheduling interrupts")]
    t.file("/proc/interrupts", head + "".join(rows))


def write_kernel(t, release, version_line, cmdline, hostname):
    t.line("/proc/sys/kernel/osrelease", release)
    t.line("/proc/sys/kernel/hostname", hostname)
    t.line("/proc/version", version_line)
    t.line("/proc/cmdline", cmdline)
    for k, v in [("sched_autogroup_enabled", 1), ("sched_rt_runtime_us", 950000), ("sched_rt_period_us", 1000000),
                 ("perf_event_paranoid", 4), ("pid_max", 4194304), ("randomize_va_space", 2), ("nmi_watchdog", 1)]:
        t.line(f"/proc/sys/kernel/{k}", v)


def write_iommu(t, units):
    for u in units:
        t.dir(f"/sys/class/iommu/{u}")


# ---------------------------------------------------------------- machines

# arm64 hugetlb sizes: contiguous-PTE, PMD and contiguous-PMD (and PUD with 4K) per granule
ARM64_4K_HUGE = [64, 2048, 32768, 1048576]
ARM64_64K_HUGE = [2048, 524288, 16777216]
GRACE_ROOT_PORT = 0x22b2    # NVIDIA Grace PCIe root port (device id assumed; see README)
CX7, BF3 = 0x1021, 0xa2dc
NV, MLX, INTEL, BRCM = 0x10de, 0x15b3, 0x8086, 0x1000


def gh200(name, cdmm):
    t = Tree(name)
    cpus = grace_cpus(0, 72, 0)
    all_cpus = list(range(72))
    governor = "schedutil" if cdmm else "performance"
    write_cpus(t, cpus, "arm64", governor, "cppc_cpufreq")
    write_counters(t, "arm64", 72)
    lpddr = 501_829_632          # node 0: 480 GB LPDDR5X less firmware carve-outs (invented)
    hbm = 99_090_432             # node 1: 94.5 GiB of the GPU's 96 GB HBM3 onlined (invented)
    nodes = {0: (all_cpus, lpddr)}
    nodes[1] = ([], 0 if cdmm else hbm)
    for i in range(2, 9):
        nodes[i] = ([], 0)

    def dist(a, b):
        return 10 if a == b else 80           # invented; shaped like the POWER9 fixture's 80s
    write_nodes(t, 72, nodes, dist, normal=[0])
    page_kb = 2048 if cdmm else 524288
    write_meminfo(t, lpddr + (0 if cdmm else hbm), page_kb)
    write_vm(t, "madvise", page_kb * 1024, ARM64_4K_HUGE if cdmm else ARM64_64K_HUGE, 1 if cdmm else 0)
    if cdmm:
        release = "6.8.0-85-generic"
        cmdline = ("BOOT_IMAGE=/vmlinuz-6.8.0-85-generic root=UUID=00000000-0000-4000-8000-000000000001 ro "
                   "iommu.passthrough=1 console=ttyAMA0")
    else:
        release = "6.8.0-1036-nvidia-64k"
        cmdline = (f"BOOT_IMAGE=/vmlinuz-{release} root=UUID=00000000-0000-4000-8000-000000000001 ro "
                   "init_on_alloc=0 numa_balancing=disable acpi_power_meter.force_cap_on=y iommu.passthrough=1 "
                   "preempt=none console=ttyAMA0")
    version = (f"Linux version {release} (buildd@bos03-arm64-050) (aarch64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) "
               "13.3.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #39-Ubuntu SMP PREEMPT_DYNAMIC Mon Sep 22 10:00:00 UTC 2025")
    write_kernel(t, release, version, cmdline, name)
    gpu = "0009:01:00.0"
    devs = [
        Pci("0009:00:00.0", 0x060400, NV, GRACE_ROOT_PORT, numa=0, local=all_cpus, link=("32.0", 16),
            driver="pcieport", power="on", group=10),
        Pci(gpu, 0x030200, NV, 0x2342, ["0009:00:00.0"], numa=0, local=all_cpus, link=("32.0", 16),
            driver="nvidia", power="auto" if cdmm else "on", group=11, subsys=(NV, 0x16eb)),
        Pci("0000:00:00.0", 0x060400, NV, GRACE_ROOT_PORT, numa=0, local=all_cpus, link=("32.0", 16),
            driver="pcieport", power="on", group=1),
        Pci("0000:01:00.0", 0x020700, MLX, CX7, ["0000:00:00.0"], numa=0, local=all_cpus, link=("32.0", 16),
            driver="mlx5_core", power="on", group=2, ib="mlx5_0", net=[("ibp1s0", 400000)], subsys=(MLX, 0x0021)),
        Pci("0002:00:00.0", 0x060400, NV, GRACE_ROOT_PORT, numa=0, local=all_cpus, link=("16.0", 4),
            driver="pcieport", power="on", group=5),
        Pci("0002:01:00.0", 0x010802, 0x144d, 0xa80a, ["0002:00:00.0"], numa=0, local=all_cpus, link=("16.0", 4),
            driver="nvme", power="on", group=6, subsys=(0x144d, 0xa801)),
    ]
    write_pci(t, devs, 72, "identity")
    write_iommu(t, ["smmu3.0x0000000011000000", "smmu3.0x0000000012000000", "smmu3.0x0000000015000000",
                    "smmu3.0x0000000016000000", "smmu3.0x0000000005000000"])
    numa = None if cdmm else {gpu: (1, 0x400000000000, 0x17a0000000)}
    write_nvidia(t, "arm64", [gpu], "NVIDIA GH200 480GB", "driver" if cdmm else "numa", numa, uuid_seed=1)
    write_proc_devices(t, imex=True)
    t.line("/sys/module/nvidia_peermem/refcnt", 0)
    t.line("/sys/module/nvidia_uvm/refcnt", 0)
    write_process(t, all_cpus, [0] if cdmm else [0, 1], 64)
    t.file("/dev/nvidia0")
    t.file("/dev/nvidiactl")
    t.file("/dev/nvidia-uvm")
    return t


def gb200():
    t = Tree("gb200-tray")
    cpus = grace_cpus(0, 72, 0) + grace_cpus(72, 72, 1)
    g0, g1 = list(range(72)), list(range(72, 144))
    write_cpus(t, cpus, "arm64", "performance", "cppc_cpufreq")
    write_counters(t, "arm64", 144)
    lpddr = 501_829_632
    hbm = 193_986_560            # 185 GiB of each B200's 186 GB HBM3e onlined (invented)
    gpus = ["0008:01:00.0", "0009:01:00.0", "0018:01:00.0", "0019:01:00.0"]
    gpu_node = {gpus[0]: 2, gpus[1]: 10, gpus[2]: 18, gpus[3]: 26}
    nodes = {0: (g0, lpddr), 1: (g1, lpddr)}
    for n in range(2, 34):
        nodes[n] = ([], hbm if n in gpu_node.values() else 0)
    home = {2: 0, 10: 0, 18: 1, 26: 1}

    def grace_of(n):
        if n < 2:
            return n
        return 0 if n < 18 else 1

    def dist(a, b):                # invented: local 10, Grace-Grace 40, own GPU 80, far GPU 120
        if a == b:
            return 10
        if a < 2 and b < 2:
            return 40
        return 80 if grace_of(a) == grace_of(b) else 120
    write_nodes(t, 144, nodes, dist, normal=[0, 1])
    write_meminfo(t, 2 * lpddr + 4 * hbm, 524288)
    write_vm(t, "madvise", 536870912, ARM64_64K_HUGE, 0)
    release = "6.8.0-1036-nvidia-64k"
    cmdline = (f"BOOT_IMAGE=/vmlinuz-{release} root=UUID=00000000-0000-4000-8000-000000000002 ro "
               "init_on_alloc=0 numa_balancing=disable acpi_power_meter.force_cap_on=y iommu.passthrough=1 "
               "console=ttyAMA0")
    version = (f"Linux version {release} (buildd@bos03-arm64-050) (aarch64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) "
               "13.3.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #39-Ubuntu SMP PREEMPT_DYNAMIC Mon Sep 22 10:00:00 UTC 2025")
    write_kernel(t, release, version, cmdline, "gb200-tray")
    devs, g = [], 20
    for bdf in gpus:
        dom = bdf.split(":")[0]
        grace = 0 if dom.startswith("000") else 1
        local = g0 if grace == 0 else g1
        rp = f"{dom}:00:00.0"
        devs.append(Pci(rp, 0x060400, NV, GRACE_ROOT_PORT, numa=grace, local=local, link=("32.0", 16),
                        driver="pcieport", power="on", group=g))
        devs.append(Pci(bdf, 0x030200, NV, 0x2941, [rp], numa=grace, local=local, link=("32.0", 16),
                        driver="nvidia", power="on", group=g + 1, subsys=(NV, 0x2046)))
        g += 2
    nics = [("0000", 0), ("0002", 0), ("0010", 1), ("0012", 1)]
    for i, (dom, grace) in enumerate(nics):
        local = g0 if grace == 0 else g1
        rp = f"{dom}:00:00.0"
        devs.append(Pci(rp, 0x060400, NV, GRACE_ROOT_PORT, numa=grace, local=local, link=("32.0", 16),
                        driver="pcieport", power="on", group=g))
        bus = int(dom, 16)
        devs.append(Pci(f"{dom}:03:00.0", 0x020700, MLX, CX7, [rp], numa=grace, local=local, link=("32.0", 16),
                        driver="mlx5_core", power="on", group=g + 1, ib=f"mlx5_{i if i < 2 else i + 2}",
                        net=[(f"ibP{bus}p3s0", 400000)], subsys=(MLX, 0x0021)))
        g += 2
    devs.append(Pci("0006:00:00.0", 0x060400, NV, GRACE_ROOT_PORT, numa=0, local=g0, link=("32.0", 16),
                    driver="pcieport", power="on", group=g))
    for f in range(2):
        devs.append(Pci(f"0006:01:00.{f}", 0x020000, MLX, BF3, ["0006:00:00.0"], numa=0, local=g0,
                        link=("32.0", 16), driver="mlx5_core", power="on", group=g + 1, ib=f"mlx5_{2 + f}",
                        net=[(f"enP6p1s0f{f}np{f}", 200000)], subsys=(MLX, 0x0051)))
    write_pci(t, devs, 144, "identity")
    write_iommu(t, [f"smmu3.0x{a:016x}" for a in (0x11000000, 0x12000000, 0x15000000, 0x16000000,
                                                   0x400011000000, 0x400012000000, 0x400015000000, 0x400016000000)])
    numa = {}
    for i, bdf in enumerate(gpus):
        numa[bdf] = (gpu_node[bdf], 0x400000000000 + i * 0x10000000000 if i < 2 else 0x600000000000 + (i - 2) * 0x10000000000,
                     0x2e40000000)
    write_nvidia(t, "arm64", gpus, "NVIDIA GB200", "numa", numa, uuid_seed=2)
    write_proc_devices(t, imex=True)
    t.line("/sys/module/nvidia_peermem/refcnt", 0)
    t.line("/sys/module/nvidia_uvm/refcnt", 0)
    write_process(t, g0 + g1, [0, 1] + sorted(home), 64)
    for i in range(4):
        t.file(f"/dev/nvidia{i}")
    t.file("/dev/nvidiactl")
    t.file("/dev/nvidia-uvm")
    t.file("/dev/nvidia-caps-imex-channels/channel0")
    t.file("/etc/nvidia-imex/config.cfg", IMEX_CONFIG)
    # every compute tray of the NVL72 rack (18), documentation addresses only (RFC 5737)
    t.file("/etc/nvidia-imex/nodes_config.cfg", "".join(f"192.0.2.{11 + i}\n" for i in range(18)))
    return t


IMEX_CONFIG = """# NVIDIA IMEX configuration file.
# Note: This configuration file is read during IMEX startup. So, IMEX
# service restart is required for new settings to take effect.
# (synthetic: the keys of the package's default file, comments shortened)
LOG_LEVEL=4
LOG_FILE_NAME=/var/log/nvidia-imex.log
LOG_APPEND_TO_LOG=1
LOG_FILE_MAX_SIZE=1024
LOG_USE_SYSLOG=0
DAEMONIZE=1
BIND_INTERFACE_IP=
SERVER_PORT=50000
IMEX_NODE_CONFIG_FILE=/etc/nvidia-imex/nodes_config.cfg
NETWORK_INTERFACE=
IMEX_WAIT_FOR_QUORUM=RECOVERY
IMEX_ENABLE_AUTH_ENCRYPTION=0
IMEX_CMD_ENABLED=1
IMEX_CMD_BIND_INTERFACE_IP=
IMEX_CMD_PORT=50005
IMEX_CMD_UNIX_DOMAIN_PATH=
IMEX_NODE_DISCONNECTED_GRACE_TIME=-1
"""


def spark():
    t = Tree("dgx-spark")
    cpus = spark_cpus()
    allc = list(range(20))
    write_cpus(t, cpus, "arm64", "performance", "cppc_cpufreq")
    write_counters(t, "arm64", 20)
    mem = 125_443_040            # hwloc#766: total=125443040KB on a GB10
    write_nodes(t, 20, {0: (allc, mem)}, lambda a, b: 10)
    write_meminfo(t, mem, 2048)
    write_vm(t, "madvise", 2097152, ARM64_4K_HUGE, 1)
    release = "6.17.0-1008-nvidia"
    version = (f"Linux version {release} (buildd@bos03-arm64-050) (aarch64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) "
               "13.3.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #8-Ubuntu SMP PREEMPT_DYNAMIC Wed Jan 21 17:56:56 UTC 2026")
    cmdline = (f"BOOT_IMAGE=/boot/vmlinuz-{release} root=UUID=00000000-0000-4000-8000-000000000003 ro "
               "quiet splash vt.handoff=7")
    write_kernel(t, release, version, cmdline, "spark")
    devs = []
    # PCI layout of hwloc#766's GB10: CX-7 (2 ports x 2 functions), NVMe, Realtek NIC, MediaTek Wi-Fi, the GPU
    for dom, rpdev, speed, width, grp in [("0000", 0x22ce, "32.0", 4, 1), ("0002", 0x22ce, "32.0", 4, 3),
                                          ("0004", 0x22ce, "16.0", 4, 5), ("0007", 0x22d0, "2.5", 1, 7),
                                          ("0009", 0x22d0, "2.5", 1, 9), ("000f", 0x22d1, "2.5", 1, 11)]:
        devs.append(Pci(f"{dom}:00:00.0", 0x060400, NV, rpdev, numa=0, local=allc, link=(speed, width),
                        driver="pcieport", power="on", group=grp))
    for i, dom in enumerate(["0000", "0002"]):
        for f in range(2):
            n = 2 * i + f
            devs.append(Pci(f"{dom}:01:00.{f}", 0x020000, MLX, CX7, [f"{dom}:00:00.0"], numa=0, local=allc,
                            link=("32.0", 4), driver="mlx5_core", power="on", group=2 + 2 * i, ib=f"rocep{1 + 2 * i}s0f{f}",
                            net=[(f"enp{1 + 2 * i}s0f{f}np{f}" if dom == "0000" else f"enP2p1s0f{f}np{f}", 200000)],
                            subsys=(MLX, 0x0024)))
    devs.append(Pci("0004:01:00.0", 0x010802, 0x1987, 0x5027, ["0004:00:00.0"], numa=0, local=allc,
                    link=("16.0", 4), driver="nvme", power="auto", group=6, subsys=(0x1987, 0x5027)))
    devs.append(Pci("0007:01:00.0", 0x020000, 0x10ec, 0x8127, ["0007:00:00.0"], numa=0, local=allc,
                    link=("2.5", 1), driver="r8127", power="auto", group=8, net=[("enP7s7", 10000)]))
    devs.append(Pci("0009:01:00.0", 0x028000, 0x14c3, 0x7925, ["0009:00:00.0"], numa=0, local=allc,
                    link=("2.5", 1), driver="mt7925e", power="auto", group=10, net=[("wlP9s9", -1)]))
    gpu = "000f:01:00.0"
    devs.append(Pci(gpu, 0x030000, NV, 0x2e12, ["000f:00:00.0"], numa=0, local=allc, link=("2.5", 1),
                    driver="nvidia", power="auto", group=12, subsys=(NV, 0x0000)))
    write_pci(t, devs, 20, "DMA-FQ")
    write_iommu(t, [f"smmu3.0x{a:016x}" for a in (0x16000000, 0x17000000, 0x18000000)])
    write_nvidia(t, "arm64", [gpu], "NVIDIA GB10", "", None, uuid_seed=3)
    write_proc_devices(t, imex=True)
    t.line("/sys/module/nvidia_uvm/refcnt", 0)
    write_process(t, allc, [0], 64)
    t.file("/dev/nvidia0")
    t.file("/dev/nvidiactl")
    t.file("/dev/nvidia-uvm")
    return t


def hgx():
    t = Tree("hgx-h100")
    sockets, cores = 2, 32
    cpus = xeon_cpus(sockets, cores)
    total = sockets * cores
    s0 = list(range(0, cores)) + list(range(total, total + cores))
    s1 = list(range(cores, total)) + list(range(total + cores, 2 * total))
    write_cpus(t, cpus, "x86", "powersave", "intel_pstate")
    write_counters(t, "x86", 2 * total)
    ddr = 528_260_992            # 512 GiB DDR5 per socket less reservations (invented)
    write_nodes(t, 2 * total, {0: (s0, ddr), 1: (s1, ddr)}, lambda a, b: 10 if a == b else 21)
    write_meminfo(t, 2 * ddr, 2048)
    write_vm(t, "always", 2097152, [2048, 1048576], 1)
    release = "5.15.0-151-generic"
    version = (f"Linux version {release} (buildd@lcy02-amd64-010) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, "
               "GNU ld (GNU Binutils for Ubuntu) 2.38) #161-Ubuntu SMP Tue Jul 22 14:25:40 UTC 2025")
    cmdline = (f"BOOT_IMAGE=/vmlinuz-{release} root=UUID=00000000-0000-4000-8000-000000000004 ro "
               "intel_iommu=on iommu=pt console=tty0 console=ttyS0,115200n8")
    write_kernel(t, release, version, cmdline, "hgx-h100")
    devs, grp = [], 20
    gpus = []
    # per GPU: root port -> Broadcom PEX89xxx switch (upstream, two downstream) -> GPU and a ConnectX-7
    for i, bus in enumerate([0x15, 0x37, 0x48, 0x59, 0x97, 0xb8, 0xc9, 0xda]):
        node = 0 if i < 4 else 1
        local = s0 if node == 0 else s1
        rp = f"0000:{bus:02x}:01.0"
        up = f"0000:{bus + 1:02x}:00.0"
        dn_gpu, dn_nic = f"0000:{bus + 2:02x}:00.0", f"0000:{bus + 2:02x}:01.0"
        gpu, nic = f"0000:{bus + 3:02x}:00.0", f"0000:{bus + 4:02x}:00.0"
        gpus.append(gpu)
        for bdf, parents, dev in [(rp, [], 0x352a), (up, [rp], 0xc030), (dn_gpu, [rp, up], 0xc030),
                                  (dn_nic, [rp, up], 0xc030)]:
            devs.append(Pci(bdf, 0x060400, INTEL if dev == 0x352a else BRCM, dev, parents, numa=node, local=local,
                            link=("32.0", 16), driver="pcieport", power="on", group=grp))
            grp += 1
        devs.append(Pci(gpu, 0x030200, NV, 0x2330, [rp, up, dn_gpu], numa=node, local=local, link=("32.0", 16),
                        driver="nvidia", power="on", group=grp, subsys=(NV, 0x16c1)))
        devs.append(Pci(nic, 0x020700, MLX, CX7, [rp, up, dn_nic], numa=node, local=local, link=("32.0", 16),
                        driver="mlx5_core", power="on", group=grp + 1, ib=f"mlx5_{i}",
                        net=[(f"ibp{bus + 4}s0", 400000)], subsys=(MLX, 0x0021)))
        grp += 2
    # four third-generation NVSwitches behind one more switch on socket 1 ("Bridge" class 0680)
    rp, up = "0000:e2:01.0", "0000:e3:00.0"
    devs.append(Pci(rp, 0x060400, INTEL, 0x352a, [], numa=1, local=s1, link=("16.0", 4), driver="pcieport",
                    power="on", group=grp))
    devs.append(Pci(up, 0x060400, BRCM, 0xc030, [rp], numa=1, local=s1, link=("16.0", 4), driver="pcieport",
                    power="on", group=grp + 1))
    grp += 2
    for k in range(4):
        dn = f"0000:e4:{k:02x}.0"
        devs.append(Pci(dn, 0x060400, BRCM, 0xc030, [rp, up], numa=1, local=s1, link=("16.0", 2),
                        driver="pcieport", power="on", group=grp))
        devs.append(Pci(f"0000:{0xe5 + k:02x}:00.0", 0x068000, NV, 0x22a3, [rp, up, dn], numa=1, local=s1,
                        link=("16.0", 2), driver="nvidia-nvswitch", power="on", group=grp + 1, subsys=(NV, 0x1796)))
        grp += 2
    write_pci(t, devs, 2 * total, "identity")
    write_iommu(t, [f"dmar{i}" for i in range(8)])
    write_nvidia(t, "x86", gpus, "NVIDIA H100 80GB HBM3", "", None, uuid_seed=4)
    write_proc_devices(t, imex=True)
    t.line("/sys/module/nvidia_peermem/refcnt", 0)
    t.line("/sys/module/nvidia_uvm/refcnt", 0)
    write_process(t, s0 + s1, [0, 1], 1024)
    for i in range(8):
        t.file(f"/dev/nvidia{i}")
    t.file("/dev/nvidiactl")
    t.file("/dev/nvidia-uvm")
    for k in range(4):
        t.file(f"/dev/nvidia-nvswitch{k}")
    t.file("/dev/nvidia-nvswitchctl")
    # what `systemctl enable nvidia-fabricmanager` leaves: a link from the target's .wants to the unit
    t.file("/lib/systemd/system/nvidia-fabricmanager.service",
           "[Unit]\nDescription=NVIDIA fabric manager service\nAfter=network-online.target\nRequires=network-online.target\n\n"
           "[Service]\nUser=root\nPrivateTmp=false\nType=forking\nExecStart=/usr/bin/nv-fabricmanager -c "
           "/usr/share/nvidia/nvswitch/fabricmanager.cfg\nLimitCORE=infinity\nTimeoutStartSec=infinity\n\n"
           "[Install]\nWantedBy=multi-user.target\n")
    t.link("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service",
           "/lib/systemd/system/nvidia-fabricmanager.service")
    return t


def main():
    global BUILD
    BUILD = tempfile.mkdtemp(prefix="rack-fixtures-")
    try:
        made = [gh200("gh200-numa", False), gh200("gh200-cdmm", True), gb200(), spark(), hgx()]
        for t in made:
            out = pack(t)
            print(f"{os.path.basename(out)}: {t.count} files and links, {os.path.getsize(out):,} bytes")
    finally:
        shutil.rmtree(BUILD)


if __name__ == "__main__":
    main()
