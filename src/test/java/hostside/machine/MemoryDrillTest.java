package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.harness.Runner;
import hostside.harness.Skipped;
import hostside.harness.Status;
import hostside.harness.TestCase;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryTarget;

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

    @Test
    void aRunThatSkipsEveryCaseProbesNoCache() {
        // a quick report skips every memory case: sizing arrays for none cost 0.5-0.6 s where sysfs names no cache
        FsRoot live = FsRoot.live();
        var skipped = MemoryDrill.tests().stream().map(t -> (TestCase<MemoryTarget>) new Skipped<>(t, "quick")).toList();
        List<ProgressSink.Event> events = new ArrayList<>();
        MemoryDrill.MemorySection s = MemoryDrill.run(live, MachineReader.read(live).topology(), skipped, events::add);
        assertThat(events).noneMatch(e -> e instanceof ProgressSink.Step);
        assertThat(s.results()).isNotEmpty().allSatisfy(m -> {
            assertThat(m.result().status()).isEqualTo(Status.NOT_RUN);
            assertThat(m.result().why()).isEqualTo("quick");
        });
    }
}
