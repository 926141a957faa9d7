package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.cpu.CpuDrill;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.Target;
import hostside.harness.Earlier;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Skipped;
import hostside.harness.Status;
import hostside.harness.TestCase;
import hostside.io.IoDrill;
import hostside.machine.GpuDrill;
import hostside.machine.MemoryDrill;
import hostside.vm.VmDrill;

/** report --quick: which cases it keeps, and how the others read. */
class QuickTest {
    static List<TestCase<?>> every() {
        List<TestCase<?>> all = new ArrayList<>();
        all.addAll(MemoryDrill.tests());
        all.addAll(GpuDrill.tests());
        all.addAll(GpuDrill.allGpuTests());
        all.addAll(VmDrill.hostTests());
        all.addAll(VmDrill.gpuTests());
        all.addAll(CpuDrill.measurements());
        all.addAll(DataLoaderTarget.tests());
        all.addAll(IoDrill.tests());
        return all;
    }

    @Test
    void everyKeptKeyIsADrillsCase() {
        // a renamed case would silently drop out of quick reports
        Set<String> keys = every().stream().map(TestCase::key).collect(Collectors.toSet());
        assertThat(keys).containsAll(Quick.KEEP);
    }

    @Test
    void theFirstPagesFiguresAreKept() {
        // the link answer and the headlines quote these four; the CPU answer the quiet jitter; "beyond the box" the three io figures
        assertThat(Quick.KEEP).contains("host_to_device_ce_pinned", "device_to_host_ce_pinned", "host_to_device_ce_pageable", "device_to_host_ce_pageable",
                "launch_jitter_quiet", "timer_jitter_quiet", "seq_read_cold_qd1", "seq_read_direct_uring_qd32", "write_fsync");
        // the slow ones are not: hogs on every core, forked Python workers, sweeps
        assertThat(Quick.KEEP).doesNotContain("launch_jitter_noisy", "timer_jitter_noisy", "dataloader_cow_list", "host_to_device_sweep_pinned",
                "context_switch_cross_core", "tlb_reach_huge", "memory_bandwidth_triad", "memory_latency");
        // nor what no answer, headline or warning stands on: the same-core hand-over's verdict is an info line
        assertThat(Quick.KEEP).doesNotContain("context_switch_same_core");
    }

    @Test
    void onAGpuMachineTheLaunchJitterAnswersForTheFeeder() {
        var cpu = CpuDrill.measurements();
        var withGpu = Quick.of(cpu, true);
        var without = Quick.of(cpu, false);
        TestCase<?> timerGpu = withGpu.stream().filter(t -> t.key().equals("timer_jitter_quiet")).findFirst().orElseThrow();
        assertThat(timerGpu).isInstanceOf(Skipped.class);
        assertThat(((Skipped<?>) timerGpu).why()).contains("launch_jitter_quiet answers");
        assertThat(without.stream().filter(t -> t.key().equals("timer_jitter_quiet")).findFirst().orElseThrow()).isNotInstanceOf(Skipped.class);
        assertThat(withGpu.stream().filter(t -> t.key().equals("launch_jitter_quiet")).findFirst().orElseThrow()).isNotInstanceOf(Skipped.class);
    }

    @Test
    void aSkippedCaseKeepsItsRowAndSaysWhy() {
        List<TestCase<Object>> quick = Quick.of(IoDrill.tests().stream().map(t -> (TestCase<Object>) (TestCase<?>) t).toList(), false);
        assertThat(quick).extracting(TestCase::key).containsExactlyElementsOf(IoDrill.tests().stream().map(TestCase::key).toList());
        TestCase<Object> warm = quick.stream().filter(t -> t.key().equals("seq_read_warm_qd1")).findFirst().orElseThrow();
        assertThat(warm).isInstanceOf(Skipped.class);
        TestCase<Object> cold = quick.stream().filter(t -> t.key().equals("seq_read_cold_qd1")).findFirst().orElseThrow();
        assertThat(cold).isNotInstanceOf(Skipped.class);
        TestCase<?> original = IoDrill.tests().stream().filter(t -> t.key().equals("seq_read_warm_qd1")).findFirst().orElseThrow();
        assertThat(warm.description()).isEqualTo(original.description());
        assertThat(warm.anchor()).isEqualTo(original.anchor());
        assertThat(warm.detailType()).isEqualTo(original.detailType());

        // the harness never runs it: not run, with the reason
        List<Result> rs = Runner.run(List.of(warm), new Object(), ProgressSink.NONE);
        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.NOT_RUN);
            assertThat(r.why()).isEqualTo(Quick.WHY);
        });
        assertThatThrownBy(() -> warm.run(new Object())).hasMessageContaining("skipped");
    }

    @Test
    void aFullRunTakesEveryCaseAsItIs() {
        var all = MemoryDrill.tests();
        assertThat(Profile.Mode.FULL.cases(Earlier.NONE).pick(all)).isEqualTo(all);
        assertThat(Profile.Mode.QUICK.cases(Earlier.NONE).pick(all)).as("no memory figure: no answer quotes one").allMatch(t -> t instanceof Skipped);
    }

    /** ... but the copies from each NUMA node, which it runs only where there are several nodes to compare. */
    @Test
    void aFullRunCopiesFromEachNodeOnlyWhereThereAreSeveral() {
        var gpu = GpuDrill.tests();
        List<TestCase<Target>> picked = Profile.Mode.FULL.cases(Earlier.NONE).pick(gpu);
        assertThat(picked).extracting(TestCase::key).containsExactlyElementsOf(gpu.stream().map(TestCase::key).toList());
        assertThat(picked.subList(0, picked.size() - 1)).isEqualTo(gpu.subList(0, gpu.size() - 1));
        NodeCopies inReport = (NodeCopies) picked.getLast();
        CpuSet cpus = CpuSet.range(0, 3);
        assertThat(inReport.from(List.of(new NodeCopies.From(0, cpus)), 0).notApplicable(null)).get().asString()
                .startsWith("one NUMA node: the copies above are from it");
        assertThat(inReport.from(List.of(new NodeCopies.From(0, cpus), new NodeCopies.From(1, CpuSet.range(4, 7))), 0).notApplicable(null)).isEmpty();
        assertThat(((NodeCopies) gpu.getLast()).from(List.of(new NodeCopies.From(0, cpus)), 0).notApplicable(null))
                .as("hostside machine still runs it on one node").isEmpty();
    }

    /** ... and fork vs spawn, which it leaves to the CPU drill: three interpreters importing torch, the same rule on every node. */
    @Test
    void aFullRunLeavesForkVsSpawnToTheCpuDrill() {
        var dataloader = DataLoaderTarget.tests();
        List<TestCase<DataLoaderTarget>> picked = Profile.Mode.FULL.cases(Earlier.NONE).pick(dataloader);
        assertThat(picked).extracting(TestCase::key).containsExactlyElementsOf(dataloader.stream().map(TestCase::key).toList());
        assertThat(picked).filteredOn(t -> !t.key().equals("fork_vs_spawn_cuda")).allMatch(t -> !(t instanceof Skipped));
        TestCase<DataLoaderTarget> spawn = picked.stream().filter(t -> t.key().equals("fork_vs_spawn_cuda")).findFirst().orElseThrow();
        assertThat(spawn).isInstanceOf(Skipped.class);
        assertThat(((Skipped<?>) spawn).why()).contains("hostside cpu").contains("torch");
        assertThat(spawn.detailType()).as("its row keeps what it would measure").isEqualTo(dataloader.getLast().detailType());
        assertThat(CpuDrill.measurements()).as("the CPU drill's measurements all stay in the report")
                .allSatisfy(t -> assertThat(Profile.Mode.FULL.cases(Earlier.NONE).pick(List.of(t))).singleElement().isSameAs(t));
    }
}
