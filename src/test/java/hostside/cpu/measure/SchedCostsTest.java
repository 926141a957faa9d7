package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.libc.Sched;

/** The scheduler measurements run and clean up; their figures are not judged (machines are noisy). */
class SchedCostsTest {
    static CpuTarget target() {
        List<Integer> cpus = Sched.affinity();
        return new CpuTarget(cpus, cpus, null, 1000, 100_000);
    }

    @Test
    void pingPongCompletesEveryRoundOnOneCpuAndOnTwo() {
        List<Integer> cpus = Sched.affinity();
        assertThat(SchedCosts.pingPong(cpus.getFirst(), cpus.getFirst(), 200)).isPositive();
        if (cpus.size() > 1) assertThat(SchedCosts.pingPong(cpus.get(0), cpus.get(1), 200)).isPositive();
    }

    @Test
    void aRoundCountThatIsNoMultipleOfTheChunkStillPairsEveryHandOver() {
        // a side that made one hand-over less would leave the other waiting: runPair would throw after its time-out
        int cpu = Sched.affinity().getFirst();
        assertThat(SchedCosts.pingPong(cpu, cpu, 3 * SchedCosts.CHUNK + 7)).isPositive();
        assertThat(SchedCosts.pingPong(cpu, cpu, 1)).isPositive();
    }

    @Test
    void everyWakeupIsMeasured() {
        List<Integer> cpus = Sched.affinity();
        long[] lat = SchedCosts.wakeups(cpus.getFirst(), cpus.getLast(), 50);
        assertThat(lat).hasSize(50);
        assertThat(java.util.Arrays.stream(lat).min().orElseThrow()).isPositive();
    }

    @Test
    void theCallersAffinityIsLeftAlone() {
        List<Integer> before = Sched.affinity();
        for (var t : List.of(new SchedCosts.Migration(200), new SchedCosts.PingPong(true, 200))) {
            if (t.notApplicable(target()).isPresent()) continue;
            Result r = t.run(target());
            assertThat(r.isOk()).isTrue();
        }
        assertThat(Sched.affinity()).isEqualTo(before);
    }

    @Test
    void migrationLandsOnTheTargetCpu() {
        CpuTarget t = target();
        if (!t.twoCpus()) return;
        Result r = new SchedCosts.Migration(500).run(t);
        SchedCosts.Migration.Detail d = (SchedCosts.Migration.Detail) r.detail();
        assertThat(d.notOnTargetAfterCall()).isZero();
        assertThat(d.cpus()).isEqualTo(CpuSet.of(t.cpus().get(0), t.cpus().get(1)));
        assertThat(d.movesPerSample()).isEqualTo(500);
    }

    @Test
    void theSyscallFigureCarriesTheCallsOwnCost() {
        Result r = new SchedCosts.Syscall(20_000).run(target());
        assertThat(r.unit()).isEqualTo(Unit.of("ns"));
        SchedCosts.Syscall.Detail d = (SchedCosts.Syscall.Detail) r.detail();
        assertThat(d.nativeCallNs()).isPositive().isLessThan(r.value().median());
        assertThat(d.kernelNs()).isEqualTo(r.value().median() - d.nativeCallNs());
        assertThat(d.callsPerSample()).isEqualTo(20_000);
        assertThat(r.value().samples()).as("the warm-ups are not kept").isBetween(SchedCosts.SAMPLES, SchedCosts.MOST_SAMPLES);
        assertThat(r.anchor()).as("the C loop it matches").isEqualTo("refs syscall (getppid by syscall(2) in a C loop)");
        assertThat(r.method()).contains("critical");
    }

    @Test
    void bothLoopsOfASyscallSampleRun() {
        SchedCosts.Syscall.Sample s = SchedCosts.Syscall.sample(1000);
        assertThat(s.syscallNs()).isPositive();
        assertThat(s.callNs()).isPositive();
    }

    @Test
    void thePingPongsNameTheCReferenceOnTheirCpus() {
        assertThat(new SchedCosts.PingPong(true, 10).anchor()).startsWith("refs pingpong futex A A");
        assertThat(new SchedCosts.PingPong(false, 10).anchor()).startsWith("refs pingpong futex A B");
    }

    @Test
    void oneCpuRulesOutTheCrossCpuCases() {
        CpuTarget one = new CpuTarget(List.of(0), List.of(0), null, 1000, 100_000);
        assertThat(new SchedCosts.PingPong(false, 10).notApplicable(one)).hasValue("this process may run on one CPU only");
        assertThat(new SchedCosts.Wakeup(10).notApplicable(one)).isPresent();
        assertThat(new SchedCosts.Migration(10).notApplicable(one)).isPresent();
        assertThat(new SchedCosts.PingPong(true, 10).notApplicable(one)).isEmpty();
    }
}
