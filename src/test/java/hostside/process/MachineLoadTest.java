package hostside.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.fs.FsRoot;

/**
 * The load before a drill: its figures from recorded /proc files (the dev VM under a hog, and
 * hand-made quiet and odd ones), and the rule that calls a machine busy.
 */
class MachineLoadTest {
    static final Path BUSY = Fixtures.testdata().resolve("load/busy-devvm");

    @TempDir
    Path tmp;

    static LoadCounters counters(Path machine) {
        return LoadCounters.read(FsRoot.open(machine.toString()));
    }

    @Test
    void theRecordedCountersParse() {
        LoadCounters b = counters(BUSY.resolve("before"));
        // cpu  1636654 0 461186 611495 22188 0 11525 0 0 0
        assertThat(b.busyTicks()).isEqualTo(1636654L + 461186 + 11525);
        assertThat(b.totalTicks()).isEqualTo(1636654L + 461186 + 611495 + 22188 + 11525);
        assertThat(b.stealTicks()).isZero();
        assertThat(b.cpus()).isEqualTo(2);
        assertThat(b.selfTicks()).as("utime 8 + stime 8").isEqualTo(16L);
        assertThat(b.psiSomeUs()).isEqualTo(7375308407L);
        assertThat(b.psiSomeAvg10()).isEqualTo(68.98);
        assertThat(b.load1()).isEqualTo(Double.parseDouble(first(BUSY.resolve("before/proc/loadavg"))));
        assertThat(b.procsRunning()).isPositive();
    }

    static String first(Path p) {
        try {
            return Files.readString(p).strip().split("\\s+")[0];
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theDevVmUnderAHogIsBusy() {
        // 46 ticks over 2 CPUs: 23 per CPU, no idle tick; 46 busy, of which this process's 1: others kept 45/23 CPUs busy
        MachineLoad l = MachineLoad.between(counters(BUSY.resolve("before")), counters(BUSY.resolve("after")), 230_000_000L);
        assertThat(l.othersCpus()).isCloseTo(45 / 23.0, within(1e-9));
        assertThat(l.stealCpus()).isZero();
        // 208706 us of "some" stall in 230 ms
        assertThat(l.psiSomeWindow()).isCloseTo(208706 / 230_000.0 * 100, within(1e-9));
        assertThat(l.psiSomeAvg10()).isEqualTo(68.98);
        assertThat(l.windowMs()).isEqualTo(230.0);
        assertThat(l.busyAboveCpus()).isEqualTo(0.25);
        assertThat(l.busy()).isTrue();
        assertThat(l.reasons()).containsExactly("other processes used 1.96 CPUs (more than 0.25)",
                "tasks waited for a CPU 91% of the time (PSI some, more than 10%)");
        assertThat(l.busyLine("vm")).isEqualTo("the machine was busy as the vm drill began: other processes used 1.96 CPUs (more than 0.25),"
                + " tasks waited for a CPU 91% of the time (PSI some, more than 10%) over 230 ms; its figures may be slower and noisier than this machine's best");
        assertThat(l.selfCpus()).isCloseTo(1 / 23.0, within(1e-9));
        assertThat(l.summary()).startsWith("busy: others 1.96 CPUs, hostside 0.04, CPU pressure 91%, ").endsWith(" (230 ms, 2 CPUs)");
    }

    static void copy(Path from, Path to) {
        try (var files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                Files.createDirectories(t.getParent());
                Files.copy(f, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A machine of {@code cpus} CPUs whose counters are given per field, in a temp dir. */
    Path machine(String name, String cpuLine, int cpus, String selfStat, String pressure) throws IOException {
        Path m = tmp.resolve(name);
        Files.createDirectories(m.resolve("proc/self"));
        StringBuilder stat = new StringBuilder(cpuLine + "\n");
        for (int i = 0; i < cpus; i++) stat.append("cpu").append(i).append(" 0 0 0 0 0 0 0 0 0 0\n");
        stat.append("intr 0\nctxt 0\nprocs_running 1\nprocs_blocked 0\n");
        Files.writeString(m.resolve("proc/stat"), stat.toString());
        Files.writeString(m.resolve("proc/self/stat"), selfStat);
        Files.writeString(m.resolve("proc/loadavg"), "0.05 0.10 0.12 1/300 4242\n");
        if (pressure != null) {
            Files.createDirectories(m.resolve("proc/pressure"));
            Files.writeString(m.resolve("proc/pressure/cpu"), pressure);
        }
        return m;
    }

    static String self(long utime, long stime) {
        // the command name may hold spaces and parentheses: fields count after the last ')'
        return "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 " + utime + " " + stime + " 0 0 20 0 30 0 100 1000 200 18446744073709551615\n";
    }

    static String psi(double avg10, long total) {
        return "some avg10=" + avg10 + " avg60=0.00 avg300=0.00 total=" + total + "\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
    }

    @Test
    void aQuietMachineWhereOnlyHostsideWorkedIsQuiet() throws IOException {
        // 2 CPUs, 20 ticks each (200 ms): 12 busy ticks, 11 of them this process's JIT and GC
        LoadCounters a = counters(machine("qa", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), psi(0.4, 5_000_000)));
        LoadCounters b = counters(machine("qb", "cpu  1010 0 502 8028 10 0 5 0 0 0", 2, self(309, 102), psi(0.4, 5_002_000)));
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.othersCpus()).isCloseTo(1 / 20.0, within(1e-9));
        assertThat(l.selfCpus()).as("others + self: the whole machine's 12 of 40 ticks").isCloseTo(11 / 20.0, within(1e-9));
        assertThat(l.psiSomeWindow()).isCloseTo(1.0, within(1e-9));
        assertThat(l.busy()).isFalse();
        assertThat(l.reasons()).isEmpty();
        assertThat(l.summary()).isEqualTo("quiet: others 0.05 CPUs, hostside 0.55, CPU pressure 1%, 1 runnable, load 0.05 (200 ms, 2 CPUs)");
    }

    @Test
    void othersAboveAQuarterOfACpuAreBusyOnASmallMachine() throws IOException {
        // 6 of 20 ticks per CPU by others: 0.30 CPUs; no PSI on this kernel
        LoadCounters a = counters(machine("sa", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), null));
        LoadCounters b = counters(machine("sb", "cpu  1006 0 500 8034 10 0 5 0 0 0", 2, self(300, 100), null));
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.othersCpus()).isCloseTo(0.30, within(1e-9));
        assertThat(l.psiSomeWindow()).isNull();
        assertThat(l.psiSomeAvg10()).isNull();
        assertThat(l.busy()).isTrue();
        // 5 ticks: exactly a quarter is not above it
        LoadCounters c = counters(machine("sc", "cpu  1005 0 500 8035 10 0 5 0 0 0", 2, self(300, 100), null));
        assertThat(MachineLoad.between(a, c, 200_000_000L).busy()).isFalse();
    }

    @Test
    void onALargeMachineTheLimitGrowsWithIt() {
        assertThat(MachineLoad.busyCpus(1)).isEqualTo(0.25);
        assertThat(MachineLoad.busyCpus(8)).isEqualTo(0.25);
        assertThat(MachineLoad.busyCpus(16)).isEqualTo(0.5);
        assertThat(MachineLoad.busyCpus(128)).isEqualTo(4.0);
    }

    @Test
    void onA128CpuMachineAgentsUsingAFewTenthsAreQuietButAHogPerCpuIsNot() throws IOException {
        // 128 CPUs x 20 ticks = 2560 ticks in the window
        LoadCounters a = counters(machine("la", "cpu  100000 0 50000 800000 0 0 0 0 0 0", 128, self(10, 10), psi(0.0, 0)));
        LoadCounters agents = counters(machine("lb", "cpu  100008 0 50000 802552 0 0 0 0 0 0", 128, self(10, 10), psi(0.0, 0)));
        assertThat(MachineLoad.between(a, agents, 200_000_000L).busy()).as("0.4 CPUs of 128").isFalse();
        LoadCounters hogs = counters(machine("lc", "cpu  100200 0 50000 802360 0 0 0 0 0 0", 128, self(10, 10), psi(0.0, 0)));
        MachineLoad l = MachineLoad.between(a, hogs, 200_000_000L);
        assertThat(l.othersCpus()).isCloseTo(10.0, within(1e-9));
        assertThat(l.busy()).isTrue();
    }

    @Test
    void tasksWaitingForACpuAreBusyWhateverTheCpuTime() throws IOException {
        // nobody else used CPU time worth naming, but something waited for a CPU 30 ms of 200
        LoadCounters a = counters(machine("pa", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), psi(12.0, 1_000_000)));
        LoadCounters b = counters(machine("pb", "cpu  1001 0 500 8039 10 0 5 0 0 0", 2, self(300, 100), psi(12.0, 1_030_000)));
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.psiSomeWindow()).isCloseTo(15.0, within(1e-9));
        assertThat(l.busy()).isTrue();
        assertThat(l.reasons()).containsExactly("tasks waited for a CPU 15% of the time (PSI some, more than 10%)");
        // avg10 alone (a previous drill's pressure decaying) is recorded, not judged
        LoadCounters c = counters(machine("pc", "cpu  1001 0 500 8039 10 0 5 0 0 0", 2, self(300, 100), psi(80.0, 1_000_000)));
        MachineLoad after = MachineLoad.between(a, c, 200_000_000L);
        assertThat(after.psiSomeAvg10()).isEqualTo(80.0);
        assertThat(after.busy()).isFalse();
    }

    @Test
    void stolenTimeIsBusyLikeOthersTime() throws IOException {
        // steal is the 8th field: the hypervisor took 8 of 20 ticks of one vCPU
        LoadCounters a = counters(machine("ta", "cpu  1000 0 500 8000 10 0 5 100 0 0", 2, self(300, 100), null));
        LoadCounters b = counters(machine("tb", "cpu  1000 0 500 8032 10 0 5 108 0 0", 2, self(300, 100), null));
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.stealCpus()).isCloseTo(0.4, within(1e-9));
        assertThat(l.othersCpus()).isZero();
        assertThat(l.busy()).isTrue();
        assertThat(l.reasons()).containsExactly("the hypervisor took 0.40 CPUs (steal, more than 0.25)");
    }

    @Test
    void thisProcessShowingATickMoreThanTheMachineIsNoNegativeLoad() throws IOException {
        LoadCounters a = counters(machine("na", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), null));
        LoadCounters b = counters(machine("nb", "cpu  1002 0 500 8038 10 0 5 0 0 0", 2, self(303, 100), null));
        assertThat(MachineLoad.between(a, b, 200_000_000L).othersCpus()).isZero();
    }

    @Test
    void garbledOrMissingCountersLeaveTheirFiguresNullAndTheLoadUnjudged() throws IOException {
        List<String> bad = new ArrayList<>(List.of("cpu  x 0 500", "cpu 1 2", "nothing here"));
        for (String line : bad) {
            LoadCounters a = counters(machine("g" + bad.indexOf(line), line, 2, "garbage", "some nonsense"));
            assertThat(a.busyTicks()).as(line).isNull();
            assertThat(a.selfTicks()).isNull();
            assertThat(a.psiSomeUs()).isNull();
            MachineLoad l = MachineLoad.between(a, a, 200_000_000L);
            assertThat(l.othersCpus()).isNull();
            assertThat(l.busy()).isFalse();
            assertThat(l.summary()).startsWith("not judged: others' CPU time not read");
        }
        // no time passed in the counters (a recording read twice): no window, no figure
        LoadCounters same = counters(BUSY.resolve("before"));
        assertThat(MachineLoad.between(same, same, 200_000_000L).othersCpus()).isNull();
    }

    @Test
    void anOldKernelsShortCpuLineReadsItsMissingFieldsAsZero() {
        CpuTimes v = ProcStat.parse("cpu  10 20 30 40\ncpu0 10 20 30 40\n").all();
        assertThat(v).isEqualTo(new CpuTimes(10, 20, 30, 40, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aBusyLoadIsSaidAtOnceAndAQuietOneIsNot() {
        List<String> said = new ArrayList<>();
        MachineLoad busy = new MachineLoad(200, 2, 1.0, 0.1, 0.0, 0.0, 0.0, 3, 1.0, 0.25, true, null);
        assertThat(MachineLoad.said("cpu", busy, said::add)).isSameAs(busy);
        assertThat(said).containsExactly(busy.busyLine("cpu"));
        assertThat(said.getFirst()).startsWith("the machine was busy as the cpu drill began: other processes used 1.00 CPUs (more than 0.25) over 200 ms");
        MachineLoad quiet = new MachineLoad(200, 2, 0.01, 0.1, 0.0, 0.0, 0.0, 1, 0.1, 0.25, false, null);
        MachineLoad.said("cpu", quiet, said::add);
        assertThat(said).hasSize(1);
    }

    @Test
    void itsJsonIsNumbersAndReadsBackEqual() throws Exception {
        MachineLoad l = MachineLoad.between(counters(BUSY.resolve("before")), counters(BUSY.resolve("after")), 230_000_000L);
        var n = Json.MAPPER.valueToTree(l);
        assertThat(n.get("othersCpus").isNumber()).isTrue();
        assertThat(n.get("busy").isBoolean()).isTrue();
        assertThat(n.has("reasons")).isFalse();
        assertThat(Json.MAPPER.treeToValue(n, MachineLoad.class)).isEqualTo(l);
    }

    /** {@code m} with its threads' schedstat lines (cpu_time run_delay timeslices), one per thread. */
    static Path threads(Path m, long... runDelayNs) throws IOException {
        for (int i = 0; i < runDelayNs.length; i++) {
            Path t = m.resolve("proc/self/task/" + (4242 + i));
            Files.createDirectories(t);
            Files.writeString(t.resolve("schedstat"), "123456789 " + runDelayNs[i] + " 42\n");
        }
        return m;
    }

    @Test
    void hostsidesOwnWaitsAreNotCountedAsOthers() throws IOException {
        // the JVM's start on 2 CPUs: PSI some 48 ms of a 200 ms window (24%), hostside's threads waited 60 ms between them
        LoadCounters a = counters(threads(machine("ja", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), psi(0.4, 5_000_000)), 1_000_000, 2_000_000));
        LoadCounters b = counters(threads(machine("jb", "cpu  1020 0 504 8012 10 0 5 0 0 0", 2, self(319, 104), psi(5.0, 5_048_000)), 31_000_000, 32_000_000));
        assertThat(a.selfWaitNs()).isEqualTo(3_000_000L);
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.psiSomeWindow()).isCloseTo(24.0, within(1e-9));
        assertThat(l.selfWaitPercent()).isCloseTo(30.0, within(1e-9));
        assertThat(MachineLoad.othersWaitPercent(l.psiSomeWindow(), l.selfWaitPercent())).isZero();
        assertThat(l.busy()).as("only hostside's own threads waited").isFalse();
        assertThat(l.summary()).contains("CPU pressure 24% (hostside's own waits 30%)");
    }

    @Test
    void othersWaitingBeyondHostsidesOwnIsBusy() throws IOException {
        // PSI some 40%, hostside's threads 10%: others' tasks waited 30% of the window at the least
        LoadCounters a = counters(threads(machine("oa", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), psi(0.4, 5_000_000)), 0));
        LoadCounters b = counters(threads(machine("ob", "cpu  1020 0 504 8012 10 0 5 0 0 0", 2, self(319, 104), psi(9.0, 5_080_000)), 20_000_000));
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.busy()).isTrue();
        assertThat(l.reasons()).containsExactly("other tasks waited for a CPU 30% of the time (PSI some 40% less hostside's own waits, more than 10%)");
    }

    @Test
    void withoutSchedstatPsiIsJudgedAsItIs() throws IOException {
        LoadCounters a = counters(machine("na", "cpu  1000 0 500 8000 10 0 5 0 0 0", 2, self(300, 100), psi(0.4, 5_000_000)));
        LoadCounters b = counters(machine("nb", "cpu  1020 0 504 8012 10 0 5 0 0 0", 2, self(319, 104), psi(5.0, 5_048_000)));
        assertThat(a.selfWaitNs()).isNull();
        MachineLoad l = MachineLoad.between(a, b, 200_000_000L);
        assertThat(l.selfWaitPercent()).isNull();
        assertThat(l.busy()).isTrue();
        assertThat(l.reasons()).containsExactly("tasks waited for a CPU 24% of the time (PSI some, more than 10%)");
    }
}
