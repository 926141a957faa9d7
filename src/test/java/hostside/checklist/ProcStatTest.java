package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;
import hostside.process.ProcStat;
import hostside.process.CpuTimes;

/** /proc/stat: per-CPU times in every column count kernels have had, the scheduler counters, garbage. */
class ProcStatTest {
    static final String DEV_VM = """
            cpu  1063092 0 298869 2926842 8269 0 8552 0 0 0
            cpu0 523088 0 139926 1483767 1211 0 4395 0 0 0
            cpu1 540004 0 158943 1443075 7058 0 4157 0 0 0
            intr 98765432 0 9 0 0 0 0 0 0 0 0 0 0 156 0 0 0
            ctxt 187654321
            btime 1764680000
            processes 28097
            procs_running 3
            procs_blocked 1
            softirq 12345678 0 4567 8 910 1112 0 1314 1516 0 1718
            """;

    @Test
    void theDevVmsStat() {
        ProcStat s = ProcStat.parse(DEV_VM);
        assertThat(s.all()).isEqualTo(new CpuTimes(1063092, 0, 298869, 2926842, 8269, 0, 8552, 0, 0, 0));
        assertThat(s.cpus()).containsOnlyKeys(0, 1);
        assertThat(s.cpus().get(1).iowait()).isEqualTo(7058);
        assertThat(s.contextSwitches()).isEqualTo(187654321L);
        assertThat(s.procsRunning()).isEqualTo(3L);
        assertThat(s.procsBlocked()).isEqualTo(1L);
    }

    @Test
    void guestTimeIsInsideUserAndCountedOnce() {
        CpuTimes t = ProcStat.parse("cpu  100 10 50 800 20 5 5 10 40 4\n").all();
        assertThat(t.total()).as("guest and guest_nice are already in user and nice").isEqualTo(1000);
        CpuTimes d = t.minus(ProcStat.parse("cpu  50 10 25 400 10 0 5 0 20 0\n").all());
        assertThat(d).isEqualTo(new CpuTimes(50, 0, 25, 400, 10, 5, 0, 10, 20, 4));
    }

    @Test
    void olderKernelsWithFewerColumnsReadAsZero() {
        // 2.6.24: no guest_nice; 2.6.10: no steal either
        assertThat(ProcStat.parse("cpu  1 2 3 4 5 6 7 8 9\n").all().guestNice()).isZero();
        CpuTimes old = ProcStat.parse("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n").all();
        assertThat(old.steal()).isZero();
        assertThat(old.total()).isEqualTo(28);
        assertThat(ProcStat.parse("cpu 1 2 3 4\n").contextSwitches()).isNull();
    }

    @Test
    void offlineCpusHaveNoLine() {
        assertThat(ProcStat.parse("cpu  4 0 4 8 0 0 0 0 0 0\ncpu0 2 0 2 4 0 0 0 0 0 0\ncpu3 2 0 2 4 0 0 0 0 0 0\n").cpus()).containsOnlyKeys(0, 3);
    }

    @Test
    void garbage() {
        for (String g : new String[] {"", "lots of words", "cpu0 1 2 3 4\n", "cpu 1 2 3\n", "cpu 1 2 x 4\n", "cpu 1 2 3 4\ncpux 1 2 3 4\n",
                "cpu 1 2 3 4\nctxt many\n", "cpu 1 2 3 -4\n"}) {
            assertThatThrownBy(() -> ProcStat.parse(g)).as(g).isInstanceOf(GarbageException.class).hasMessageStartingWith("not /proc/stat");
        }
    }
}
