package hostside.vm.facts;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.vm.facts.VmFacts.HugetlbPool;
import hostside.vm.facts.VmFacts.NodePool;
import hostside.vm.facts.VmFacts.Thp;

/**
 * What the virtual-memory facts mean for training and inference: one finding of one of
 * {@link VmFactRules}' rules per thing worth acting on or knowing, none for healthy settings, each
 * with the facts it read. Facts that are unknown give no finding (VmFacts#unknowns says why they
 * are unknown).
 */
public final class VmVerdicts {
    private VmVerdicts() {}

    static final long MIB = 1L << 20;
    /** Below this a memlock limit breaks RDMA registration of anything but toy buffers. */
    static final long TINY_MEMLOCK = 64 * MIB;
    /** The kernel's default vm.max_map_count (DEFAULT_MAX_MAP_COUNT). */
    static final long DEFAULT_MAX_MAP_COUNT = 65530;
    /** At least this many huge-page faults since boot fell back before their share is worth a note. */
    static final long MANY_FALLBACKS = 1000;
    /** Swappiness above this, with swap present, is worth a note. */
    static final int LOW_SWAPPINESS = 10;

    public static List<Finding> of(VmFacts f) {
        List<Finding> out = new ArrayList<>();
        thp(f, out);
        pageSize(f, out);
        memlock(f, out);
        overcommit(f, out);
        swap(f, out);
        numa(f, out);
        hugetlb(f, out);
        maxMapCount(f, out);
        return List.copyOf(out);
    }

    // ---- THP ----

    private static void thp(VmFacts f, List<Finding> out) {
        Thp t = f.thp();
        if (t == null) return;
        String base = f.pageSize() != null && f.pageSize().bytes() != null && !f.pageSize().assumed()
                ? Units.bytes(f.pageSize().bytes()) : "base";
        if (!t.available()) {
            if (t.status() != null && t.status().contains("not in this recording")) return;
            out.add(VmFactRules.THP.finding(Severity.INFO, "THP", "transparent huge pages are " + t.status() + ": all anonymous host memory uses "
                    + base + " pages; only hugetlbfs (MAP_HUGETLB) gives large pages", Evidence.fact(VmFactsReader.THP, String.valueOf(t.status()))));
            return;
        }
        String ratio = ratio(t.pmdSizeBytes(), f.pageSize());
        String huge = t.pmdSizeBytes() == null ? "huge" : Units.bytes(t.pmdSizeBytes());
        if (t.enabled() != null && t.enabled().is("never")) {
            // what "never" takes away is what asks: under madvise a plain buffer gets base pages too (PyTorch's CPU allocator asks only with THP_MEM_ALLOC_ENABLE=1)
            out.add(VmFactRules.THP.finding(Severity.WARN, "THP", "THP is off (enabled=never): anonymous host memory gets " + base + " pages instead of "
                    + huge + " even where a program asks with madvise(MADV_HUGEPAGE) (PyTorch's CPU allocator with THP_MEM_ALLOC_ENABLE=1, hostside's"
                    + " huge-page measurements): more TLB misses and " + (ratio == null ? "many times" : ratio + "x") + " more page faults on first"
                    + " touch for it; set madvise (echo madvise > " + VmFactsReader.THP + "/enabled)", enabled(t)));
        } else if (t.enabled() != null && t.enabled().is("always") && t.defrag() != null && t.defrag().is("always")) {
            out.add(VmFactRules.THP.finding(Severity.WARN, "THP", "THP enabled=always with defrag=always: a fault that finds no free " + huge
                    + " block stalls in direct compaction and reclaim, so allocations in inference servers and data-loading "
                    + "threads see latency spikes; set defrag to defer+madvise or madvise (echo defer+madvise > "
                    + VmFactsReader.THP + "/defrag)", List.of(enabled(t), Evidence.fact(VmFactsReader.THP + "/defrag", t.defrag().selected()))));
        } else if (t.enabled() != null && t.enabled().is("madvise")) {
            out.add(VmFactRules.THP.finding(Severity.INFO, "THP", "THP madvise: only regions that ask with madvise(MADV_HUGEPAGE) get " + huge
                    + " pages; PyTorch's CPU allocator asks only when THP_MEM_ALLOC_ENABLE=1, so by default its host tensors use "
                    + base + " pages", enabled(t)));
        }
        Long alloc = counter(f, "thp_fault_alloc"), fallback = counter(f, "thp_fault_fallback");
        if (alloc != null && fallback != null && fallback >= MANY_FALLBACKS && fallback * 4 >= alloc + fallback) {
            long pct = Math.round(100.0 * fallback / (alloc + fallback));
            // the counter counts a huge page not allocated (fragmented memory) and one not charged (a memory cgroup at its limit) alike
            out.add(VmFactRules.THP_FALLBACK.finding(Severity.INFO, "THP", pct + "% of huge page faults since boot fell back to " + base
                    + " pages (thp_fault_fallback " + fallback + ", thp_fault_alloc " + alloc
                    + "): no free huge page could be allocated (fragmented memory) or charged (a memory cgroup at its limit), so even regions"
                    + " that ask for huge pages often do not get them",
                    List.of(Evidence.fact("/proc/vmstat thp_fault_fallback", String.valueOf(fallback)), Evidence.fact("/proc/vmstat thp_fault_alloc", String.valueOf(alloc)))));
        }
    }

    /** THP's enabled mode as a finding's evidence. */
    private static Evidence enabled(Thp t) {
        return Evidence.fact(VmFactsReader.THP + "/enabled", t.enabled().selected());
    }

    /** How many base pages one PMD huge page replaces, when both sizes are known. */
    private static String ratio(Long pmd, VmFacts.PageSize page) {
        if (pmd == null || page == null || page.bytes() == null || page.assumed() || page.bytes() <= 0) return null;
        return String.valueOf(pmd / page.bytes());
    }

    // ---- page size ----

    private static void pageSize(VmFacts f, List<Finding> out) {
        VmFacts.PageSize p = f.pageSize();
        if (p == null || p.bytes() == null || p.assumed() || p.bytes() <= 4096) return;
        long page = p.bytes();
        String arch = f.arch() != null && f.arch().name() != null ? f.arch().name() : "this";
        Long pmd = f.thp() != null ? f.thp().pmdSizeBytes() : null;
        if (pmd == null) {
            long square = page * page / 8;
            pmd = square > 0 ? square : null;
        }
        StringBuilder s = new StringBuilder();
        s.append(Units.bytes(page)).append(" base pages (").append(arch).append(" kernel").append(page == 65536 ? ", as on Grace" : "")
                .append("): each TLB entry reaches ").append(page / 4096).append("x what it does with 4 KiB pages and first touch takes ")
                .append(page / 4096).append("x fewer faults");
        if (pmd != null) s.append("; the THP size is ").append(Units.bytes(pmd)).append(", so THP rarely forms");
        List<String> mthpOn = f.thp() == null ? List.of() : f.thp().mthp().stream()
                .filter(m -> m.enabled() != null && m.enabled().selected() != null && !m.enabled().is("never")
                        && !(m.enabled().is("inherit") && f.thp().enabled() != null && f.thp().enabled().is("never")))
                .map(m -> Units.bytes(m.sizeBytes()) + " " + m.enabled().selected()).toList();
        if (f.thp() != null && !f.thp().mthp().isEmpty()) {
            s.append(mthpOn.isEmpty() ? "; every multi-size THP size is off: enabling one (e.g. 2 MiB in hugepages-2048kB/enabled) gives large folios without the PMD size"
                    : "; multi-size THP on: " + String.join(", ", mthpOn));
        } else {
            s.append("; hugetlb pages or multi-size THP (kernel 6.8+) are the way to larger pages");
        }
        s.append("; software that assumes 4 KiB pages (alignment, mmap offsets) misbehaves");
        out.add(VmFactRules.PAGE_SIZE.finding(Severity.INFO, "page size", s.toString(), Evidence.fact(p.source() == null || p.source().isEmpty() ? "page size" : p.source(), String.valueOf(page))));
    }

    // ---- memlock ----

    private static void memlock(VmFacts f, List<Finding> out) {
        VmFacts.ProcessLimits p = f.process();
        if (p == null || p.memlock() == null || p.memlock().softUnlimited() || p.memlock().soft() == null) return;
        if (Boolean.TRUE.equals(p.capIpcLock())) return; // CAP_IPC_LOCK ignores RLIMIT_MEMLOCK
        if (p.capIpcLock() == null && Integer.valueOf(0).equals(p.uid())) return; // root, capabilities unknown: most likely exempt
        long soft = p.memlock().soft();
        Long ram = f.memory() == null ? null : f.memory().memTotalBytes();
        boolean tiny = soft < TINY_MEMLOCK;
        boolean small = ram != null && soft < ram / 4;
        if (!tiny && !small) return;
        String who = Integer.valueOf(0).equals(p.uid())
                ? " for uid 0 without CAP_IPC_LOCK (Docker's default capabilities leave it out, so root is bound too)"
                : " without CAP_IPC_LOCK";
        String hard = p.memlock().hardUnlimited() ? "hard unlimited"
                : "hard " + Units.bytes(p.memlock().hard()) + ", which only root raises: limits.conf, systemd LimitMEMLOCK=infinity";
        List<String> rdmaDevices = f.rdmaDevices() == null ? List.of() : f.rdmaDevices();
        String rdma = rdmaDevices.isEmpty() ? "" : " (RDMA devices here: " + String.join(", ", rdmaDevices) + ")";
        String share = !tiny ? ", under a quarter of the " + Units.bytes(ram) + " of RAM," : "";
        // a low limit does not send NCCL to sockets: ibv_reg_mr fails and NCCL stops at init (nccl-tests#206)
        String text = "memlock soft limit " + Units.bytes(soft) + share + " (" + hard + ")" + who
                + ": RDMA memory registration (ibv_reg_mr: NCCL over InfiniBand/RoCE, GPUDirect RDMA) beyond it fails with 'Cannot allocate"
                + " memory' and NCCL stops at init" + rdma
                + "; raise it: ulimit -l unlimited, docker --ulimit memlock=-1. cudaHostAlloc (pin_memory()) pins through the "
                + "NVIDIA driver and is not charged to this limit; mlock() and RDMA registrations are";
        List<Evidence> read = new ArrayList<>(List.of(Evidence.fact("/proc/" + p.pid() + "/limits Max locked memory", soft + " " + (p.memlock().hardUnlimited()
                ? "unlimited" : String.valueOf(p.memlock().hard())))));
        if (ram != null && !tiny) read.add(Evidence.fact("/proc/meminfo MemTotal", String.valueOf(ram)));
        if (!rdmaDevices.isEmpty()) read.add(Evidence.fact("/sys/class/infiniband", String.join(" ", rdmaDevices)));
        if (tiny && !rdmaDevices.isEmpty()) out.add(VmFactRules.MEMLOCK.finding(Severity.BAD, "memlock", text, read));
        else if (tiny) out.add(VmFactRules.MEMLOCK.finding(Severity.WARN, "memlock", text + "; no RDMA device is visible here, so it bites once jobs use RDMA or mlock", read));
        else out.add(VmFactRules.MEMLOCK.finding(Severity.WARN, "memlock", text, read));
    }

    // ---- overcommit ----

    private static void overcommit(VmFacts f, List<Finding> out) {
        Integer mode = f.sysctl() == null ? null : f.sysctl().overcommitMemory();
        if (mode == null) return;
        if (mode == 2) {
            VmFacts.Meminfo m = f.memory();
            String limits = m != null && m.commitLimitBytes() != null
                    ? " (CommitLimit " + Units.bytes(m.commitLimitBytes())
                        + (m.committedAsBytes() != null ? ", committed " + Units.bytes(m.committedAsBytes()) : "") + ")"
                    : "";
            out.add(VmFactRules.OVERCOMMIT.finding(Severity.WARN, "overcommit", "overcommit_memory=2 (strict accounting" + limits + "): fork() of a large training "
                    + "process (DataLoader workers started with fork) and large writable virtual reservations fail with ENOMEM "
                    + "even while RAM is free; use 0 (heuristic) unless strict accounting is wanted, or raise overcommit_ratio", mode(mode)));
        } else if (mode == 1) {
            out.add(VmFactRules.OVERCOMMIT.finding(Severity.INFO, "overcommit", "overcommit_memory=1: the kernel never refuses memory up front; a job that "
                    + "outgrows RAM is killed by the OOM killer rather than getting ENOMEM", mode(mode)));
        }
    }

    private static Evidence mode(int overcommit) {
        return Evidence.fact("/proc/sys/vm/overcommit_memory", String.valueOf(overcommit));
    }

    // ---- swap ----

    private static void swap(VmFacts f, List<Finding> out) {
        VmFacts.Meminfo m = f.memory();
        Integer swappiness = f.sysctl() == null ? null : f.sysctl().swappiness();
        if (m == null || m.swapTotalBytes() == null || m.swapTotalBytes() == 0 || swappiness == null || swappiness <= LOW_SWAPPINESS) return;
        long used = m.swapFreeBytes() == null ? 0 : Math.max(0, m.swapTotalBytes() - m.swapFreeBytes());
        String text = Units.bytes(m.swapTotalBytes()) + " of swap with swappiness " + swappiness
                + (used > 0 ? ", " + Units.bytes(used) + " in use" : "")
                + ": under memory pressure the kernel swaps out the job's pageable host memory (DataLoader prefetch, "
                + "CPU-offloaded optimizer state) and the step that touches it stalls on disk; pinned memory stays resident. "
                + "Set vm.swappiness=1 to 10, or run without swap";
        List<Evidence> read = List.of(Evidence.fact("/proc/meminfo SwapTotal", String.valueOf(m.swapTotalBytes())),
                Evidence.fact("/proc/meminfo SwapFree", String.valueOf(m.swapFreeBytes())), Evidence.fact("/proc/sys/vm/swappiness", String.valueOf(swappiness)));
        out.add(VmFactRules.SWAP.finding(used > 0 ? Severity.WARN : Severity.INFO, "swap", text, read));
    }

    // ---- NUMA ----

    private static void numa(VmFacts f, List<Finding> out) {
        // balancing moves pages between nodes that hold memory: empty nodes (a GB200 lists dozens) do not count
        Integer nodes = f.memoryNodes() != null ? f.memoryNodes() : f.numaNodes();
        if (nodes == null || nodes < 2 || f.sysctl() == null) return;
        Integer nb = f.sysctl().numaBalancing();
        if (nb != null && (nb & 1) == 1) {
            Long hints = counter(f, "numa_hint_faults"), moved = counter(f, "numa_pages_migrated");
            String seen = hints != null ? " (since boot: " + hints + " hinting faults" + (moved != null ? ", " + moved + " pages migrated" : "") + ")" : "";
            out.add(VmFactRules.NUMA_BALANCING.finding(Severity.WARN, "NUMA balancing", "automatic NUMA balancing is on with " + nodes + " NUMA nodes" + (f.memoryNodes() != null ? " holding memory" : "") + ": hinting faults "
                    + "and page migrations add jitter to the threads that feed the GPUs" + seen + "; disable it "
                    + "(sysctl kernel.numa_balancing=0) or bind each rank with numactl --cpunodebind/--membind",
                    List.of(Evidence.fact("/proc/sys/kernel/numa_balancing", String.valueOf(nb)), Evidence.fact("NUMA nodes with memory", String.valueOf(nodes)))));
        }
        Integer zr = f.sysctl().zoneReclaimMode();
        if (zr != null && zr != 0) {
            out.add(VmFactRules.ZONE_RECLAIM.finding(Severity.WARN, "zone reclaim", "zone_reclaim_mode=" + zr + " with " + nodes + " NUMA nodes: when a node fills up "
                    + "the kernel reclaims its page cache (and may write back) instead of using the other nodes' free memory: "
                    + "stalls, and dataset files read from disk again; set vm.zone_reclaim_mode=0",
                    List.of(Evidence.fact("/proc/sys/vm/zone_reclaim_mode", String.valueOf(zr)), Evidence.fact("NUMA nodes with memory", String.valueOf(nodes)))));
        }
    }

    // ---- hugetlb ----

    private static void hugetlb(VmFacts f, List<Finding> out) {
        if (f.hugetlb() == null) return;
        for (HugetlbPool p : f.hugetlb()) {
            if (p.total() == null || p.total() <= 0 || p.pageBytes() == null) continue;
            String size = Units.bytes(p.pageBytes());
            if (p.free() != null) {
                long unused = p.free() - (p.reserved() == null ? 0 : p.reserved());
                if (unused * 2 > p.total()) {
                    String dir = "/sys/kernel/mm/hugepages/hugepages-" + p.pageBytes() / 1024 + "kB";
                    out.add(VmFactRules.HUGETLB_POOL.finding(Severity.INFO, "hugetlb", p.total() + " hugetlb pages of " + size + " (" + Units.bytes(p.poolBytes())
                            + ") are set aside and " + unused + " of them unused: that memory is taken from everything else "
                            + "(page cache, pinned buffers, DataLoader workers) unless a program maps hugetlbfs or MAP_HUGETLB; "
                            + "echo 0 > " + dir + "/nr_hugepages frees it",
                            List.of(Evidence.fact(dir + "/nr_hugepages", String.valueOf(p.total())), Evidence.fact(dir + "/free_hugepages", String.valueOf(p.free())),
                                    Evidence.fact(dir + "/resv_hugepages", String.valueOf(p.reserved())))));
                }
            }
            List<NodePool> nodes = p.nodes().stream().filter(n -> n.total() != null).toList();
            if (nodes.size() >= 2) {
                long max = nodes.stream().mapToLong(NodePool::total).max().orElse(0);
                long min = nodes.stream().mapToLong(NodePool::total).min().orElse(0);
                if (max > 0 && min * 2 < max) {
                    String per = String.join(", ", nodes.stream().map(n -> "node" + n.node() + " " + n.total()).toList());
                    out.add(VmFactRules.HUGETLB_POOL.finding(Severity.INFO, "hugetlb", "the " + size + " hugetlb pages are spread unevenly over the NUMA nodes ("
                            + per + "): a process bound to a node with few gets remote huge pages or none",
                            nodes.stream().map(n -> Evidence.fact("/sys/devices/system/node/node" + n.node() + "/hugepages/hugepages-" + p.pageBytes() / 1024
                                    + "kB/nr_hugepages", String.valueOf(n.total()))).toList()));
                }
            }
        }
    }

    private static Long counter(VmFacts f, String name) {
        return f.vmstat() == null ? null : f.vmstat().get(name);
    }

    // ---- max_map_count ----

    private static void maxMapCount(VmFacts f, List<Finding> out) {
        Long n = f.sysctl() == null ? null : f.sysctl().maxMapCount();
        if (n == null || n >= DEFAULT_MAX_MAP_COUNT) return;
        out.add(VmFactRules.MAX_MAP_COUNT.finding(Severity.WARN, "max_map_count", "vm.max_map_count is " + n + ", below the kernel default " + DEFAULT_MAX_MAP_COUNT
                + ": memory-mapped datasets with many shards and many-threaded processes fail mmap with ENOMEM; raise it "
                + "(sysctl vm.max_map_count=262144)", Evidence.fact("/proc/sys/vm/max_map_count", String.valueOf(n))));
    }
}
