package hostside.vm.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import hostside.process.Limits;

/**
 * What the kernel does with this machine's virtual memory, as far as training and inference
 * care: base page size, transparent huge pages, hugetlb pools, the memory counters, the vm
 * sysctls, the counters the measurements diff, and the limits of the process that reads them.
 *
 * <p>A value that could not be read is null, and {@link #unknowns} says which file and why
 * (a missing file of an optional feature is simply null). Sizes are in bytes.
 *
 * @param arch        the CPU architecture and how it was decided
 * @param pageSize    the base page size and how it was decided
 * @param thp         transparent huge pages
 * @param hugetlb     hugetlb pools, one per huge page size, smallest first
 * @param memory      the /proc/meminfo lines that matter here
 * @param sysctl      /proc/sys/vm and kernel.numa_balancing
 * @param numaNodes   NUMA nodes the kernel lists (node dirs under /sys/devices/system/node)
 * @param memoryNodes those of them with memory (MemTotal above 0 in their meminfo): what NUMA balancing
 *                    moves pages between; a GB200 lists many empty nodes beside its two Graces and four
 *                    GPUs' memory. Null where no node's meminfo was read (and in earlier reports)
 * @param rdmaDevices RDMA devices (/sys/class/infiniband): InfiniBand and RoCE NICs
 * @param vmstat      the {@link VmStat#COUNTERS} this kernel has, since boot
 * @param process     limits and privileges of the process that read the facts (/proc/self)
 * @param unknowns    what could not be read, with the path and why
 */
public record VmFacts(
        Arch arch,
        PageSize pageSize,
        Thp thp,
        List<HugetlbPool> hugetlb,
        Meminfo memory,
        Sysctl sysctl,
        Integer numaNodes,
        Integer memoryNodes,
        List<String> rdmaDevices,
        Map<String, Long> vmstat,
        ProcessLimits process,
        List<String> unknowns) {

    /**
     * @param name   x86_64, aarch64, ppc64le, s390x, riscv64...; null when unknown
     * @param source where it comes from ("/proc/cpuinfo: CPU implementer 0x41"), or why it is unknown
     */
    public record Arch(String name, String source) {}

    /**
     * @param bytes   the base page size; null when it could not be decided
     * @param source  how it was decided: "sysconf(_SC_PAGESIZE)", "/proc/self/smaps KernelPageSize",
     *                "derived from hpage_pmd_size ...", "assumed: ..." or "unknown (why)"
     * @param assumed true when it is a guess from the architecture, not a reading
     */
    public record PageSize(Long bytes, String source, boolean assumed) {}

    /**
     * One of the [bracketed] choice files under /sys/kernel/mm/transparent_hugepage.
     *
     * @param selected the value in brackets; null when unreadable (see unknowns)
     * @param allowed  every value the kernel offers, in its order
     */
    public record Setting(String selected, List<String> allowed) {
        /** "always [madvise] never" -> madvise of [always, madvise, never]; throws on anything else. */
        public static Setting parse(String text) {
            List<String> allowed = new ArrayList<>();
            String selected = null;
            int brackets = 0;
            for (String tok : text.strip().split("\\s+")) {
                if (tok.isEmpty()) continue;
                boolean br = tok.startsWith("[") && tok.endsWith("]") && tok.length() > 2;
                String v = br ? tok.substring(1, tok.length() - 1) : tok;
                if (!v.matches("[A-Za-z0-9_+\\-]{1,32}")) throw new IllegalArgumentException("not a list of [chosen] values");
                if (br) {
                    brackets++;
                    selected = v;
                }
                allowed.add(v);
            }
            if (brackets == 0) throw new IllegalArgumentException("no [selected] value");
            if (brackets > 1) throw new IllegalArgumentException("more than one [selected] value");
            return new Setting(selected, List.copyOf(allowed));
        }

        /** What can be kept of a setting that does not parse: its plain words, none of them selected. */
        public static Setting garbled(String text) {
            return new Setting(null, plainTokens(text));
        }

        private static List<String> plainTokens(String text) {
            List<String> out = new ArrayList<>();
            for (String tok : text.strip().split("\\s+")) {
                String v = tok.replaceAll("^\\[|]$", "");
                if (v.matches("[A-Za-z0-9_+\\-]{1,32}")) out.add(v);
            }
            return List.copyOf(out);
        }

        public boolean is(String value) {
            return value.equals(selected);
        }
    }

    /**
     * Transparent huge pages.
     *
     * @param status       "available", or "unavailable (why)" when the kernel has no THP
     * @param enabled      enabled: always, madvise or never
     * @param defrag       defrag: always, defer, defer+madvise, madvise or never
     * @param shmemEnabled shmem_enabled (tmpfs and shared memory)
     * @param useZeroPage  use_zero_page: 1 when reads of untouched memory map a shared huge zero page
     * @param pmdSizeBytes hpage_pmd_size: the THP size (2 MiB with 4 KiB pages)
     * @param khugepaged   the background collapser
     * @param mthp         multi-size THP (kernel 6.8+): one entry per hugepages-NkB folder, empty before
     */
    public record Thp(String status, Setting enabled, Setting defrag, Setting shmemEnabled, Integer useZeroPage,
                      Long pmdSizeBytes, Khugepaged khugepaged, List<Mthp> mthp) {
        public boolean available() {
            return "available".equals(status);
        }
    }

    /**
     * /sys/kernel/mm/transparent_hugepage/khugepaged.
     *
     * @param defrag             1 when khugepaged may compact memory to collapse pages
     * @param pagesToScan        pages scanned per wake-up
     * @param scanSleepMillisecs sleep between scans
     * @param maxPtesNone        unmapped base pages a collapse may fill in (511 of 512: bloat-friendly)
     * @param pagesCollapsed     huge pages made by collapsing, since boot
     * @param fullScans          full passes over all candidate memory, since boot
     */
    public record Khugepaged(Integer defrag, Long pagesToScan, Long scanSleepMillisecs, Long maxPtesNone,
                             Long pagesCollapsed, Long fullScans) {}

    /**
     * One multi-size THP size (/sys/kernel/mm/transparent_hugepage/hugepages-NkB).
     *
     * @param sizeBytes    the folio size
     * @param enabled      always, inherit (follow the top-level enabled), madvise or never; null for sizes
 *                     only shmem can use (hugepages-8kB)
     * @param shmemEnabled its shmem_enabled (kernel 6.11+), null before
     */
    public record Mthp(Long sizeBytes, Setting enabled, Setting shmemEnabled) {}

    /**
     * One hugetlb pool (/sys/kernel/mm/hugepages/hugepages-NkB).
     *
     * @param pageBytes the huge page size
     * @param total     nr_hugepages: pages in the pool
     * @param free      free_hugepages: pages not faulted in by anyone (reserved ones included)
     * @param reserved  resv_hugepages: free pages already promised to a mapping
     * @param surplus   surplus_hugepages: pages above nr_hugepages, from overcommit
     * @param overcommit nr_overcommit_hugepages: how many surplus pages may be made on demand
     * @param poolBytes total x page size: memory set aside for hugetlb, unusable for anything else
     * @param nodes     the pool per NUMA node (empty without per-node folders)
     */
    public record HugetlbPool(Long pageBytes, Long total, Long free, Long reserved, Long surplus, Long overcommit,
                              Long poolBytes, List<NodePool> nodes) {}

    /** One NUMA node's share of a hugetlb pool; poolBytes = total x page size. */
    public record NodePool(Integer node, Long total, Long free, Long surplus, Long poolBytes) {}

    /** /proc/meminfo, in bytes. */
    public record Meminfo(Long memTotalBytes, Long memAvailableBytes, Long anonHugePagesBytes,
                          Long shmemHugePagesBytes, Long fileHugePagesBytes, Long hugetlbBytes,
                          Long commitLimitBytes, Long committedAsBytes, Long swapTotalBytes, Long swapFreeBytes,
                          Long mlockedBytes) {}

    /**
     * /proc/sys/vm and /proc/sys/kernel/numa_balancing.
     *
     * @param overcommitMemory        0 heuristic, 1 always, 2 strict (CommitLimit)
     * @param overcommitRatio         percent of RAM counted into CommitLimit under mode 2
     * @param swappiness              0-200: how readily anonymous memory is swapped
     * @param maxMapCount             mappings a process may have (default 65530)
     * @param zoneReclaimMode         0: take memory from another node before reclaiming locally
     * @param minFreeBytes            min_free_kbytes, in bytes
     * @param watermarkScaleFactor    kswapd watermark distance, in 1/10000 of memory
     * @param compactionProactiveness 0-100 (kernel 5.9+), null before
     * @param numaBalancing           0 off, 1 on, 2 memory tiering, 3 both; null without NUMA balancing
     */
    public record Sysctl(Integer overcommitMemory, Integer overcommitRatio, Integer swappiness, Long maxMapCount,
                         Integer zoneReclaimMode, Long minFreeBytes, Integer watermarkScaleFactor,
                         Integer compactionProactiveness, Integer numaBalancing) {}

    /**
     * The process the facts were read by: on a live machine hostside itself, in a recording the
     * process that recorded it.
     *
     * @param pid        the process /proc/self points to; null when unknown
     * @param memlock    RLIMIT_MEMLOCK ("Max locked memory"), in bytes
     * @param nofile     RLIMIT_NOFILE ("Max open files")
     * @param capIpcLock CAP_IPC_LOCK in the effective set (CapEff bit 14): exempt from memlock
     * @param uid        the effective uid
     */
    public record ProcessLimits(String pid, Limits.Limit memlock, Limits.Limit nofile, Boolean capIpcLock,
                                Integer uid) {}
}
