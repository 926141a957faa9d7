package hostside.vm.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.process.Limits;

/** The NVIDIA H200 VM as recorded in testdata/h200 (/proc/self -> 603, a root python3). */
class H200VmTest {
    static final long KIB = 1024;
    static final VmFacts f = VmFactsReader.read(FsRoot.open(Fixtures.h200().toString()), OptionalLong.empty());

    @Test
    void everythingReads() {
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void anX86MachineWith4KibPagesFromThePmdSize() {
        assertThat(f.arch()).isEqualTo(new VmFacts.Arch("x86_64", "/proc/cpuinfo: vendor_id GenuineIntel with the lm flag"));
        // the recording holds no /proc/603/smaps: the page size comes from hpage_pmd_size
        assertThat(f.pageSize().bytes()).isEqualTo(4096L);
        assertThat(f.pageSize().source()).startsWith("derived from hpage_pmd_size 2 MiB");
        assertThat(f.pageSize().assumed()).isFalse();
    }

    @Test
    void thpIsMadviseAndUnused() {
        VmFacts.Thp t = f.thp();
        assertThat(t.status()).isEqualTo("available");
        assertThat(t.enabled()).isEqualTo(new VmFacts.Setting("madvise", List.of("always", "madvise", "never")));
        assertThat(t.defrag()).isEqualTo(new VmFacts.Setting("madvise", List.of("always", "defer", "defer+madvise", "madvise", "never")));
        assertThat(t.shmemEnabled()).isEqualTo(new VmFacts.Setting("never", List.of("always", "within_size", "advise", "never", "deny", "force")));
        assertThat(t.useZeroPage()).isEqualTo(1);
        assertThat(t.pmdSizeBytes()).isEqualTo(2097152L);
        assertThat(t.khugepaged()).isEqualTo(new VmFacts.Khugepaged(1, 4096L, 10000L, 511L, 0L, 0L));
        assertThat(t.mthp()).isEmpty(); // kernel 6.18, but no hugepages-NkB folders were recorded
    }

    @Test
    void emptyHugetlbPoolsOnOneNode() {
        assertThat(f.hugetlb()).containsExactly(
                new VmFacts.HugetlbPool(2L << 20, 0L, 0L, 0L, 0L, 0L, 0L, List.of(new VmFacts.NodePool(0, 0L, 0L, 0L, 0L))),
                new VmFacts.HugetlbPool(1L << 30, 0L, 0L, 0L, 0L, 0L, 0L, List.of(new VmFacts.NodePool(0, 0L, 0L, 0L, 0L))));
        assertThat(f.numaNodes()).isEqualTo(1);
        assertThat(f.memoryNodes()).isEqualTo(1);
        assertThat(f.rdmaDevices()).isEmpty();
    }

    @Test
    void meminfoSysctlsAndCounters() {
        assertThat(f.memory()).isEqualTo(new VmFacts.Meminfo(131961788 * KIB, 131429572 * KIB, 0L, 0L, 0L, 0L,
                65980892 * KIB, 82592 * KIB, 0L, 0L, 7552 * KIB));
        assertThat(f.sysctl()).isEqualTo(new VmFacts.Sysctl(1, 50, 60, 8250340L, 0, 67584 * KIB, 10, 20, 0));
        assertThat(f.vmstat()).containsExactly(Map.entry("thp_fault_alloc", 0L), Map.entry("thp_fault_fallback", 0L),
                Map.entry("thp_collapse_alloc", 0L), Map.entry("pgfault", 384503L), Map.entry("pgmajfault", 2456L),
                Map.entry("numa_hint_faults", 0L), Map.entry("numa_pages_migrated", 0L), Map.entry("compact_stall", 0L));
    }

    @Test
    void theRecorderRanAsRootWithEveryCapability() {
        VmFacts.ProcessLimits p = f.process();
        assertThat(p.pid()).isEqualTo("603");
        assertThat(p.memlock()).isEqualTo(new Limits.Limit(null, null, "bytes", true, true));
        assertThat(p.nofile()).isEqualTo(new Limits.Limit(20000L, 20000L, "files", false, false));
        assertThat(p.capIpcLock()).isTrue(); // CapEff 000001fffeffffff
        assertThat(p.uid()).isZero();
    }

    @Test
    void findingsAreTheThpNoteAndOvercommitOne() {
        List<Finding> v = VmVerdicts.of(f);
        assertThat(v).extracting(Finding::severity, Finding::subject)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Severity.INFO, "THP"), org.assertj.core.groups.Tuple.tuple(Severity.INFO, "overcommit"));
        assertThat(v.get(0).text()).isEqualTo("THP madvise: only regions that ask with madvise(MADV_HUGEPAGE) get 2 MiB pages; "
                + "PyTorch's CPU allocator asks only when THP_MEM_ALLOC_ENABLE=1, so by default its host tensors use 4 KiB pages");
        assertThat(v.get(1).text()).startsWith("overcommit_memory=1");
    }
}
