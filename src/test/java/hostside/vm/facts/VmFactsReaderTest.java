package hostside.vm.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.process.Limits;

class VmFactsReaderTest {
    static final String THP = Machine.THP;

    @TempDir
    Path root;

    @Test
    void aHealthyMachineReadsCompletely() {
        VmFacts f = Machine.healthy(root).read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.arch()).isEqualTo(new VmFacts.Arch("x86_64", "/proc/cpuinfo: vendor_id AuthenticAMD with the lm flag"));
        assertThat(f.thp().status()).isEqualTo("available");
        assertThat(f.thp().enabled()).isEqualTo(new VmFacts.Setting("madvise", List.of("always", "madvise", "never")));
        assertThat(f.thp().defrag().selected()).isEqualTo("madvise");
        assertThat(f.thp().defrag().allowed()).containsExactly("always", "defer", "defer+madvise", "madvise", "never");
        assertThat(f.thp().shmemEnabled().selected()).isEqualTo("never");
        assertThat(f.thp().useZeroPage()).isEqualTo(1);
        assertThat(f.thp().pmdSizeBytes()).isEqualTo(2L << 20);
        assertThat(f.thp().khugepaged()).isEqualTo(new VmFacts.Khugepaged(1, 4096L, 10000L, 511L, 12L, 3L));
        assertThat(f.thp().mthp()).isEmpty();
        assertThat(f.pageSize()).isEqualTo(new VmFacts.PageSize(4096L,
                "derived from hpage_pmd_size 2 MiB (a PMD maps page size x page size / 8 bytes with 8-byte page table entries)", false));
        assertThat(f.hugetlb()).extracting(VmFacts.HugetlbPool::pageBytes).containsExactly(2L << 20, 1L << 30);
        assertThat(f.memory().memTotalBytes()).isEqualTo(263921576L * 1024);
        assertThat(f.memory().anonHugePagesBytes()).isEqualTo(204800L * 1024);
        assertThat(f.memory().hugetlbBytes()).isZero();
        assertThat(f.memory().committedAsBytes()).isEqualTo(5000000L * 1024);
        assertThat(f.sysctl()).isEqualTo(new VmFacts.Sysctl(0, 50, 60, 65530L, 0, 90112L * 1024, 10, 20, 0));
        assertThat(f.numaNodes()).isEqualTo(2);
        assertThat(f.rdmaDevices()).isEmpty();
        assertThat(f.vmstat()).containsExactly(
                java.util.Map.entry("thp_fault_alloc", 900L), java.util.Map.entry("thp_fault_fallback", 10L),
                java.util.Map.entry("thp_collapse_alloc", 5L), java.util.Map.entry("pgfault", 123456L),
                java.util.Map.entry("pgmajfault", 78L), java.util.Map.entry("numa_hint_faults", 0L),
                java.util.Map.entry("numa_pages_migrated", 0L), java.util.Map.entry("compact_stall", 2L));
        assertThat(f.process().pid()).isEqualTo("4242");
        assertThat(f.process().memlock()).isEqualTo(new Limits.Limit(null, null, "bytes", true, true));
        assertThat(f.process().nofile()).isEqualTo(new Limits.Limit(1024L, 1048576L, "files", false, false));
        assertThat(f.process().capIpcLock()).isFalse();
        assertThat(f.process().uid()).isEqualTo(1000);
    }

    @Test
    void thpNeverAndAlwaysAreRead() {
        Machine m = Machine.healthy(root).put(THP + "/enabled", "always madvise [never]\n");
        assertThat(m.read().thp().enabled().selected()).isEqualTo("never");
        m.put(THP + "/enabled", "[always] madvise never\n").put(THP + "/defrag", "[always] defer defer+madvise madvise never\n");
        VmFacts f = m.read();
        assertThat(f.thp().enabled().selected()).isEqualTo("always");
        assertThat(f.thp().defrag().selected()).isEqualTo("always");
    }

    @Test
    void aMissingThpFolderIsUnavailableNotAnError() {
        VmFacts f = Machine.healthy(root).remove(THP).read();
        assertThat(f.thp().status()).startsWith("unavailable (no /sys/kernel/mm/transparent_hugepage")
                .contains("CONFIG_TRANSPARENT_HUGEPAGE");
        assertThat(f.thp().enabled()).isNull();
        assertThat(f.thp().mthp()).isEmpty();
        assertThat(f.unknowns()).isEmpty();
        // no hpage_pmd_size: the page size comes from the architecture
        assertThat(f.pageSize().bytes()).isEqualTo(4096L);
        assertThat(f.pageSize().source()).startsWith("4 KiB: the only base page size x86_64 Linux uses");
        assertThat(f.pageSize().assumed()).isFalse();
    }

    @Test
    void aRecordingWithoutSysKernelMmSaysSo() {
        VmFacts f = Machine.healthy(root).remove("/sys/kernel").read();
        assertThat(f.thp().status()).isEqualTo("unavailable (not in this recording: it holds no /sys/kernel/mm)");
        assertThat(f.hugetlb()).isEmpty();
    }

    @Test
    void multiSizeThpIsListedBySize() {
        VmFacts f = Machine.healthy(root)
                .put(THP + "/hugepages-64kB/enabled", "always inherit madvise [never]\n")
                .put(THP + "/hugepages-2048kB/enabled", "always [inherit] madvise never\n")
                .put(THP + "/hugepages-2048kB/shmem_enabled", "always inherit within_size advise [never]\n")
                .put(THP + "/hugepages-16kB/enabled", "always inherit [madvise] never\n")
                .put(THP + "/hugepages-8kB/shmem_enabled", "always inherit within_size advise [never]\n").read();
        assertThat(f.thp().mthp()).extracting(VmFacts.Mthp::sizeBytes).containsExactly(8192L, 16384L, 65536L, 2097152L);
        assertThat(f.thp().mthp().getFirst().enabled()).isNull(); // anonymous memory has no order-1 mTHP: shmem only
        assertThat(f.thp().mthp().subList(1, 4)).extracting(m -> m.enabled().selected()).containsExactly("madvise", "never", "inherit");
        assertThat(f.thp().mthp().get(3).shmemEnabled().selected()).isEqualTo("never");
        assertThat(f.thp().mthp().get(1).shmemEnabled()).isNull();
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void hugetlbPoolsAndTheirNodes() {
        String d = "/sys/kernel/mm/hugepages/hugepages-1048576kB/";
        String n0 = "/sys/devices/system/node/node0/hugepages/hugepages-1048576kB/";
        String n1 = "/sys/devices/system/node/node1/hugepages/hugepages-1048576kB/";
        VmFacts f = Machine.healthy(root)
                .put(d + "nr_hugepages", "16\n").put(d + "free_hugepages", "12\n").put(d + "resv_hugepages", "2\n")
                .put(d + "surplus_hugepages", "1\n").put(d + "nr_overcommit_hugepages", "4\n")
                .put(n0 + "nr_hugepages", "12\n").put(n0 + "free_hugepages", "9\n").put(n0 + "surplus_hugepages", "1\n")
                .put(n1 + "nr_hugepages", "4\n").put(n1 + "free_hugepages", "3\n").read();
        VmFacts.HugetlbPool gig = f.hugetlb().get(1);
        assertThat(gig).isEqualTo(new VmFacts.HugetlbPool(1L << 30, 16L, 12L, 2L, 1L, 4L, 16L << 30, List.of(
                new VmFacts.NodePool(0, 12L, 9L, 1L, 12L << 30),
                new VmFacts.NodePool(1, 4L, 3L, 0L, 4L << 30))));
        assertThat(f.hugetlb().get(0).nodes()).hasSize(2);
    }

    @Test
    void garbageInEveryFileBecomesUnknownsNeverAnException() {
        VmFacts f = Machine.healthy(root)
                .put(THP + "/enabled", "always madvise never\n")                  // no brackets
                .put(THP + "/defrag", "[always] [madvise]\n")                      // two selections
                .put(THP + "/shmem_enabled", "\u0000\u0001garbage[\n")
                .put(THP + "/use_zero_page", "yes\n")
                .put(THP + "/hpage_pmd_size", "3000000\n")                         // not a power of two
                .put(THP + "/khugepaged/pages_to_scan", "\n")
                .put(THP + "/hugepages-abckB/enabled", "[never]\n")
                .put("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "lots\n")
                .put("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "-1\n")
                .put("/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages", "9999999999999999999999\n")
                .put("/proc/meminfo", "MemTotal: many kB\nSwapTotal:\nCommitLimit: 10 kB\n")
                .put("/proc/sys/vm/overcommit_memory", "two\n")
                .put("/proc/sys/vm/swappiness", "99999999999\n")                   // beyond an int
                .put("/proc/sys/kernel/numa_balancing", "")
                .put("/proc/vmstat", "pgfault\nthp_fault_alloc 1 2\ncompact_stall x\npgmajfault 5\n")
                .put("/proc/4242/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
                        + "Max cpu time              unlimited            unlimited            seconds\n"
                        + "Max open files            1024")          // truncated
                .put("/proc/4242/status", "Name:\tjava\nUid:\tx\nCapEff:\tzzzz\n")
                .put("/proc/cpuinfo", "\u0000\u0000")
                .read();
        List<String> u = f.unknowns();
        assertThat(f.thp().enabled()).isEqualTo(new VmFacts.Setting(null, List.of("always", "madvise", "never")));
        assertThat(u).contains(THP + "/enabled: no [selected] value: \"always madvise never\"");
        assertThat(u).contains(THP + "/defrag: more than one [selected] value: \"[always] [madvise]\"");
        assertThat(u).anySatisfy(x -> assertThat(x).startsWith(THP + "/shmem_enabled: not a list of [chosen] values: \"??garbage[\""));
        assertThat(f.thp().useZeroPage()).isNull();
        assertThat(u).contains(THP + "/use_zero_page: not a number: \"yes\"");
        assertThat(f.thp().pmdSizeBytes()).isNull();
        assertThat(u).contains(THP + "/hpage_pmd_size: not a power of two: \"3000000\"");
        assertThat(f.thp().khugepaged().pagesToScan()).isNull();
        assertThat(u).contains(THP + "/khugepaged/pages_to_scan: not a number: \"\"");
        assertThat(f.thp().mthp()).isEmpty();
        assertThat(u).contains(THP + "/hugepages-abckB: not a huge page size");
        VmFacts.HugetlbPool two = f.hugetlb().getFirst();
        assertThat(two.total()).isNull();
        assertThat(two.poolBytes()).isNull();
        assertThat(two.free()).isNull();
        assertThat(two.nodes().get(1).total()).isNull();
        assertThat(u).contains("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages: not a number: \"lots\"");
        assertThat(u).contains("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages: not a number: \"-1\"");
        assertThat(f.memory().memTotalBytes()).isNull();
        assertThat(f.memory().swapTotalBytes()).isNull();
        assertThat(f.memory().commitLimitBytes()).isEqualTo(10240L);
        assertThat(u).contains("/proc/meminfo: MemTotal is not a size: \"many kB\"", "/proc/meminfo: SwapTotal is not a size: \"\"");
        assertThat(f.sysctl().overcommitMemory()).isNull();
        assertThat(f.sysctl().swappiness()).isNull();
        assertThat(f.sysctl().numaBalancing()).isNull();
        assertThat(u).contains("/proc/sys/vm/overcommit_memory: not a number: \"two\"",
                "/proc/sys/vm/swappiness: out of range: \"99999999999\"", "/proc/sys/kernel/numa_balancing: not a number: \"\"");
        assertThat(f.vmstat()).containsOnlyKeys("pgmajfault");
        assertThat(u).contains("/proc/vmstat: pgfault is not a count: \"pgfault\"",
                "/proc/vmstat: thp_fault_alloc is not a count: \"thp_fault_alloc 1 2\"");
        assertThat(f.process().memlock()).isNull();
        assertThat(f.process().nofile()).isNull();
        assertThat(u).contains("/proc/self/limits: no \"Max locked memory\" line (a truncated file?)",
                "/proc/self/limits: Max open files is not soft, hard and unit: \"Max open files            1024\"");
        assertThat(f.process().capIpcLock()).isNull();
        assertThat(f.process().uid()).isNull();
        assertThat(u).contains("/proc/self/status: CapEff is not a capability mask: \"zzzz\"",
                "/proc/self/status: Uid is not real, effective, saved and fs uids: \"x\"");
        assertThat(f.arch().name()).isNull();
        assertThat(f.arch().source()).startsWith("unknown (");
        assertThat(f.pageSize().bytes()).isNull();
        assertThat(f.pageSize().source()).startsWith("unknown (");
        assertThat(VmVerdicts.of(f)).isNotNull();
    }

    @Test
    void anEmptyMachineStillReads() {
        VmFacts f = new Machine(root).dir("/proc").read();
        assertThat(f.thp().status()).startsWith("unavailable (not in this recording");
        assertThat(f.hugetlb()).isEmpty();
        assertThat(f.memory().memTotalBytes()).isNull();
        assertThat(f.numaNodes()).isNull();
        assertThat(f.process().pid()).isNull();
        assertThat(f.unknowns()).contains("/proc/meminfo: missing", "/proc/vmstat: missing", "/proc/self/limits: missing",
                "/proc/self/status: missing", "/proc/sys/vm/overcommit_memory: missing", "NUMA nodes: no /sys/devices/system/node");
        assertThat(VmVerdicts.of(f)).isEmpty();
    }

    @Test
    void aKernelWithoutNumaHasOneNode() {
        VmFacts f = Machine.healthy(root).remove("/sys/devices/system/node").dir("/sys/devices/system/cpu").read();
        assertThat(f.numaNodes()).isEqualTo(1);
        assertThat(f.hugetlb().getFirst().nodes()).isEmpty();
    }

    // ---- limits and privileges ----

    @Test
    void capIpcLockIsBit14OfCapEff() {
        Machine m = Machine.healthy(root);
        m.put("/proc/4242/status", Machine.STATUS.replace("CapEff:\t0000000000000000", "CapEff:\t0000000000004000"));
        assertThat(m.read().process().capIpcLock()).isTrue();
        m.put("/proc/4242/status", Machine.STATUS.replace("CapEff:\t0000000000000000", "CapEff:\t000001ffffffbfff"));
        assertThat(m.read().process().capIpcLock()).isFalse(); // everything but bit 14
        m.put("/proc/4242/status", Machine.STATUS.replace("CapEff:\t0000000000000000", "CapEff:\t000001ffffffffff"));
        assertThat(m.read().process().capIpcLock()).isTrue();
    }

    @Test
    void rootIsTheEffectiveUid() {
        Machine m = Machine.healthy(root);
        m.put("/proc/4242/status", Machine.STATUS.replace("Uid:\t1000\t1000\t1000\t1000", "Uid:\t1000\t0\t0\t0"));
        assertThat(m.read().process().uid()).isZero();
    }

    @Test
    void aFiniteMemlockIsReadInBytes() {
        VmFacts f = Machine.healthy(root).put("/proc/4242/limits",
                Machine.LIMITS.replace("Max locked memory         unlimited            unlimited",
                        "Max locked memory         65536                65536    ")).read();
        assertThat(f.process().memlock()).isEqualTo(new Limits.Limit(65536L, 65536L, "bytes", false, false));
    }

    // ---- page size ----

    @ParameterizedTest
    @CsvSource({"2097152, 4096", "33554432, 16384", "536870912, 65536"})
    void thePageSizeFollowsFromThePmdSize(long pmd, long page) {
        VmFacts f = Machine.healthy(root).put(THP + "/hpage_pmd_size", pmd + "\n").read();
        assertThat(f.pageSize().bytes()).isEqualTo(page);
        assertThat(f.pageSize().source()).startsWith("derived from hpage_pmd_size");
        assertThat(f.pageSize().assumed()).isFalse();
    }

    @Test
    void pageFromPmdRejectsSizesThatAreNoSquare() {
        assertThat(VmFactsReader.pageFromPmd(1L << 20)).isNull(); // s390x: 1 MiB segments with 4 KiB pages
        assertThat(VmFactsReader.pageFromPmd(0)).isNull();
        assertThat(VmFactsReader.pageFromPmd(3000)).isNull();
        assertThat(VmFactsReader.pageFromPmd(1L << 62)).isNull();
        assertThat(VmFactsReader.pageFromPmd(1L << 21)).isEqualTo(4096L);
    }

    @Test
    void smapsWinsOverThePmdSize() {
        VmFacts f = Machine.healthy(root).put("/proc/4242/smaps", """
                00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/java
                Size:                328 kB
                KernelPageSize:       64 kB
                MMUPageSize:          64 kB
                """).read();
        assertThat(f.pageSize()).isEqualTo(new VmFacts.PageSize(65536L, "/proc/self/smaps: KernelPageSize of the first mapping", false));
    }

    @Test
    void garbledSmapsFallsBackToThePmdSize() {
        VmFacts f = Machine.healthy(root).put("/proc/4242/smaps", "KernelPageSize: big\n").read();
        assertThat(f.pageSize().bytes()).isEqualTo(4096L);
        assertThat(f.unknowns()).contains("/proc/self/smaps: KernelPageSize is not a size: \"KernelPageSize: big\"");
    }

    @Test
    void theLiveValueIsPreferred() {
        VmFacts f = VmFactsReader.read(FsRoot.open(Machine.healthy(root).root.toString()), OptionalLong.of(16384));
        assertThat(f.pageSize()).isEqualTo(new VmFacts.PageSize(16384L, "sysconf(_SC_PAGESIZE) of this process", false));
        VmFacts bad = VmFactsReader.read(FsRoot.open(root.toString()), OptionalLong.of(3));
        assertThat(bad.pageSize().bytes()).isEqualTo(4096L);
        assertThat(bad.unknowns()).anySatisfy(u -> assertThat(u).startsWith("page size: sysconf(_SC_PAGESIZE) gave 3"));
    }

    @Test
    void anArmMachineWithoutThpIsAnAssumption() {
        VmFacts f = Machine.healthy(root).remove(THP)
                .put("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\n"
                        + "CPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\n").read();
        assertThat(f.arch()).isEqualTo(new VmFacts.Arch("aarch64", "/proc/cpuinfo: CPU implementer 0x41, CPU architecture 8"));
        assertThat(f.pageSize().bytes()).isEqualTo(4096L);
        assertThat(f.pageSize().assumed()).isTrue();
        assertThat(f.pageSize().source()).startsWith("assumed: ").contains("64 KiB");
    }

    @Test
    void powerDoesNotDeriveFromThePmdSize() {
        // ppc64 radix with 64 KiB pages has a 2 MiB PMD: the formula would say 4 KiB
        VmFacts f = Machine.healthy(root).put("/proc/cpuinfo", "processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n").read();
        assertThat(f.arch().name()).isEqualTo("ppc64le");
        assertThat(f.pageSize().bytes()).isEqualTo(65536L);
        assertThat(f.pageSize().assumed()).isTrue();
    }

    @Test
    void kernelArchWinsOverCpuinfo() {
        VmFacts f = Machine.healthy(root).put("/proc/sys/kernel/arch", "aarch64\n").read();
        assertThat(f.arch()).isEqualTo(new VmFacts.Arch("aarch64", "/proc/sys/kernel/arch"));
        VmFacts g = Machine.healthy(root).put("/proc/sys/kernel/arch", "Not An Arch!\n").read();
        assertThat(g.arch().name()).isEqualTo("x86_64");
        assertThat(g.unknowns()).contains("/proc/sys/kernel/arch: not an architecture: \"Not An Arch!\"");
    }

    @Test
    void theProcVersionIsTheLastHint() {
        VmFacts f = Machine.healthy(root).put("/proc/cpuinfo", "")
                .put("/proc/version", "Linux version 6.8.0 (buildd@bos02-arm64) (aarch64-linux-gnu-gcc-13 (Ubuntu 13.2.0) 13.2.0)\n").read();
        assertThat(f.arch().name()).isEqualTo("aarch64");
    }

    @Test
    void rdmaDevicesAreListed() {
        VmFacts f = Machine.healthy(root).dir("/sys/class/infiniband/mlx5_0").dir("/sys/class/infiniband/mlx5_1").read();
        assertThat(f.rdmaDevices()).containsExactly("mlx5_0", "mlx5_1");
    }

    @Test
    void theFactsAreJson() throws Exception {
        String json = Json.write(Machine.healthy(root).read());
        var tree = Json.MAPPER.readTree(json);
        assertThat(tree.get("pageSize").get("bytes").asLong()).isEqualTo(4096);
        assertThat(tree.get("thp").get("enabled").get("selected").asText()).isEqualTo("madvise");
        assertThat(tree.get("thp").has("available")).isFalse();
        assertThat(tree.get("process").get("memlock").get("softUnlimited").asBoolean()).isTrue();
        assertThat(tree.get("process").get("memlock").has("softOrMax")).isFalse();
        assertThat(tree.get("vmstat").get("pgfault").asLong()).isEqualTo(123456);
        assertThat(tree.get("unknowns").isArray()).isTrue();
    }
}
