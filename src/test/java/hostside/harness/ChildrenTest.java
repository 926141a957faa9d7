package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Children: each helper in its own process group, killed with everything below it on close,
 * alive as long as hostside whatever thread started it, and gone when hostside is SIGKILLed.
 * Real processes; util-linux's setsid and setpriv are installed here and in CI.
 */
class ChildrenTest {
    @TempDir
    Path dir;

    @Test
    void setsidAndSetprivAreUsedHere() {
        // CI and the development machines have util-linux 2.33 or newer: anything less is a regression of the setup
        assertThat(Children.wrap()).isEqualTo(Children.Wrap.FULL);
        assertThat(Children.note()).isEmpty();
    }

    @Test
    void closeKillsAnOrphanNeverNoted() throws Exception {
        // the shell exits at once, leaving its background sleep to init: no descendants() finds it any more
        Child c = Children.start(new ProcessBuilder("/bin/sh", "-c", "sleep 300 & echo $!").redirectError(ProcessBuilder.Redirect.DISCARD));
        long orphan;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(c.process().getInputStream(), StandardCharsets.US_ASCII))) {
            orphan = Long.parseLong(r.readLine().strip());
        }
        assertThat(c.process().waitFor(30, TimeUnit.SECONDS)).as("the shell exits").isTrue();
        assertThat(Child.running(ProcessHandle.of(orphan).orElseThrow())).as("its sleep runs on, orphaned").isTrue();
        c.close();
        assertThat(gone(orphan)).as("the orphan is killed with the child's group").isTrue();
    }

    @Test
    void closeKillsTheChildAndWhatItStarted() throws Exception {
        Child c = Children.start(new ProcessBuilder("/bin/sh", "-c", "sleep 300 & sleep 300 & wait"));
        List<ProcessHandle> below = waitForDescendants(c, 2);
        c.close();
        assertThat(c.process().isAlive()).isFalse();
        for (ProcessHandle h : below) assertThat(Child.running(h)).as(h.pid() + " is gone").isFalse();
    }

    @Test
    void aChildOutlivesTheThreadThatStartedIt() throws Exception {
        // PR_SET_PDEATHSIG follows the parent thread: started from a thread that ends, a child would be killed with it
        Child[] started = new Child[1];
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                started[0] = Children.start(new ProcessBuilder("sleep", "300"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        t.join();
        try {
            assertThat(started[0]).isNotNull();
            assertThat(started[0].process().waitFor(1, TimeUnit.SECONDS)).as("the child still runs after its starting thread ended").isFalse();
        } finally {
            started[0].close();
        }
    }

    @Test
    void afterCloseNoChildOfTheJvmIsLeft() throws Exception {
        Child a = Children.start(new ProcessBuilder("sleep", "300"));
        Child b = Children.start(new ProcessBuilder("/bin/sh", "-c", "exit 3"));
        long watchdog = Children.watchdogPid();
        assertThat(watchdog).as("a watchdog runs while children do").isPositive();
        assertThat(b.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        a.close();
        b.close();
        assertThat(Children.open()).isEmpty();
        assertThat(Children.watchdogPid()).as("the watchdog stops with the last child").isEqualTo(-1);
        // children(): the JVM's own, zombies included; none is left, so each was reaped
        assertThat(ProcessHandle.current().children().filter(h -> h.pid() == watchdog || h.pid() == a.pid() || h.pid() == b.pid()).toList())
                .isEmpty();
        assertThat(b.process().exitValue()).isEqualTo(3);
    }

    @Test
    void aMissingProgramIsAnIOExceptionAsWithoutTheWrapper() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Children.start(new ProcessBuilder("no-such-program-here", "x")))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("no-such-program-here");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Children.start(new ProcessBuilder("/no/such/program")))
                .isInstanceOf(java.io.IOException.class);
        assertThat(Children.open()).isEmpty();
    }

    @Test
    void childrenGetTheParentPidTheyMustHave() throws Exception {
        Child c = Children.start(new ProcessBuilder("/bin/sh", "-c", "echo $" + Children.PARENT_ENV + " $PPID"));
        String line;
        try (c; BufferedReader r = new BufferedReader(new InputStreamReader(c.process().getInputStream(), StandardCharsets.US_ASCII))) {
            line = r.readLine();
        }
        String me = Long.toString(ProcessHandle.current().pid());
        assertThat(line).as("HOSTSIDE_PARENT_PID and the shell's parent, the same: setsid and setpriv exec in place").isEqualTo(me + " " + me);
    }

    /** Fields 5 and 6 of /proc/PID/stat: the process group and the session. */
    private static List<String> groupAndSession(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return List.of(f[2], f[3]);
    }

    @Test
    void aChildInHostsidesSessionSharesItsGroupAndIsKilledOnClose() throws Exception {
        Child own = Children.start(new ProcessBuilder("sleep", "300"));
        Child in = Children.startInSession(new ProcessBuilder("sleep", "300"));
        try {
            List<String> me = groupAndSession(ProcessHandle.current().pid());
            assertThat(groupAndSession(in.pid())).as("hostside's group and session: one scheduling autogroup with it").isEqualTo(me);
            assertThat(in.ownGroup()).isFalse();
            assertThat(groupAndSession(own.pid())).as("a plain child leads a session of its own").containsExactly(Long.toString(own.pid()),
                    Long.toString(own.pid()));
            assertThat(Children.open()).contains(in, own);
        } finally {
            in.close();
            own.close();
        }
        assertThat(in.process().isAlive()).isFalse();
        assertThat(Children.open()).doesNotContain(in, own);
    }

    @Test
    void sigkillOfHostsideKillsChildAndGrandchildren() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ChildrenHolder.class.getName()).redirectError(new File(dir.toFile(), "stderr.txt")).start();
        List<Long> pids = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.US_ASCII));
            String line = out.readLine();
            assertThat(line).as("the JVM reports its processes; stderr: " + Files.readString(dir.resolve("stderr.txt"))).startsWith("running ");
            for (String p : line.substring("running ".length()).split(" ")) pids.add(Long.parseLong(p));
            assertThat(pids).hasSize(4); // the shell, its two sleeps, the watchdog
            for (long p : pids) assertThat(Child.running(ProcessHandle.of(p).orElseThrow())).as(p + " runs").isTrue();
            new ProcessBuilder("kill", "-KILL", Long.toString(jvm.pid())).start().waitFor();
            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pids.stream().anyMatch(p -> !gone(p)) && System.nanoTime() < end) Thread.sleep(20);
            assertThat(pids.stream().filter(p -> !gone(p)).toList()).as("still running after the SIGKILL").isEmpty();
        } finally {
            jvm.destroyForcibly();
            for (long p : pids) ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Gone or a zombie (it runs nothing; init reaps it at its own pace). */
    private static boolean gone(long pid) {
        return ProcessHandle.of(pid).map(h -> !Child.running(h)).orElse(true);
    }

    private static List<ProcessHandle> waitForDescendants(Child c, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<ProcessHandle> d;
        do {
            d = c.process().descendants().toList();
            if (d.size() >= n) return d;
            Thread.sleep(10);
        } while (System.nanoTime() < end);
        throw new AssertionError("only " + d.size() + " processes below the child");
    }
}
