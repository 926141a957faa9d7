package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.harness.Runner;
import hostside.memory.MemoryCases;

/** Which cases run where, how much memory they take, and what a recording says: the drill's rules, no measuring. */
class MemoryDrillTest {
    static final MemoryPlan TWO_NODES = new MemoryPlan(CpuSet.range(0, 7), 1,
            List.of(new MemoryPlan.Node(0, CpuSet.range(0, 3)), new MemoryPlan.Node(1, CpuSet.range(4, 7))),
            List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 3), MemoryPlan.CPUS_AND_MEMORY), new MemoryPlan.Pair(0, 1, CpuSet.range(0, 3), MemoryPlan.CPUS_AND_MEMORY),
                    new MemoryPlan.Pair(1, 0, CpuSet.range(4, 7), MemoryPlan.CPUS_AND_MEMORY), new MemoryPlan.Pair(1, 1, CpuSet.range(4, 7), MemoryPlan.CPUS_AND_MEMORY)),
            List.of(new MemoryPlan.Kind("P-core", 1, 0), new MemoryPlan.Kind("E-core", 6, 1)), 64L << 20, List.of());

    @Test
    void everyCaseRunsWhereItBelongsInOrder() {
        List<String> runs = MemoryDrill.schedule(TWO_NODES, MemoryDrill.tests()).stream()
                .map(r -> r.scope() + " " + r.cpus() + " " + r.node() + " " + r.cases().stream().map(c -> c.key()).toList()).toList();
        assertThat(runs).containsExactly(
                "machine 0-7 null [memory_bandwidth_triad]",
                "machine 1 null [memory_bandwidth_triad_one_thread]",
                "node:0 0-3 0 [memory_bandwidth_triad]",
                "node:1 4-7 1 [memory_bandwidth_triad]",
                "nodes:0,0 0-3 0 [memory_bandwidth_read, memory_latency]",
                "nodes:0,1 0-3 1 [memory_bandwidth_read, memory_latency]",
                "nodes:1,0 4-7 0 [memory_bandwidth_read, memory_latency]",
                "nodes:1,1 4-7 1 [memory_bandwidth_read, memory_latency]",
                "cpu:1 1 null [memory_bandwidth_triad_one_thread, memory_latency]",
                "cpu:6 6 null [memory_bandwidth_triad_one_thread, memory_latency]");
    }

    @Test
    void onlyTheCasesAskedForAreScheduled() {
        List<MemoryDrill.Run> runs = MemoryDrill.schedule(TWO_NODES,
                MemoryDrill.tests().stream().filter(t -> t.key().equals(MemoryCases.LATENCY)).toList());
        assertThat(runs).extracting(r -> r.scope().toString()).containsExactly("nodes:0,0", "nodes:0,1", "nodes:1,0", "nodes:1,1", "cpu:1", "cpu:6");
        assertThat(runs.get(0).label()).isEqualTo("CPUs of node 0, memory of node 0");
    }

    @Test
    void aLargeMatrixChasesFewerLoadsASampleButNeverTooFew() {
        assertThat(MemoryDrill.chaseLoads(1)).isEqualTo(MemoryCases.CHASE_LOADS);
        assertThat(MemoryDrill.chaseLoads(4)).isEqualTo(MemoryCases.CHASE_LOADS);
        assertThat(MemoryDrill.chaseLoads(8)).isEqualTo(MemoryCases.CHASE_LOADS / 2);
        assertThat(MemoryDrill.chaseLoads(64)).isEqualTo(1 << 19);
    }

    @Test
    void arraysFollowStreamsRuleWithinAQuarterOfTheMemory() {
        long mib = 1L << 20, gib = 1L << 30;
        MemoryDrill.Sizes roomy = MemoryDrill.Sizes.of(300 * mib, 100 * gib, 4096, null);
        assertThat(roomy.array()).isEqualTo(1200 * mib);
        assertThat(roomy.read()).isEqualTo(1200 * mib);
        assertThat(roomy.chase()).isEqualTo(1200 * mib);
        assertThat(roomy.note()).isEmpty();
        MemoryDrill.Sizes small = MemoryDrill.Sizes.of(8 * mib, 100 * gib, 4096, null);
        assertThat(small.array()).as("the floor").isEqualTo(64 * mib);
        assertThat(small.read()).isEqualTo(gib);
        assertThat(small.chase()).isEqualTo(256 * mib);
        MemoryDrill.Sizes tight = MemoryDrill.Sizes.of(300 * mib, 4 * gib, 4096, null);
        assertThat(tight.array()).as("a third of a quarter of 4 GiB").isEqualTo(4 * gib / 4 / 3 / 4096 * 4096);
        assertThat(tight.note()).contains("less than STREAM's four times the last-level caches").contains("a quarter of the available memory is 1 GiB");
        MemoryDrill.Sizes asked = MemoryDrill.Sizes.of(300 * mib, 100 * gib, 4096, 640_000_000L);
        assertThat(asked.array()).isEqualTo(640_000_000L);
        assertThat(asked.note()).startsWith("arrays of 610.4 MiB as asked");
    }

    @Test
    void aMachineThatHidesItsCachesIsSizedForALargeOneAndSaysSo() {
        long mib = 1L << 20, gib = 1L << 30;
        MemoryDrill.Sizes hidden = MemoryDrill.Sizes.of(0, 100 * gib, 4096, null);
        assertThat(hidden.array()).as("four times the assumed 256 MiB, not the 64 MiB floor").isEqualTo(gib);
        assertThat(hidden.read()).isEqualTo(gib);
        assertThat(hidden.chase()).isEqualTo(gib);
        assertThat(hidden.note()).isEqualTo("sysfs names no last-level cache (as in some VMs), so the sizes assume 256 MiB; a larger cache would serve part of each pass");
        MemoryDrill.Sizes hiddenTight = MemoryDrill.Sizes.of(0, 4 * gib, 4096, null);
        assertThat(hiddenTight.array()).isEqualTo(4 * gib / 4 / 3 / 4096 * 4096);
        assertThat(hiddenTight.note()).startsWith("sysfs names no last-level cache").contains("; arrays of 341.3 MiB, less than STREAM's four times an assumed 256 MiB cache (1 GiB)");
        assertThat(MemoryDrill.Sizes.of(8 * mib, 100 * gib, 4096, null).note()).as("a known small cache needs no word").isEmpty();
    }

    @Test
    void thpNeverIsTheOnlyModeWithoutHugePages() {
        assertThat(MemoryDrill.thpAllows("always [madvise] never")).isTrue();
        assertThat(MemoryDrill.thpAllows("[always] madvise never")).isTrue();
        assertThat(MemoryDrill.thpAllows("always madvise [never]")).isFalse();
        assertThat(MemoryDrill.thpAllows(null)).isTrue();
    }

    @Test
    void aRecordingMeasuresNothingAndKeepsItsPlan() {
        MemoryDrill.MemorySection s = MemoryDrill.run(FsRoot.open(hostside.Fixtures.h200().toString()),
                MachineReader.read(FsRoot.open(hostside.Fixtures.h200().toString())).topology(), MemoryDrill.tests(), e -> { });
        assertThat(s.notRun()).isEqualTo(Runner.RECORDED);
        assertThat(s.results()).isEmpty();
        assertThat(s.plan().pairs()).singleElement().satisfies(p -> assertThat(p.cpus()).isEqualTo(CpuSet.range(0, 15)));
        assertThat(s.plan().llcBytes()).isEqualTo(300L << 20);
    }
}
