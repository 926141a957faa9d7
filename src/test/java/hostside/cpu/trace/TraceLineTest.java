package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** One line of {@code strace -f -tt -T} at a time, the tricky ones included. */
class TraceLineTest {
    static TraceLine.Call call(String line) {
        TraceLine l = TraceLine.parse(line);
        assertThat(l).as(line).isInstanceOf(TraceLine.Call.class);
        return (TraceLine.Call) l;
    }

    @Test
    void plainCallWithPidTimeAndDuration() {
        TraceLine.Call c = call("20411 15:28:02.063033 futex(0x7f919174e6f8, FUTEX_WAKE_PRIVATE, 1) = 0 <0.000029>");
        assertThat(c.pid()).isEqualTo(20411);
        assertThat(c.time()).isCloseTo(15 * 3600 + 28 * 60 + 2.063033, within(1e-6));
        assertThat(c.name()).isEqualTo("futex");
        assertThat(c.args()).isEqualTo("0x7f919174e6f8, FUTEX_WAKE_PRIVATE, 1");
        assertThat(c.ret()).isEqualTo("0");
        assertThat(c.errno()).isEmpty();
        assertThat(c.duration()).isCloseTo(0.000029, within(1e-9));
    }

    @Test
    void paddedReturnAndErrno() {
        TraceLine.Call c = call("20541 15:28:05.420486 access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory) <0.000032>");
        assertThat(c.ret()).isEqualTo("-1");
        assertThat(c.errno()).isEqualTo("ENOENT");
        assertThat(call("20541 15:28:05.419632 brk(NULL)         = 0x55d4dec90000 <0.000090>").ret()).isEqualTo("0x55d4dec90000");
    }

    @Test
    void stringsHoldingParenthesesEqualsSignsAndEscapedQuotes() {
        TraceLine.Call c = call("7 12:00:00.000001 write(1, \"done) = 3 \\\"quoted\\\"\\n\\ttab\", 18) = 18 <0.000027>");
        assertThat(c.args()).isEqualTo("1, \"done) = 3 \\\"quoted\\\"\\n\\ttab\", 18");
        assertThat(c.ret()).isEqualTo("18");
        assertThat(Args.firstString(c.args())).contains("done) = 3 \"quoted\"\n\ttab");
    }

    @Test
    void truncatedStringArgument() {
        TraceLine.Call c = call("20411 15:28:02.045852 read(4, \"-----BEGIN CERTIFICATE-----\\nMIID\"..., 1169) = 1168 <0.000024>");
        assertThat(Args.split(c.args())).hasSize(3);
        assertThat(c.ret()).isEqualTo("1168");
    }

    @Test
    void unfinishedAndResumedHalves() {
        TraceLine u = TraceLine.parse("20411 15:28:02.061635 futex(0x5599ecd5f9a0, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, NULL, FUTEX_BITSET_MATCH_ANY <unfinished ...>");
        assertThat(u).isEqualTo(new TraceLine.Unfinished(20411, u.time(), "futex",
                "0x5599ecd5f9a0, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, NULL, FUTEX_BITSET_MATCH_ANY"));
        TraceLine r = TraceLine.parse("20196 15:27:58.071087 <... read resumed>\"/usr/bin/readlink\\n\", 4096) = 18 <0.009659>");
        assertThat(r).isInstanceOf(TraceLine.Resumed.class);
        TraceLine.Resumed res = (TraceLine.Resumed) r;
        assertThat(res.name()).isEqualTo("read");
        assertThat(res.args()).isEqualTo("\"/usr/bin/readlink\\n\", 4096");
        assertThat(res.ret()).isEqualTo("18");
        assertThat(res.duration()).isCloseTo(0.009659, within(1e-9));
        // an unfinished first half that ends in ", " keeps its arguments without the comma
        TraceLine u2 = TraceLine.parse("20196 15:27:58.061414 read(3,  <unfinished ...>");
        assertThat(((TraceLine.Unfinished) u2).args()).isEqualTo("3");
    }

    @Test
    void resumedCallOfAThreadKilledMeanwhile() {
        TraceLine r = TraceLine.parse("31938 15:42:04.736199 <... clock_nanosleep resumed> <unfinished ...>) = ?");
        assertThat(r).isInstanceOf(TraceLine.Resumed.class);
        assertThat(((TraceLine.Resumed) r).ret()).isEqualTo("?");
        assertThat(((TraceLine.Resumed) r).duration()).isNaN();
    }

    @Test
    void callsThatNeverReturnAndUnavailableDurations() {
        TraceLine.Call exit = call("20411 15:28:02.111517 exit_group(0)     = ?");
        assertThat(exit.ret()).isEqualTo("?");
        assertThat(exit.duration()).isNaN();
        TraceLine.Call un = call("5 10:00:00.000000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL) = ? <unavailable>");
        assertThat(un.duration()).isNaN();
        TraceLine.Call restart = call("5 10:00:00.000000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL) = ? ERESTARTSYS (To be restarted if SA_RESTART is set) <1.000021>");
        assertThat(restart.errno()).isEqualTo("ERESTARTSYS");
        assertThat(restart.duration()).isCloseTo(1.000021, within(1e-9));
    }

    @Test
    void signalsAndExits() {
        assertThat(TraceLine.parse("20196 15:27:58.073507 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=20206, si_uid=0, si_status=0} ---"))
                .isInstanceOf(TraceLine.Signal.class).extracting(l -> ((TraceLine.Signal) l).signal()).isEqualTo("SIGCHLD");
        assertThat(TraceLine.parse("5 10:00:00.1 --- stopped by SIGSTOP ---")).extracting(l -> ((TraceLine.Signal) l).signal()).isEqualTo("SIGSTOP");
        assertThat(TraceLine.parse("20413 15:28:02.098968 +++ exited with 0 +++")).isEqualTo(
                new TraceLine.Exit(20413, TraceLine.parseTime("15:28:02.098968"), "exited with 0"));
        assertThat(((TraceLine.Exit) TraceLine.parse("31938 15:42:04.738059 +++ killed by SIGKILL +++")).how()).isEqualTo("killed by SIGKILL");
        assertThat(((TraceLine.Exit) TraceLine.parse("9 10:00:00.1 +++ killed by SIGSEGV (core dumped) +++")).how()).isEqualTo("killed by SIGSEGV (core dumped)");
    }

    @Test
    void otherPrefixesAndTimeFormats() {
        TraceLine.Call noPid = call("15:28:05.463272 brk(NULL)               = 0x55da2dd83000 <0.000089>");
        assertThat(noPid.pid()).isZero();
        assertThat(noPid.time()).isCloseTo(15 * 3600 + 28 * 60 + 5.463272, within(1e-6));
        TraceLine.Call bracket = call("[pid  4242] 10:00:00.000001 getpid() = 4242 <0.000001>");
        assertThat(bracket.pid()).isEqualTo(4242);
        TraceLine.Call epoch = call("4242 1701530882.123456 getpid() = 4242 <0.000001>");
        assertThat(epoch.time()).isCloseTo(1701530882.123456, within(1e-6));
        TraceLine.Call bare = call("getpid() = 4242");
        assertThat(bare.pid()).isZero();
        assertThat(bare.time()).isNaN();
    }

    @Test
    void straceDashYAnnotations() {
        TraceLine.Call c = call("5 10:00:00.000001 openat(AT_FDCWD, \"/dev/nvidiactl\", O_RDWR) = 5</dev/nvidiactl> <0.000010>");
        assertThat(c.ret()).isEqualTo("5</dev/nvidiactl>");
        assertThat(Args.number(c.ret())).hasValue(5);
        assertThat(c.duration()).isCloseTo(0.00001, within(1e-9));
        assertThat(Args.fdPath("5</dev/nvidia0>")).contains("/dev/nvidia0");
        assertThat(Args.fd("5</dev/nvidia0>")).hasValue(5);
        assertThat(Args.fd("AT_FDCWD")).isEmpty();
    }

    @Test
    void detachedCall() {
        TraceLine d = TraceLine.parse("4242 10:00:04.000000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL <detached ...>");
        assertThat(d).isEqualTo(new TraceLine.Detached(4242, d.time(), "futex", "0x1, FUTEX_WAIT_PRIVATE, 0, NULL"));
    }

    @Test
    void garbageAndCutLinesNeverThrow() {
        for (String s : new String[] {"", "   ", "hello world", "20411 15:28:02.06", "20411 15:28:02.063033 futex(0x7f919174e6f8, FUTEX_WA",
                "20411 15:28:02.063033 write(1, \"never closed", "20411 15:28:02.063033 read(3) 18", "20411 15:28:02.063033 read(3) =",
                "20411 99:99:99.000000 read(3) = 1", "[pid 12", "[pid abc] read(3) = 1", "<... read resumed", "\u0000\u0001\u0002(",
                "12345678901234 read(3) = 1"}) {
            assertThat(TraceLine.parse(s)).as(s).isInstanceOfAny(TraceLine.Garbage.class, TraceLine.Call.class);
        }
        assertThat(TraceLine.parse("20411 15:28:02.063033 futex(0x7f919174e6f8, FUTEX_WA")).isInstanceOf(TraceLine.Garbage.class);
        assertThat(TraceLine.parse("20411 15:28:02.063033 write(1, \"never closed")).isInstanceOf(TraceLine.Garbage.class);
    }

    @Test
    void restartedSyscall() {
        TraceLine.Call c = call("4242 10:00:00.5 restart_syscall(<... resuming interrupted futex ...>) = 0 <0.250000>");
        assertThat(c.name()).isEqualTo("restart_syscall");
        assertThat(SyscallGroup.of(c.name(), c.args(), SyscallGroup.FdLookup.NONE)).isEqualTo(SyscallGroup.FUTEX_WAIT);
        TraceLine.Call sleep = call("4242 10:00:00.5 restart_syscall(<... resuming interrupted clock_nanosleep ...>) = 0 <0.250000>");
        assertThat(SyscallGroup.of(sleep.name(), sleep.args(), SyscallGroup.FdLookup.NONE)).isEqualTo(SyscallGroup.POLL);
    }
}
