package hostside.vm.facts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.core.Units;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
import hostside.fs.Read;
import hostside.process.Limits;
import hostside.process.ThisProcess;
import hostside.vm.facts.VmFacts.Arch;
import hostside.vm.facts.VmFacts.HugetlbPool;
import hostside.vm.facts.VmFacts.Khugepaged;
import hostside.vm.facts.VmFacts.Meminfo;
import hostside.vm.facts.VmFacts.Mthp;
import hostside.vm.facts.VmFacts.NodePool;
import hostside.vm.facts.VmFacts.PageSize;
import hostside.vm.facts.VmFacts.ProcessLimits;
import hostside.vm.facts.VmFacts.Setting;
import hostside.vm.facts.VmFacts.Sysctl;
import hostside.vm.facts.VmFacts.Thp;

/**
 * Reads {@link VmFacts} through an {@link FsRoot}: facts only, nothing is measured here.
 * Never throws on what it reads: a garbled value becomes null and an "unknown" line naming
 * the file and why.
 */
public final class VmFactsReader {
    static final String THP = "/sys/kernel/mm/transparent_hugepage";
    static final String HUGETLB = "/sys/kernel/mm/hugepages";
    static final String NODE = "/sys/devices/system/node";
    static final String VM = "/proc/sys/vm/";
    /** CAP_IPC_LOCK: lock memory beyond RLIMIT_MEMLOCK (include/uapi/linux/capability.h). */
    static final int CAP_IPC_LOCK = 14;

    private static final Pattern HUGE_DIR = Pattern.compile("hugepages-(\\d{1,12})kB");
    private static final Pattern NODE_DIR = Pattern.compile("node(\\d{1,6})");

    private final FsRoot fs;
    private final List<String> unknowns = new ArrayList<>();
    private final FactReads reads;

    private VmFactsReader(FsRoot fs) {
        this.fs = fs;
        this.reads = new FactReads(fs, unknowns);
    }

    /**
     * @param livePageSize the page size from sysconf(_SC_PAGESIZE) when the caller could ask
     *                     (live, through the FFM layer); preferred over everything read here
     */
    public static VmFacts read(FsRoot fs, OptionalLong livePageSize) {
        return new VmFactsReader(fs).readAll(livePageSize == null ? OptionalLong.empty() : livePageSize);
    }

    private VmFacts readAll(OptionalLong livePageSize) {
        Arch arch = ArchReader.read(fs, reads);
        Thp thp = thp();
        PageSize pageSize = pageSize(livePageSize, thp.pmdSizeBytes(), arch);
        List<Integer> nodeIds = nodeIds();
        List<HugetlbPool> hugetlb = hugetlb(nodeIds);
        Meminfo memory = meminfo();
        Sysctl sysctl = sysctl();
        Integer numaNodes = numaNodes(nodeIds);
        List<String> rdma = List.copyOf(fs.list("/sys/class/infiniband"));
        Map<String, Long> vmstat = vmstat();
        ProcessLimits process = process();
        return new VmFacts(arch, pageSize, thp, hugetlb, memory, sysctl, numaNodes, memoryNodes(nodeIds), rdma, vmstat, process,
                List.copyOf(unknowns));
    }

    // ---- page size ----

    private PageSize pageSize(OptionalLong live, Long pmd, Arch arch) {
        if (live.isPresent()) {
            long v = live.getAsLong();
            if (v >= 1024 && Long.bitCount(v) == 1) return new PageSize(v, "sysconf(_SC_PAGESIZE) of this process", false);
            unknowns.add("page size: sysconf(_SC_PAGESIZE) gave " + v + ", not a page size; read from files instead");
        }
        Read smaps = fs.read("/proc/self/smaps");
        if (smaps instanceof Read.Ok ok) {
            Matcher m = Pattern.compile("(?m)^KernelPageSize:[ \\t]*(\\S*)[ \\t]*(\\S*)").matcher(ok.text());
            if (m.find()) {
                Long kb = parseNumber(m.group(1));
                if (kb != null && m.group(2).equals("kB") && kb > 0 && Long.bitCount(kb) == 1 && kb < (1L << 40)) {
                    return new PageSize(kb * 1024, "/proc/self/smaps: KernelPageSize of the first mapping", false);
                }
                garbage("/proc/self/smaps", "KernelPageSize is not a size", m.group(0));
            } else if (!ok.text().isBlank()) {
                unknowns.add("/proc/self/smaps: no KernelPageSize line");
            }
        } else if (smaps instanceof Read.Failed f && !f.reason().equals("missing")) {
            unknowns.add(smaps.why());
        }
        boolean powerpc = arch.name() != null && arch.name().startsWith("ppc");
        if (pmd != null && !powerpc) {
            Long derived = pageFromPmd(pmd);
            if (derived != null) {
                return new PageSize(derived, "derived from hpage_pmd_size " + Units.bytes(pmd)
                        + " (a PMD maps page size x page size / 8 bytes with 8-byte page table entries)", false);
            }
            unknowns.add(THP + "/hpage_pmd_size: " + pmd + " is no page size squared over 8; page size not derived from it");
        }
        String a = arch.name();
        if (a == null) {
            return new PageSize(null, "unknown (no sysconf value, no /proc/self/smaps, no usable hpage_pmd_size, and the architecture is unknown)", false);
        }
        String from = " (architecture from " + arch.source() + ")";
        return switch (a) {
            case "x86_64", "i686", "s390x", "riscv64" -> new PageSize(4096L, "4 KiB: the only base page size " + a + " Linux uses" + from, false);
            case "aarch64" -> new PageSize(4096L, "assumed: 4 KiB, the usual aarch64 kernel; aarch64 kernels are also built for 16 or 64 KiB (many Grace systems run 64 KiB)" + from, true);
            case "ppc64le", "ppc64" -> new PageSize(65536L, "assumed: 64 KiB, what ppc64 distributions build; 4 KiB kernels exist" + from, true);
            default -> new PageSize(null, "unknown (" + a + ": no default page size known, and nothing read gives it)", false);
        };
    }

    /** PMD size = page^2 / 8 (8-byte entries, one page per table): 2 MiB -> 4 KiB, 32 MiB -> 16 KiB, 512 MiB -> 64 KiB. */
    static Long pageFromPmd(long pmd) {
        if (pmd <= 0 || Long.bitCount(pmd) != 1) return null;
        long square = pmd * 8;
        if (square <= 0) return null;
        long page = Math.round(Math.sqrt((double) square));
        if (page * page != square || page < 1024) return null;
        return page;
    }

    // ---- THP ----

    private Thp thp() {
        if (!fs.isDirectory(THP)) {
            String why = !fs.isLive() && !fs.isDirectory("/sys/kernel/mm")
                    ? "unavailable (not in this recording: it holds no /sys/kernel/mm)"
                    : "unavailable (no " + THP + ": a kernel built without CONFIG_TRANSPARENT_HUGEPAGE, or older than 2.6.38)";
            return new Thp(why, null, null, null, null, null, null, List.of());
        }
        Setting enabled = setting(THP + "/enabled", true);
        Setting defrag = setting(THP + "/defrag", true);
        Setting shmem = setting(THP + "/shmem_enabled", false);
        Integer zero = integer(THP + "/use_zero_page", false);
        Long pmd = number(THP + "/hpage_pmd_size", false);
        if (pmd != null && (pmd <= 0 || Long.bitCount(pmd) != 1)) {
            garbage(THP + "/hpage_pmd_size", "not a power of two", String.valueOf(pmd));
            pmd = null;
        }
        String k = THP + "/khugepaged/";
        Khugepaged khugepaged = fs.isDirectory(THP + "/khugepaged")
                ? new Khugepaged(integer(k + "defrag", false), number(k + "pages_to_scan", false),
                        number(k + "scan_sleep_millisecs", false), number(k + "max_ptes_none", false),
                        number(k + "pages_collapsed", false), number(k + "full_scans", false))
                : null;
        List<Mthp> mthp = new ArrayList<>();
        for (String name : fs.list(THP)) {
            if (!name.startsWith("hugepages-")) continue;
            Long size = hugeDirSize(name, THP);
            if (size == null) continue;
            String d = THP + "/" + name + "/";
            // anonymous mTHP has no order-1 size: hugepages-8kB holds only shmem_enabled
            mthp.add(new Mthp(size, setting(d + "enabled", false), setting(d + "shmem_enabled", false)));
        }
        mthp.sort(Comparator.comparing(Mthp::sizeBytes));
        return new Thp("available", enabled, defrag, shmem, zero, pmd, khugepaged, List.copyOf(mthp));
    }

    private Setting setting(String path, boolean expected) {
        Optional<String> t = text(path, expected);
        if (t.isEmpty()) return null;
        try {
            return Setting.parse(t.get());
        } catch (IllegalArgumentException e) {
            garbage(path, e.getMessage(), t.get());
            return Setting.garbled(t.get());
        }
    }

    /** "hugepages-2048kB" -> 2 MiB; garbage leaves an unknown and gives null. */
    private Long hugeDirSize(String name, String parent) {
        Matcher m = HUGE_DIR.matcher(name);
        if (m.matches()) {
            long kb = Long.parseLong(m.group(1));
            if (kb > 0 && Long.bitCount(kb) == 1) return kb * 1024;
        }
        unknowns.add(parent + "/" + name + ": not a huge page size");
        return null;
    }

    // ---- hugetlb ----

    private List<Integer> nodeIds() {
        List<Integer> ids = new ArrayList<>();
        for (String n : fs.list(NODE)) {
            Matcher m = NODE_DIR.matcher(n);
            if (m.matches()) ids.add(Integer.parseInt(m.group(1)));
        }
        return ids;
    }

    private List<HugetlbPool> hugetlb(List<Integer> nodeIds) {
        List<HugetlbPool> pools = new ArrayList<>();
        for (String name : fs.list(HUGETLB)) {
            if (!name.startsWith("hugepages-")) continue;
            Long size = hugeDirSize(name, HUGETLB);
            if (size == null) continue;
            String d = HUGETLB + "/" + name + "/";
            Long total = number(d + "nr_hugepages", true);
            List<NodePool> nodes = new ArrayList<>();
            for (int id : nodeIds) {
                String nd = NODE + "/node" + id + "/hugepages/" + name + "/";
                if (!fs.isDirectory(nd.substring(0, nd.length() - 1))) continue;
                Long nt = number(nd + "nr_hugepages", true);
                nodes.add(new NodePool(id, nt, number(nd + "free_hugepages", true), number(nd + "surplus_hugepages", false),
                        times(nt, size)));
            }
            pools.add(new HugetlbPool(size, total, number(d + "free_hugepages", true), number(d + "resv_hugepages", true),
                    number(d + "surplus_hugepages", true), number(d + "nr_overcommit_hugepages", false), times(total, size),
                    List.copyOf(nodes)));
        }
        pools.sort(Comparator.comparing(HugetlbPool::pageBytes));
        return List.copyOf(pools);
    }

    private static Long times(Long n, long size) {
        if (n == null) return null;
        try {
            return Math.multiplyExact(n, size);
        } catch (ArithmeticException e) {
            return null;
        }
    }

    // ---- /proc/meminfo ----

    private Meminfo meminfo() {
        Read r = fs.read(MemInfo.PROC);
        if (!(r instanceof Read.Ok ok)) {
            unknowns.add(r.why());
            return new Meminfo(null, null, null, null, null, null, null, null, null, null, null);
        }
        MemInfo mi = MemInfo.parse(ok.text());
        if (mi.bytes("MemTotal") == null && !mi.garbled().containsKey("MemTotal")) unknowns.add("/proc/meminfo: no MemTotal");
        return new Meminfo(mem(mi, "MemTotal"), mem(mi, "MemAvailable"), mem(mi, "AnonHugePages"), mem(mi, "ShmemHugePages"),
                mem(mi, "FileHugePages"), mem(mi, "Hugetlb"), mem(mi, "CommitLimit"), mem(mi, "Committed_AS"), mem(mi, "SwapTotal"),
                mem(mi, "SwapFree"), mem(mi, "Mlocked"));
    }

    /** A meminfo value in bytes; null when absent (older kernels lack some), null and an unknown when garbled. */
    private Long mem(MemInfo mi, String key) {
        String bad = mi.garbled().get(key);
        if (bad != null) garbage(MemInfo.PROC, key + " is not a size", bad);
        return mi.bytes(key);
    }

    // ---- sysctls ----

    private Sysctl sysctl() {
        Long minFreeKb = number(VM + "min_free_kbytes", true);
        return new Sysctl(integer(VM + "overcommit_memory", true), integer(VM + "overcommit_ratio", true),
                integer(VM + "swappiness", true), number(VM + "max_map_count", true), integer(VM + "zone_reclaim_mode", false),
                times(minFreeKb, 1024), integer(VM + "watermark_scale_factor", false),
                integer(VM + "compaction_proactiveness", false), integer("/proc/sys/kernel/numa_balancing", false));
    }

    /** The nodes whose meminfo says they hold memory; null when no node's meminfo could be read. */
    private Integer memoryNodes(List<Integer> nodeIds) {
        int read = 0, withMemory = 0;
        for (int id : nodeIds) {
            var text = fs.text(NODE + "/node" + id + "/meminfo");
            if (text.isEmpty()) continue;
            read++;
            Matcher m = NODE_MEM_TOTAL.matcher(text.get());
            if (m.find() && Long.parseLong(m.group(1)) > 0) withMemory++;
        }
        return read == 0 ? null : withMemory;
    }

    private static final Pattern NODE_MEM_TOTAL = Pattern.compile("MemTotal:\\s+(\\d+) kB");

    private Integer numaNodes(List<Integer> nodeIds) {
        if (!nodeIds.isEmpty()) return nodeIds.size();
        if (!fs.exists(NODE) && fs.isDirectory("/sys/devices/system")) return 1; // a kernel without NUMA: one node
        unknowns.add("NUMA nodes: " + (fs.exists(NODE) ? NODE + " lists no nodes" : "no " + NODE));
        return null;
    }

    // ---- /proc/vmstat ----

    private Map<String, Long> vmstat() {
        Read r = fs.read("/proc/vmstat");
        if (!(r instanceof Read.Ok ok)) {
            unknowns.add(r.why());
            return Map.of();
        }
        Map<String, Long> all = VmStat.parse(ok.text());
        Map<String, Long> out = new LinkedHashMap<>();
        for (String c : VmStat.COUNTERS) {
            Long v = all.get(c);
            if (v != null) {
                out.put(c, v);
                continue;
            }
            Matcher m = Pattern.compile("(?m)^" + c + "([ \\t].*)?$").matcher(ok.text());
            if (m.find()) garbage("/proc/vmstat", c + " is not a count", m.group(0));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    // ---- the process: limits and privileges ----

    /** This process's memlock and open-files limits, CAP_IPC_LOCK and user: {@link ThisProcess}, the one reader of them. */
    private ProcessLimits process() {
        ThisProcess p = ThisProcess.read(fs);
        return new ProcessLimits(p.pid() == null ? null : p.pid().toString(), p.limit(Limits.MEMLOCK, reads, unknowns),
                p.limit(Limits.NOFILE, reads, unknowns), p.capability(ThisProcess.CAP_IPC_LOCK, reads, unknowns), p.uid(reads, unknowns));
    }

    // ---- typed reads (FactReads) ----

    private Optional<String> text(String path, boolean expected) {
        return reads.text(path, expected);
    }

    private Long number(String path, boolean expected) {
        return reads.number(path, expected);
    }

    private Integer integer(String path, boolean expected) {
        return reads.integer(path, expected, false);
    }

    static Long parseNumber(String s) {
        return FactReads.parseNumber(s);
    }

    private void garbage(String path, String what, String text) {
        reads.garbage(path, what, text);
    }
}
