package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;
import hostside.process.ProcStatus;
import hostside.process.TaskStat;
import hostside.process.TaskState;

/** /proc/PID/stat and a thread's, comm with spaces and parentheses, old kernels, garbage; /proc/PID/status and /proc/PID/io. */
class TaskStatTest {
    static final String CAT = "8042 (cat) R 8040 8040 25536 0 -1 4194304 102 0 3 0 7 2 0 0 20 0 1 0 2274066 3133440 416 "
            + "18446744073709551615 93985530834944 93985530854825 140722845924608 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 "
            + "93985530870832 93985530872448 93985909190656 140722845927966 140722845927986 140722845927986 140722845929451 0\n";

    @Test
    void aRealStatLine() {
        TaskStat s = TaskStat.parse(CAT);
        assertThat(s.pid()).isEqualTo(8042);
        assertThat(s.comm()).isEqualTo("cat");
        assertThat(s.state()).isEqualTo(TaskState.RUNNING);
        assertThat(s.ppid()).isEqualTo(8040);
        assertThat(s.minflt()).isEqualTo(102);
        assertThat(s.majflt()).isEqualTo(3);
        assertThat(s.utime()).isEqualTo(7);
        assertThat(s.stime()).isEqualTo(2);
        assertThat(s.cpuTicks()).isEqualTo(9);
        assertThat(s.threads()).isEqualTo(1);
        assertThat(s.startTime()).isEqualTo(2274066);
        assertThat(s.processor()).isEqualTo(1);
        assertThat(s.exited()).isFalse();
    }

    @Test
    void aCommWithSpacesAndParenthesesEndsAtTheLastParenthesis() {
        // prctl(PR_SET_NAME) takes any 15 bytes: PyTorch's "pt_data_worker", or a hostile ") S 1 (x"
        TaskStat s = TaskStat.parse(CAT.replace("(cat) R", "(py (worker) 2) S"));
        assertThat(s.comm()).isEqualTo("py (worker) 2");
        assertThat(s.state()).isEqualTo(TaskState.SLEEPING);
        assertThat(s.processor()).isEqualTo(1);
        TaskStat evil = TaskStat.parse(CAT.replace("(cat) R", "() R 1 () S"));
        assertThat(evil.comm()).isEqualTo(") R 1 (");
        assertThat(evil.state()).isEqualTo(TaskState.SLEEPING);
        assertThat(TaskStat.parse(CAT.replace("(cat) R", "() R")).comm()).isEmpty();
    }

    @Test
    void zombiesAndDeadTasksHaveExited() {
        assertThat(TaskStat.parse(CAT.replace("(cat) R", "(cat) Z")).exited()).isTrue();
        assertThat(TaskStat.parse(CAT.replace("(cat) R", "(cat) X")).exited()).isTrue();
        assertThat(TaskStat.parse(CAT.replace("(cat) R", "(cat) D")).exited()).isFalse();
    }

    @Test
    void aKernelTooOldForFieldThirtyNineHasNoProcessor() {
        String[] f = CAT.strip().split(" ");
        String short36 = String.join(" ", java.util.Arrays.copyOf(f, 36));
        assertThat(TaskStat.parse(short36).processor()).isNull();
        assertThat(TaskStat.parse(short36).cpuTicks()).isEqualTo(9);
    }

    @Test
    void garbage() {
        for (String g : new String[] {"", "cat", "8042 cat R 1 2 3", "8042 (cat) R 8040", "x (cat) " + CAT.substring(CAT.indexOf(')') + 2),
                CAT.replace("(cat) R", "(cat) RR"), CAT.replace(" 102 ", " -102 "), CAT.replace(" 17 1 0 0", " 17 x 0 0"), "(cat)" + CAT}) {
            assertThatThrownBy(() -> TaskStat.parse(g)).as(g).isInstanceOf(GarbageException.class).hasMessageStartingWith("not a /proc stat line");
        }
    }

    @Test
    void statusFields() {
        ProcStatus s = ProcStatus.parse("""
                Name:	pt_data_worker
                State:	D (disk sleep)
                Tgid:	8043
                Threads:	1
                VmRSS:	    1772 kB
                Cpus_allowed_list:	0-1,4
                voluntary_ctxt_switches:	150
                nonvoluntary_ctxt_switches:	7
                """);
        assertThat(s.state()).contains("D (disk sleep)");
        assertThat(s.voluntarySwitches()).isEqualTo(150L);
        assertThat(s.involuntarySwitches()).isEqualTo(7L);
        assertThat(s.bytes("VmRSS")).isEqualTo(1772L * 1024);
        assertThat(s.cpusAllowed()).contains("0-1,4");
        assertThat(s.count("Threads")).isEqualTo(1L);
        assertThat(s.count("VmHWM")).isNull();
        assertThat(ProcStatus.parse("Name:\tx\nvoluntary_ctxt_switches:\tmany\n").voluntarySwitches()).as("garbled: unknown").isNull();
        assertThatThrownBy(() -> ProcStatus.parse("rchar: 5\n")).isInstanceOf(GarbageException.class);
        assertThatThrownBy(() -> ProcStatus.parse("")).isInstanceOf(GarbageException.class);
    }

    @Test
    void moreKibThan2To63BytesIsUnknownNotWrappedNegative() {
        ProcStatus s = ProcStatus.parse("Name:\tx\nVmRSS:\t9007199254740992 kB\nVmHWM:\t9007199254740991 kB\n");
        assertThat(s.bytes("VmRSS")).isNull();
        assertThat(s.bytes("VmHWM")).isEqualTo(9007199254740991L * 1024);
    }

    @Test
    void ioCounters() {
        ProcIo io = ProcIo.parse("rchar: 6976\nwchar: 10\nsyscr: 10\nsyscw: 1\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n");
        assertThat(io).isEqualTo(new ProcIo(6976, 10, 10, 1, 4096, 8192, 0));
        assertThatThrownBy(() -> ProcIo.parse("rchar: 6976\nwchar: 10\n")).isInstanceOf(GarbageException.class).hasMessageContaining("syscr");
        assertThatThrownBy(() -> ProcIo.parse("Name:\tcat\n")).isInstanceOf(GarbageException.class);
    }
}
