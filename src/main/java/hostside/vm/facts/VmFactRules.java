package hostside.vm.facts;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 2's rules on the virtual-memory settings: what {@link VmVerdicts} concludes from the facts
 * {@link VmFactsReader} read. Settings are read, not measured, so a busy machine changes none of
 * them: these rules give no unknown finding; a fact that could not be read gives no finding at all
 * (VmFacts#unknowns says why).
 */
public final class VmFactRules {
    private VmFactRules() {}

    /** The kernel's own account of THP: what the modes do and what the fallback counter counts. */
    public static final Source KERNEL_THP = Source.document("Linux Documentation/admin-guide/mm/transhuge.rst: the enabled and defrag modes;"
            + " thp_fault_fallback counts huge-page faults that could not allocate or charge a huge page and fell back to base pages");

    /** Whether PyTorch asks for huge pages: only when told to. */
    public static final Source PYTORCH_THP = Source.source("pytorch/pytorch c10/core/impl/alloc_cpu.cpp (commit 23fa910d): the CPU allocator calls"
            + " madvise(MADV_HUGEPAGE) on allocations of 2 MiB or more only when THP_MEM_ALLOC_ENABLE=1; unset, it is 0");

    public static final Rule THP = Rule.of("M2-THP", "transparent huge pages' mode (enabled, defrag) and what it gives host memory", EnumSet.of(WARN, INFO),
            "never leaves every anonymous host buffer in base pages, even a region that asks for huge pages; always with defrag=always makes a"
                    + " fault that finds no free huge page stall in reclaim and compaction; madvise gives huge pages to the regions that ask, and"
                    + " PyTorch's CPU allocator asks only with THP_MEM_ALLOC_ENABLE=1",
            "where enabled is never: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled; where enabled and defrag are both always:"
                    + " echo defer+madvise > /sys/kernel/mm/transparent_hugepage/defrag",
            KERNEL_THP, PYTORCH_THP);

    public static final Rule THP_FALLBACK = Rule.of("M2-THP-FALLBACK", "the share of huge-page faults since boot that fell back to base pages",
            EnumSet.of(INFO),
            "where a quarter or more fall back, regions that ask for huge pages often get base pages: free memory is fragmented, or memory"
                    + " cgroups refuse the charge (thp_fault_fallback_charge counts those)",
            "", KERNEL_THP, Source.reasoned("a quarter, of at least " + VmVerdicts.MANY_FALLBACKS + " fallbacks since boot: fewer are too few faults"
                    + " to call a pattern"));

    public static final Rule PAGE_SIZE = Rule.of("M2-PAGE-SIZE", "a base page larger than 4 KiB (64 KiB on arm64 kernels built for it)", EnumSet.of(INFO),
            "each TLB entry reaches more and a first touch takes fewer faults per GiB, but the PMD-level huge page grows with the base page"
                    + " (512 MiB over 64 KiB pages), so THP rarely forms; software that assumes 4 KiB pages (alignment, mmap offsets) misbehaves",
            "", Source.document("Linux Documentation/admin-guide/mm/transhuge.rst: hpage_pmd_size, and multi-size THP"
                    + " (/sys/kernel/mm/transparent_hugepage/hugepages-<size>kB/enabled)"),
            Source.reasoned("a PMD entry maps a page-table page's worth of base pages: (page / 8) x page, 2 MiB over 4 KiB, 512 MiB over 64 KiB"));

    public static final Rule MEMLOCK = Rule.of("M2-MEMLOCK", "the memlock limit (RLIMIT_MEMLOCK) of a process without CAP_IPC_LOCK", EnumSet.of(BAD, WARN),
            "RDMA memory registration (ibv_reg_mr: NCCL over InfiniBand or RoCE, GPUDirect RDMA) is charged to it; past it the registration fails"
                    + " with 'Cannot allocate memory' and NCCL stops at init. CUDA's own pinning (cudaHostAlloc, cudaHostRegister, pin_memory())"
                    + " is done by the NVIDIA driver, which does not charge it",
            "raise it: ulimit -l unlimited, LimitMEMLOCK=infinity in the systemd unit, memlock in /etc/security/limits.conf, docker run"
                    + " --ulimit memlock=-1",
            Source.source("Linux drivers/infiniband/core/umem.c, ib_umem_get: pinned_vm checked against RLIMIT_MEMLOCK, -ENOMEM unless CAP_IPC_LOCK"),
            Source.source("NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/os-mlock.c (commit e45d91de): os_lock_user_pages pins with"
                    + " pin_user_pages and checks no memlock limit"),
            Source.thread("NVIDIA/nccl-tests#206: 'Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory' until ulimit -l was raised"),
            Source.reasoned("64 MiB: below it only toy buffers register; under a quarter of RAM: not the buffers of a job that uses the machine's memory"));

    public static final Rule OVERCOMMIT = Rule.of("M2-OVERCOMMIT", "the overcommit mode (vm.overcommit_memory)", EnumSet.of(WARN, INFO),
            "2 (strict accounting) refuses any allocation past CommitLimit with ENOMEM while RAM is free, and fork() of a large process (DataLoader"
                    + " workers started by fork) commits its writable private memory again; 1 never refuses, so a job that outgrows RAM meets the"
                    + " OOM killer instead",
            "sysctl vm.overcommit_memory=0 unless strict accounting is wanted; otherwise raise vm.overcommit_ratio",
            Source.document("Linux Documentation/mm/overcommit-accounting.rst: the three modes and CommitLimit"));

    public static final Rule SWAP = Rule.of("M2-SWAP", "swap with a swappiness above " + VmVerdicts.LOW_SWAPPINESS, EnumSet.of(WARN, INFO),
            "under memory pressure the kernel swaps out the job's pageable host memory (DataLoader prefetch, CPU-offloaded optimizer state), and the"
                    + " step that touches it waits on the disk; pinned memory is page-locked and stays resident",
            "sysctl vm.swappiness=1 (to " + VmVerdicts.LOW_SWAPPINESS + "), or run without swap",
            Source.document("Linux Documentation/admin-guide/sysctl/vm.rst: swappiness"),
            Source.document("CUDA C++ Programming Guide, Page-Locked Host Memory"),
            Source.reasoned(VmVerdicts.LOW_SWAPPINESS + ": at or below it the kernel prefers dropping page cache to swapping anonymous memory; swap in"
                    + " use is a warning, swap merely there a note"));

    public static final Rule NUMA_BALANCING = Rule.of("M2-NUMA-BALANCING", "automatic NUMA balancing on a machine with two or more memory nodes",
            EnumSet.of(WARN),
            "the kernel unmaps pages to sample who touches them and migrates them on the hinting faults: overhead and jitter for the threads that"
                    + " feed the GPUs, for no gain where each rank is already bound to its node",
            "sysctl kernel.numa_balancing=0, or bind each rank with numactl --cpunodebind/--membind",
            Source.document("Linux Documentation/admin-guide/sysctl/kernel.rst: numa_balancing (\"If the target workload is already bound to NUMA"
                    + " nodes then this feature should be disabled\")"));

    public static final Rule ZONE_RECLAIM = Rule.of("M2-ZONE-RECLAIM", "zone reclaim (vm.zone_reclaim_mode) on a machine with two or more memory nodes",
            EnumSet.of(WARN),
            "when a node fills, the kernel reclaims its page cache (and may write back) instead of using other nodes' free memory: stalls, and"
                    + " dataset files read from disk again",
            "sysctl vm.zone_reclaim_mode=0",
            Source.document("Linux Documentation/admin-guide/sysctl/vm.rst: zone_reclaim_mode (off by default; workloads that benefit from their"
                    + " data cached should leave it off)"));

    public static final Rule HUGETLB_POOL = Rule.of("M2-HUGETLB-POOL", "a hugetlb pool mostly unused, or spread unevenly over the NUMA nodes",
            EnumSet.of(INFO),
            "pages in the pool are taken from everything else (page cache, pinned buffers, DataLoader workers) unless a program maps hugetlbfs"
                    + " or MAP_HUGETLB; a process bound to a node with few gets remote huge pages or none",
            "", Source.document("Linux Documentation/admin-guide/mm/hugetlbpage.rst: nr_hugepages, free_hugepages, resv_hugepages, and the per-node pools"),
            Source.reasoned("more than half the pool neither used nor reserved; one node with under half the pages of another"));

    public static final Rule MAX_MAP_COUNT = Rule.of("M2-MAX-MAP-COUNT", "vm.max_map_count below the kernel's default", EnumSet.of(WARN),
            "memory-mapped datasets of many shards, and processes of many threads, run out of mappings and mmap fails with ENOMEM",
            "sysctl vm.max_map_count=262144 (Elasticsearch's documented minimum for its mapped indexes)",
            Source.source("Linux include/linux/mm.h: DEFAULT_MAX_MAP_COUNT = USHRT_MAX - MAPCOUNT_ELF_CORE_MARGIN = " + VmVerdicts.DEFAULT_MAX_MAP_COUNT),
            Source.document("Elasticsearch reference, Maximum map count check: vm.max_map_count at least 262144"));

    /** The settings' rules, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(THP, THP_FALLBACK, PAGE_SIZE, MEMLOCK, OVERCOMMIT, SWAP, NUMA_BALANCING, ZONE_RECLAIM, HUGETLB_POOL, MAX_MAP_COUNT);
    }
}
