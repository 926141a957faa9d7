package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.cpu.measure.LaunchJitter;
import hostside.harness.Result;

/** The typed figures of a hand-built run: every key with its scope, unit, direction and value. */
class CpuFiguresTest {
    static final CpuRun RUN = Runs.full();

    static Map<String, Figure> byKey(CpuRun run) {
        return run.figures().stream().collect(Collectors.toMap(Figure::key, Function.identity(), (a, b) -> {
            throw new AssertionError("two figures " + a.key());
        }, java.util.LinkedHashMap::new));
    }

    @Test
    void everyResultAndTheHeadlinesInsideTheDetails() {
        assertThat(byKey(RUN).keySet()).containsExactly(
                "syscall_getppid", "syscall_getppid_kernel",
                "context_switch_same_core", "context_switch_cross_core", "futex_wakeup_cross_core", "thread_migration",
                "timer_jitter_quiet", "timer_jitter_quiet_p99", "timer_jitter_quiet_p999", "timer_jitter_quiet_missed_ticks", "timer_jitter_quiet_missed_count",
                "timer_jitter_noisy", "timer_jitter_noisy_p99", "timer_jitter_noisy_p999", "timer_jitter_noisy_missed_ticks", "timer_jitter_noisy_missed_count",
                "launch_jitter_quiet", "launch_jitter_quiet_p99", "launch_jitter_quiet_p999", "launch_jitter_quiet_missed_ticks", "launch_jitter_quiet_missed_count",
                "launch_jitter_quiet_launch_p50", "launch_jitter_quiet_launch_p99",
                "launch_jitter_noisy", "launch_jitter_noisy_p99", "launch_jitter_noisy_p999", "launch_jitter_noisy_missed_ticks", "launch_jitter_noisy_missed_count",
                "launch_jitter_noisy_launch_p50", "launch_jitter_noisy_launch_p99",
                "launch_jitter_pinned", "launch_jitter_pinned_p99", "launch_jitter_pinned_p999", "launch_jitter_pinned_missed_ticks", "launch_jitter_pinned_missed_count",
                "launch_jitter_pinned_launch_p50", "launch_jitter_pinned_launch_p99",
                "launch_jitter_graph", "launch_jitter_graph_p99", "launch_jitter_graph_p999", "launch_jitter_graph_missed_ticks", "launch_jitter_graph_missed_count",
                "launch_jitter_graph_launch_p50", "launch_jitter_graph_launch_p99",
                "dataloader_cow_list", "dataloader_cow_array", "fork_vs_spawn_cuda");
    }

    @Test
    void scopesUnitsAndValues() {
        Map<String, Figure> f = byKey(RUN);
        assertThat(f.get("syscall_getppid")).extracting(Figure::scope, Figure::unit, Figure::value, Figure::min, Figure::max, Figure::samples)
                .containsExactly(Scope.MACHINE, Unit.NS, 150.8, 144.4, 156.6, 7);
        assertThat(f.get("syscall_getppid").anchor()).as("the whole call, as the C loop makes it").isEqualTo("refs syscall (getppid by syscall(2) in a C loop)");
        assertThat(f.get("syscall_getppid_kernel")).extracting(Figure::unit, Figure::value, Figure::samples, Figure::anchor)
                .as("the kernel's share alone: no peer measures it").containsExactly(Unit.NS, 139.2, 7, null);
        assertThat(f.get("context_switch_same_core").scope()).as("pinned to one CPU").isEqualTo(Scope.parse("cpu:0"));
        assertThat(f.get("context_switch_cross_core").scope()).as("the pinned pair").isEqualTo(Scope.parse("cpu:0-1"));
        assertThat(f.get("futex_wakeup_cross_core").scope()).isEqualTo(Scope.parse("cpu:0-1"));
        assertThat(f.get("thread_migration").scope()).isEqualTo(Scope.parse("cpu:0-1"));
        assertThat(f.get("thread_migration").value()).isEqualTo(11875.4);

        assertThat(f.get("launch_jitter_noisy")).extracting(Figure::scope, Figure::unit, Figure::value, Figure::samples, Figure::anchor)
                .as("no peer times a launch").containsExactly(Scope.MACHINE, Unit.US, 55.071, 20_000, null);
        for (String k : List.of("", "_p99", "_p999", "_missed_ticks", "_missed_count")) {
            assertThat(f.get("timer_jitter_noisy" + k).anchor()).as(k).isEqualTo("refs timer: cyclictest's loop without SCHED_FIFO");
        }
        assertThat(f.get("timer_jitter_noisy_p99").value()).isEqualTo(61.759);
        assertThat(f.get("timer_jitter_noisy_p999").value()).isEqualTo(76.031);
        assertThat(f.get("timer_jitter_noisy_missed_count")).as("refs timer's count").extracting(Figure::unit, Figure::value, Figure::samples)
                .containsExactly(Unit.COUNT, 38.0, 20_038);
        assertThat(f.get("launch_jitter_noisy_missed_count").value()).isEqualTo(451.0);
        assertThat(f.get("launch_jitter_noisy_p99").value()).isEqualTo(56.831);
        assertThat(f.get("launch_jitter_noisy_p999").value()).isEqualTo(96.319);
        assertThat(f.get("launch_jitter_noisy_missed_ticks")).extracting(Figure::unit, Figure::samples).containsExactly(Unit.PERCENT, 20_451);
        assertThat(f.get("launch_jitter_noisy_missed_ticks").value()).isCloseTo(100.0 * 451 / 20_451, within(1e-9));
        assertThat(f.get("launch_jitter_quiet_p99").samples()).as("the count the distribution holds").isEqualTo(20_000);
        assertThat(f.get("launch_jitter_graph_launch_p50").value()).isEqualTo(2.739);
        assertThat(f.get("launch_jitter_pinned_launch_p99").value()).isEqualTo(12.775);
        for (String k : List.of("_p99", "_p999", "_missed_ticks", "_missed_count", "_launch_p50")) {
            Figure x = f.get("launch_jitter_pinned" + k);
            assertThat(x.min()).as(k + ": one number, its own min and max").isEqualTo(x.value()).isEqualTo(x.max());
            assertThat(x.scope()).isEqualTo(Scope.MACHINE);
            assertThat(x.anchor()).isNull();
        }

        assertThat(f.get("dataloader_cow_list")).extracting(Figure::scope, Figure::unit, Figure::value).containsExactly(Scope.MACHINE, Unit.PERCENT, 94.1);
        assertThat(f.get("fork_vs_spawn_cuda")).extracting(Figure::unit, Figure::value, Figure::min, Figure::max).containsExactly(Unit.S, 3.679, 3.2059, 3.8064);
        assertThat(RUN.figures()).as("every Module 3 figure is better lower").extracting(Figure::better).containsOnly(Better.LOWER);
    }

    @Test
    void withoutAGpuThereIsNoLaunchTimeAndWhatDidNotRunHasNoFigure() {
        var quiet = new Runs.Jitter().result("timer_jitter_quiet", 20_000);
        var failed = Result.failed(new LaunchJitter(LaunchJitter.Condition.TIMER_NOISY), "boom");
        var noGpu = Result.notRun(new LaunchJitter(LaunchJitter.Condition.QUIET), "no GPU to launch on");
        CpuRun run = new CpuRun(RUN.machine(), RUN.facts(), List.of(), new CpuDrill.Measured(List.of(quiet, failed, noGpu), "", "no NVIDIA driver"), List.of(),
                List.of());
        assertThat(run.figures()).extracting(Figure::key)
                .containsExactly("timer_jitter_quiet", "timer_jitter_quiet_p99", "timer_jitter_quiet_p999", "timer_jitter_quiet_missed_ticks",
                        "timer_jitter_quiet_missed_count");
        assertThat(byKey(run).get("timer_jitter_quiet_missed_ticks").value()).isZero();
        assertThat(byKey(run).get("timer_jitter_quiet_missed_count").value()).isZero();
    }

    @Test
    void theJsonListsTheFiguresFlat() {
        JsonNode figures = RUN.json().path("figures");
        assertThat(figures).hasSize(RUN.figures().size());
        JsonNode p99 = figures.get(24);
        assertThat(p99.path("key").asText()).isEqualTo("launch_jitter_noisy_p99");
        assertThat(p99.path("scope").asText()).isEqualTo("machine");
        assertThat(p99.path("unit").asText()).isEqualTo("us");
        assertThat(p99.path("better").asText()).isEqualTo("lower");
        assertThat(p99.path("value").asDouble()).isEqualTo(56.831);
        assertThat(figures.get(3).path("scope").asText()).isEqualTo("cpu:0-1");
    }
}
