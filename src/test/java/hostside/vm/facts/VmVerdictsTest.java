package hostside.vm.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.testing.RuleTally;

class VmVerdictsTest {
    static final String THP = Machine.THP;

    @TempDir
    Path root;

    List<Finding> findings(Machine m) {
        return VmVerdicts.of(m.read());
    }

    static List<Finding> about(List<Finding> all, String subject) {
        return all.stream().filter(f -> f.subject().equals(subject)).toList();
    }

    /** A finding of {@code rule}: its ID and main source, its fix where it says to change something, and the facts it read. */
    static void of(Finding f, Rule rule) {
        assertThat(f.id()).isEqualTo(rule.id());
        assertThat(rule.severities()).contains(f.severity());
        assertThat(f.fix()).isEqualTo(f.severity().toFix() ? rule.fix() : "");
        assertThat(f.source()).isEqualTo(rule.sources().getFirst().toString());
        assertThat(f.evidence()).isNotEmpty().allSatisfy(e -> assertThat(e).isInstanceOf(Evidence.Fact.class));
    }

    @Test
    void aHealthyMachineSaysOnlyTheThpMadviseNote() {
        List<Finding> f = findings(Machine.healthy(root));
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.subject()).isEqualTo("THP");
            assertThat(x.text()).contains("madvise(MADV_HUGEPAGE)").contains("THP_MEM_ALLOC_ENABLE=1").contains("4 KiB pages");
            of(x, VmFactRules.THP);
        });
    }

    @Test
    void everyFindingOfTheSettingsIsOfARule() {
        Machine m = memlock(65536, 65536).put(THP + "/enabled", "always madvise [never]\n").put("/proc/sys/vm/overcommit_memory", "2\n")
                .put("/proc/sys/kernel/numa_balancing", "1\n").put("/proc/sys/vm/zone_reclaim_mode", "1\n").put("/proc/sys/vm/max_map_count", "16384\n")
                .put("/proc/vmstat", "thp_fault_alloc 3000\nthp_fault_fallback 9000\n");
        List<Finding> all = findings(m);
        assertThat(all).hasSizeGreaterThanOrEqualTo(7).allSatisfy(f -> of(f, VmFactRules.all().stream().filter(r -> r.id().equals(f.id())).findFirst()
                .orElseThrow(() -> new AssertionError("no rule for " + f))));
    }

    // ---- THP ----

    @Test
    void thpNeverIsAWarning() {
        List<Finding> f = about(findings(Machine.healthy(root).put(THP + "/enabled", "always madvise [never]\n")), "THP");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("enabled=never").contains("4 KiB pages instead of 2 MiB").contains("512x more page faults")
                    .contains("set madvise");
            // what never takes away is huge pages for what asks: PyTorch's CPU tensors ask only with THP_MEM_ALLOC_ENABLE=1
            assertThat(x.text()).contains("even where a program asks").contains("THP_MEM_ALLOC_ENABLE=1").doesNotContain("DataLoader batches, CPU tensors");
            of(x, VmFactRules.THP);
        });
    }

    @Test
    void thpAlwaysWithDefragAlwaysStallsInCompaction() {
        Machine m = Machine.healthy(root).put(THP + "/enabled", "[always] madvise never\n")
                .put(THP + "/defrag", "[always] defer defer+madvise madvise never\n");
        assertThat(about(findings(m), "THP")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("direct compaction").contains("latency spikes").contains("defer+madvise");
            of(x, VmFactRules.THP);
        });
    }

    @Test
    void thpAlwaysWithGentleDefragIsQuiet() {
        for (String defrag : new String[] {"always defer [defer+madvise] madvise never", "always defer defer+madvise [madvise] never",
                "always [defer] defer+madvise madvise never", "always defer defer+madvise madvise [never]"}) {
            Machine m = Machine.healthy(root).put(THP + "/enabled", "[always] madvise never\n").put(THP + "/defrag", defrag + "\n");
            RuleTally.quiet(findings(m), VmFactRules.THP);
        }
    }

    @Test
    void thpUnavailableIsSaid() {
        assertThat(about(findings(Machine.healthy(root).remove(THP)), "THP")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).startsWith("transparent huge pages are unavailable (").contains("hugetlbfs");
        });
    }

    @Test
    void frequentThpFallbacksAreNoted() {
        Machine m = Machine.healthy(root).put("/proc/vmstat", "thp_fault_alloc 3000\nthp_fault_fallback 9000\n");
        assertThat(about(findings(m), "THP")).filteredOn(x -> x.id().equals(VmFactRules.THP_FALLBACK.id())).singleElement().satisfies(x -> {
            assertThat(x.text()).startsWith("75% of huge page faults").contains("allocated (fragmented memory) or charged (a memory cgroup at its limit)");
            of(x, VmFactRules.THP_FALLBACK);
        });
    }

    @Test
    void fewOrRareThpFallbacksAreQuiet() {
        // just under a quarter of the faults (1000 of 4001), or nearly all of one too few to speak of (MANY_FALLBACKS - 1)
        String justUnderAQuarter = "thp_fault_alloc 3001\nthp_fault_fallback " + VmVerdicts.MANY_FALLBACKS + "\n";
        String oneTooFew = "thp_fault_alloc 1\nthp_fault_fallback " + (VmVerdicts.MANY_FALLBACKS - 1) + "\n";
        for (String vmstat : new String[] {justUnderAQuarter, oneTooFew}) {
            RuleTally.quiet(findings(Machine.healthy(root).put("/proc/vmstat", vmstat)), VmFactRules.THP_FALLBACK);
        }
    }

    // ---- memlock ----

    static final String FINITE = Machine.LIMITS.replace("Max locked memory         unlimited            unlimited",
            "Max locked memory         %s                %s    ");

    Machine memlock(long soft, long hard) {
        return Machine.healthy(root).put("/proc/4242/limits", FINITE.formatted(soft, hard));
    }

    @Test
    void aTinyMemlockOnAnRdmaMachineIsBad() {
        List<Finding> f = about(findings(memlock(65536, 65536).dir("/sys/class/infiniband/mlx5_0")), "memlock");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.BAD);
            assertThat(x.text()).contains("memlock soft limit 64 KiB").contains("hard 64 KiB").contains("without CAP_IPC_LOCK")
                    .contains("NCCL").contains("ulimit -l unlimited").contains("--ulimit memlock=-1").contains("mlx5_0")
                    .contains("cudaHostAlloc (pin_memory()) pins through the NVIDIA driver and is not charged to this limit");
            // a low limit stops NCCL at init (nccl-tests#206); it does not send it to sockets
            assertThat(x.text()).contains("NCCL stops at init").doesNotContain("socket");
            of(x, VmFactRules.MEMLOCK);
        });
    }

    @Test
    void aTinyMemlockWithoutRdmaIsAWarning() {
        assertThat(about(findings(memlock(8 << 20, 8 << 20)), "memlock")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("8 MiB").contains("no RDMA device is visible");
            of(x, VmFactRules.MEMLOCK);
        });
    }

    @Test
    void aMemlockBelowAQuarterOfRamIsAWarning() {
        // 16 GiB of the healthy machine's 251.7 GiB
        assertThat(about(findings(memlock(16L << 30, 64L << 30)), "memlock")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).startsWith("memlock soft limit 16 GiB, under a quarter of the 251.7 GiB of RAM, (hard 64 GiB");
        });
    }

    @Test
    void aMemlockOfAQuarterOfRamIsQuiet() {
        long quarter = 263921576L * 1024 / 4; // the healthy machine's MemTotal
        RuleTally.quiet(findings(memlock(quarter, quarter).dir("/sys/class/infiniband/mlx5_0")), VmFactRules.MEMLOCK);
    }

    @Test
    void aMemlockOf64MibWithRamUnreadIsQuiet() {
        // without MemTotal only the tiny limit is judged, and 64 MiB is not below it
        Machine m = memlock(VmVerdicts.TINY_MEMLOCK, VmVerdicts.TINY_MEMLOCK).dir("/sys/class/infiniband/mlx5_0")
                .put("/proc/meminfo", "MemFree:        200000000 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n");
        assertThat(m.read().memory().memTotalBytes()).isNull();
        RuleTally.quiet(findings(m), VmFactRules.MEMLOCK);
        assertThat(about(findings(m.put("/proc/4242/limits", FINITE.formatted(VmVerdicts.TINY_MEMLOCK - 1, VmVerdicts.TINY_MEMLOCK))), "memlock"))
                .singleElement().satisfies(x -> assertThat(x.severity()).isEqualTo(Severity.BAD));
    }

    @Test
    void anUnlimitedMemlockIsQuiet() {
        RuleTally.quiet(findings(Machine.healthy(root).dir("/sys/class/infiniband/mlx5_0")), VmFactRules.MEMLOCK);
    }

    @Test
    void capIpcLockOrRootMakeTheLimitIrrelevant() {
        Machine m = memlock(65536, 65536).dir("/sys/class/infiniband/mlx5_0");
        m.put("/proc/4242/status", Machine.STATUS.replace("CapEff:\t0000000000000000", "CapEff:\t0000000000004000"));
        RuleTally.quiet(findings(m), VmFactRules.MEMLOCK);
        // root whose capabilities cannot be read: most likely exempt
        m.put("/proc/4242/status", "Uid:\t0\t0\t0\t0\n");
        RuleTally.quiet(findings(m), VmFactRules.MEMLOCK);
        // root without CAP_IPC_LOCK (Docker's default set) is bound by the limit
        m.put("/proc/4242/status", "Uid:\t0\t0\t0\t0\nCapEff:\t00000000a80425fb\n");
        assertThat(about(findings(m), "memlock")).singleElement().satisfies(x ->
                assertThat(x.text()).contains("uid 0 without CAP_IPC_LOCK"));
    }

    // ---- overcommit, swap ----

    @Test
    void strictOvercommitWarnsAndAlwaysIsNoted() {
        List<Finding> two = about(findings(Machine.healthy(root).put("/proc/sys/vm/overcommit_memory", "2\n")), "overcommit");
        assertThat(two).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("overcommit_memory=2").contains("CommitLimit 125.8 GiB").contains("fork()").contains("ENOMEM");
            of(x, VmFactRules.OVERCOMMIT);
        });
        List<Finding> one = about(findings(Machine.healthy(root).put("/proc/sys/vm/overcommit_memory", "1\n")), "overcommit");
        assertThat(one).singleElement().satisfies(x -> assertThat(x.severity()).isEqualTo(Severity.INFO));
    }

    @Test
    void heuristicOvercommitIsQuiet() {
        RuleTally.quiet(findings(Machine.healthy(root).put("/proc/sys/vm/overcommit_memory", "0\n")), VmFactRules.OVERCOMMIT);
    }

    Machine swap(long totalKb, long freeKb, int swappiness) {
        Machine m = Machine.healthy(root);
        String meminfo = """
                MemTotal:       263921576 kB
                SwapTotal:      %d kB
                SwapFree:       %d kB
                """.formatted(totalKb, freeKb);
        return m.put("/proc/meminfo", meminfo).put("/proc/sys/vm/swappiness", swappiness + "\n");
    }

    @Test
    void swapWithHighSwappiness() {
        assertThat(about(findings(swap(8388608, 8388608, 60)), "swap")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).startsWith("8 GiB of swap with swappiness 60:").contains("pinned memory stays resident");
            of(x, VmFactRules.SWAP);
        });
        assertThat(about(findings(swap(8388608, 4194304, 60)), "swap")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("4 GiB in use");
            of(x, VmFactRules.SWAP);
        });
    }

    @Test
    void swapInUseAtTheLowSwappinessOrNoSwapIsQuiet() {
        RuleTally.quiet(findings(swap(8388608, 4194304, VmVerdicts.LOW_SWAPPINESS)), VmFactRules.SWAP);
        RuleTally.quiet(findings(swap(0, 0, 60)), VmFactRules.SWAP);
    }

    // ---- NUMA ----

    @Test
    void numaBalancingOnSeveralNodesWarns() {
        Machine m = Machine.healthy(root).put("/proc/sys/kernel/numa_balancing", "1\n")
                .put("/proc/vmstat", "numa_hint_faults 4000\nnuma_pages_migrated 250\n");
        assertThat(about(findings(m), "NUMA balancing")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("2 NUMA nodes").contains("4000 hinting faults, 250 pages migrated")
                    .contains("kernel.numa_balancing=0").contains("numactl");
            of(x, VmFactRules.NUMA_BALANCING);
        });
        m.put("/proc/sys/kernel/numa_balancing", "2\n"); // memory tiering only
        RuleTally.quiet(findings(m), VmFactRules.NUMA_BALANCING);
    }

    @Test
    void numaBalancingOnOneNodeIsQuiet() {
        Machine m = Machine.healthy(root).put("/proc/sys/kernel/numa_balancing", "1\n").put("/proc/sys/vm/zone_reclaim_mode", "1\n")
                .remove("/sys/devices/system/node/node1");
        assertThat(m.read().numaNodes()).isEqualTo(1);
        RuleTally.quiet(RuleTally.quiet(findings(m), VmFactRules.NUMA_BALANCING), VmFactRules.ZONE_RECLAIM);
    }

    @Test
    void zoneReclaimOnSeveralNodesWarns() {
        Machine m = Machine.healthy(root).put("/proc/sys/vm/zone_reclaim_mode", "1\n");
        assertThat(about(findings(m), "zone reclaim")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("zone_reclaim_mode=1").contains("vm.zone_reclaim_mode=0");
            of(x, VmFactRules.ZONE_RECLAIM);
        });
    }

    @Test
    void zoneReclaimOffOnSeveralNodesIsQuiet() {
        Machine m = Machine.healthy(root).put("/proc/sys/vm/zone_reclaim_mode", "0\n");
        assertThat(m.read().numaNodes()).isEqualTo(2);
        RuleTally.quiet(findings(m), VmFactRules.ZONE_RECLAIM);
    }

    // ---- hugetlb ----

    @Test
    void anUnusedHugetlbPoolIsMemoryTakenAway() {
        String d = "/sys/kernel/mm/hugepages/hugepages-1048576kB/";
        String n = "/sys/devices/system/node/node%d/hugepages/hugepages-1048576kB/";
        Machine m = Machine.healthy(root).put(d + "nr_hugepages", "64\n").put(d + "free_hugepages", "64\n")
                .put(d + "resv_hugepages", "0\n")
                .put(n.formatted(0) + "nr_hugepages", "60\n").put(n.formatted(1) + "nr_hugepages", "4\n");
        List<Finding> f = about(findings(m), "hugetlb");
        assertThat(f).hasSize(2);
        assertThat(f.get(0).text()).startsWith("64 hugetlb pages of 1 GiB (64 GiB) are set aside and 64 of them unused")
                .contains("hugepages-1048576kB/nr_hugepages");
        assertThat(f.get(1).text()).contains("unevenly").contains("node0 60, node1 4");
        f.forEach(x -> of(x, VmFactRules.HUGETLB_POOL));
    }

    @Test
    void aHugetlbPoolHalfUsedAndAtMostTwiceAsLargeOnOneNodeIsQuiet() {
        // reserved pages count as used (a program has promised them to a mapping): 60 free, 30 of them reserved, is exactly half
        // unused; node0 holds twice node1's pages, no more
        String d = "/sys/kernel/mm/hugepages/hugepages-1048576kB/";
        String n = "/sys/devices/system/node/node%d/hugepages/hugepages-1048576kB/";
        Machine m = Machine.healthy(root).put(d + "nr_hugepages", "60\n").put(d + "free_hugepages", "60\n").put(d + "resv_hugepages", "30\n")
                .put(n.formatted(0) + "nr_hugepages", "40\n").put(n.formatted(1) + "nr_hugepages", "20\n");
        RuleTally.quiet(findings(m), VmFactRules.HUGETLB_POOL);
    }

    // ---- page size ----

    @Test
    void sixtyFourKibPagesAreExplained() {
        Machine m = Machine.healthy(root).put(THP + "/hpage_pmd_size", "536870912\n")
                .put(THP + "/hugepages-2048kB/enabled", "always inherit madvise [never]\n")
                .put("/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\n");
        List<Finding> all = findings(m);
        assertThat(about(all, "page size")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).startsWith("64 KiB base pages (aarch64 kernel, as on Grace): each TLB entry reaches 16x")
                    .contains("the THP size is 512 MiB, so THP rarely forms").contains("every multi-size THP size is off");
            of(x, VmFactRules.PAGE_SIZE);
        });
        assertThat(about(all, "THP")).singleElement().satisfies(x -> assertThat(x.text()).contains("512 MiB pages").contains("64 KiB pages"));
        m.put(THP + "/hugepages-2048kB/enabled", "always [inherit] madvise never\n");
        assertThat(about(findings(m), "page size").getFirst().text()).contains("multi-size THP on: 2 MiB inherit");
    }

    @Test
    void anAssumedPageSizeSaysNothing() {
        Machine m = Machine.healthy(root).remove(THP).put("/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\n");
        RuleTally.quiet(findings(m), VmFactRules.PAGE_SIZE);
    }

    @Test
    void aFourKibPageIsQuiet() {
        Machine m = Machine.healthy(root);
        assertThat(m.read().pageSize().bytes()).isEqualTo(4096L);
        assertThat(m.read().pageSize().assumed()).isFalse();
        RuleTally.quiet(findings(m), VmFactRules.PAGE_SIZE);
    }

    // ---- max_map_count ----

    @Test
    void aLowMaxMapCountWarnsAndTheDefaultIsQuiet() {
        assertThat(about(findings(Machine.healthy(root).put("/proc/sys/vm/max_map_count", "16384\n")), "max_map_count"))
                .singleElement().satisfies(x -> {
                    assertThat(x.text()).contains("16384").contains("262144");
                    of(x, VmFactRules.MAX_MAP_COUNT);
                });
        RuleTally.quiet(findings(Machine.healthy(root).put("/proc/sys/vm/max_map_count", VmVerdicts.DEFAULT_MAX_MAP_COUNT + "\n")),
                VmFactRules.MAX_MAP_COUNT);
    }
}
