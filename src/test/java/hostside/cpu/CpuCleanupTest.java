package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.cpu.measure.CpuHogs;
import hostside.harness.ScratchFolder;

/**
 * Ctrl-C in the middle of `hostside cpu` leaves nothing running: a real JVM, a real SIGINT, while
 * its CPU hogs, its Python DataLoader workers or its strace are alive. Every descendant seen
 * before the signal must be gone (or a zombie nobody reaps, which holds no CPU or memory) after.
 */
class CpuCleanupTest {
    @TempDir
    Path dir;

    @Test
    void ctrlCDuringTheNoisyTimerJitterStopsTheHogs() throws Exception {
        interruptWhile(p -> CpuHogs.isHog(cmdline(p)), "the CPU hogs",
                "cpu", "--only", "timer_jitter_noisy", "--launches", "1000000", "--period-us", "100");
    }

    @Test
    void ctrlCDuringTheDataLoaderStopsPythonAndItsWorkers() throws Exception {
        interruptWhile(p -> cmdline(p).contains("cow_workers.py"), "the DataLoader script",
                "cpu", "--only", "dataloader_cow_list", "--dataset-size", "64M", "--workers", "2");
    }

    @Test
    void ctrlCDuringATraceStopsStraceAndTheTracedCommand() throws Exception {
        interruptWhile(p -> cmdline(p).startsWith("sleep"), "the traced command",
                "cpu", "--trace", "--", "sleep", "300");
    }

    // SIGKILL of hostside: no Java code runs, no hook; the kernel's parent-death signal and the
    // watchdog process (hostside.harness.Children) must end every helper all the same

    @Test
    void sigkillDuringTheNoisyTimerJitterStopsTheHogs() throws Exception {
        killWhile("KILL", p -> CpuHogs.isHog(cmdline(p)), "the CPU hogs",
                "cpu", "--only", "timer_jitter_noisy", "--launches", "1000000", "--period-us", "100");
    }

    @Test
    void sigkillDuringTheDataLoaderStopsPythonAndItsWorkers() throws Exception {
        // the workers are forked after "fork": wait for a python below python
        killWhile("KILL", p -> cmdline(p).contains("cow_workers.py") && p.parent().map(q -> cmdline(q).contains("cow_workers.py")).orElse(false),
                "a DataLoader worker", "cpu", "--only", "dataloader_cow_list", "--dataset-size", "64M", "--workers", "2");
    }

    @Test
    void sigkillDuringATraceStopsStraceAndTheTracedCommand() throws Exception {
        killWhile("KILL", p -> cmdline(p).startsWith("sleep"), "the traced command", "cpu", "--trace", "--", "sleep", "60");
    }

    /** Starts hostside, waits until a descendant matching {@code sign} runs, sends SIGINT, and checks every descendant is gone. */
    private void interruptWhile(Predicate<ProcessHandle> sign, String what, String... args) throws Exception {
        killWhile("INT", sign, what, args);
    }

    /** Starts hostside, waits until a descendant matching {@code sign} runs, sends {@code signal}, and checks every descendant is gone. */
    private void killWhile(String signal, Predicate<ProcessHandle> sign, String what, String... args) throws Exception {
        // its temporary files (strace's output, the scripts' folder) in this test's folder: a SIGKILLed JVM cannot delete them
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> cmd = hostside.HostsideJvm.command(List.of("-Djava.io.tmpdir=" + tmp), args);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(new File(dir.toFile(), "stderr.txt")).start();
        Set<Long> seen = new LinkedHashSet<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            boolean running = false;
            while (!running && p.isAlive() && System.nanoTime() < deadline) {
                for (ProcessHandle d : p.descendants().toList()) {
                    seen.add(d.pid());
                    running |= sign.test(d);
                }
                Thread.sleep(20);
            }
            assertThat(running).as(what + " started (stderr: " + Files.readString(dir.resolve("stderr.txt")) + ")").isTrue();
            Thread.sleep(300);
            p.descendants().forEach(d -> seen.add(d.pid()));
            assertThat(seen.stream().filter(pid -> pid != p.pid()).toList()).as("helpers seen").isNotEmpty();
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits on SIG" + signal).isTrue();
            // the JVM's own hooks end its children; give the kernel a moment to finish them
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.stream().anyMatch(CpuCleanupTest::running) && System.nanoTime() < settle) Thread.sleep(50);
            assertThat(seen.stream().filter(CpuCleanupTest::running).map(pid -> pid + " " + cmdline(pid)).toList())
                    .as("descendants still running after SIG" + signal).isEmpty();
            // its temporary files: removed by its hooks on SIGINT; after SIGKILL left, and removed by the next run
            if (signal.equals("KILL")) {
                boolean left = !names(tmp).isEmpty(); // strace's output, the scripts' folder; the hogs make none
                List<String> said = new ArrayList<>();
                try (ScratchFolder next = ScratchFolder.create(tmp, "next", said::add)) {
                    if (left) assertThat(said).singleElement().asString().startsWith("removed ").contains("that a killed hostside run left in " + tmp);
                    assertThat(names(tmp)).allMatch(n -> n.startsWith(next.path().getFileName().toString().replace(".d", "")));
                }
            }
            assertThat(names(tmp)).as("hostside's temporary files after SIG" + signal).isEmpty();
        } finally {
            p.destroyForcibly();
            for (long pid : seen) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static List<String> names(Path dir) throws java.io.IOException {
        try (var s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    /** Alive and not a zombie (state Z in /proc/PID/stat: exited, its parent gone or not yet waiting). */
    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static String cmdline(ProcessHandle p) {
        return cmdline(p.pid());
    }

    static String cmdline(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ').strip();
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
