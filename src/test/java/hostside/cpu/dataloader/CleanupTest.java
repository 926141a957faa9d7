package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.harness.Result;
import hostside.harness.Status;

/**
 * No python process is left behind: after a normal run, after a timeout, after the Java side is
 * interrupted, and after the JVM itself is stopped (SIGTERM: the shutdown hook) or killed
 * (SIGKILL: the script sees its stdin close, the workers their parent die).
 */
class CleanupTest {
    static DataLoaderTarget target(Duration pass, Duration timeout) {
        return new DataLoaderTarget(FsRoot.live(), Python.find().orElse(null), 4L << 20, 2, 2, pass, timeout);
    }

    @Test
    void nothingLeftAfterANormalRun() throws Exception {
        DataLoaderTarget t = target(Duration.ofMillis(100), Duration.ofSeconds(30));
        assumeThat(t.hasPython()).isTrue();
        Leftovers seen = new Leftovers();
        var folders = Leftovers.tempFolders();
        CowRun r = CowSampler.run(t, DatasetKind.LIST, seen);
        assertThat(Leftovers.newFolders(folders)).as("the script's temporary copy is gone").isEmpty();
        assertThat(r.workers()).hasSize(2);
        assertThat(seen.seen).as("main and two workers").hasSize(3);
        assertThat(seen.running()).isEmpty();
        assertThat(Leftovers.scriptsRunning()).isEmpty();
    }

    @Test
    void nothingLeftAfterATimeout() throws Exception {
        DataLoaderTarget t = target(Duration.ofSeconds(20), Duration.ofSeconds(1));
        assumeThat(t.hasPython()).isTrue();
        Leftovers seen = new Leftovers();
        var folders = Leftovers.tempFolders();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> CowSampler.run(t, DatasetKind.LIST, seen))
                .isInstanceOf(RunFailed.class).hasMessageContaining("timed out after 1 s").hasMessageContaining("killed");
        assertThat((System.nanoTime() - t0) / 1e9).as("bounded by the timeout, and the kill by its own wait").isLessThan(6);
        assertThat(seen.seen).hasSize(3);
        assertThat(seen.running()).isEmpty();
        assertThat(Leftovers.scriptsRunning()).isEmpty();
        assertThat(Leftovers.newFolders(folders)).isEmpty();
        // and as a test case: a failed row, not an exception
        Result row = new CowGrowth(DatasetKind.LIST).run(t);
        assertThat(row.status()).isEqualTo(Status.FAILED);
        assertThat(row.why()).contains("timed out");
    }

    @Test
    void nothingLeftAfterAnInterrupt() throws Exception {
        DataLoaderTarget t = target(Duration.ofSeconds(20), Duration.ofSeconds(60));
        assumeThat(t.hasPython()).isTrue();
        Leftovers seen = new Leftovers();
        CountDownLatch ready = new CountDownLatch(3);
        var folders = Leftovers.tempFolders();
        AtomicReference<Result> result = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread runner = Thread.ofPlatform().start(() -> {
            result.set(runWatched(t, seen, ready));
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        assertThat(ready.await(20, TimeUnit.SECONDS)).as("main and both workers started").isTrue();
        Thread.sleep(300); // in the middle of the passes
        assertThat(Leftovers.scriptsRunning()).as("the check below sees the script and its workers while they run").hasSize(3);
        long t0 = System.nanoTime();
        runner.interrupt();
        runner.join(10_000);
        assertThat(runner.isAlive()).isFalse();
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(6);
        assertThat(result.get().status()).isEqualTo(Status.FAILED);
        assertThat(result.get().why()).startsWith("interrupted");
        assertThat(stillInterrupted.get()).as("the interrupt is passed on").isTrue();
        assertThat(seen.running()).isEmpty();
        assertThat(Leftovers.scriptsRunning()).isEmpty();
        assertThat(Leftovers.newFolders(folders)).isEmpty();
    }

    /** What CowGrowth.run does, with the pids heard on the way. */
    static Result runWatched(DataLoaderTarget t, Leftovers seen, CountDownLatch ready) {
        CowGrowth test = new CowGrowth(DatasetKind.LIST);
        try {
            return test.result(CowSampler.run(t, DatasetKind.LIST, pid -> {
                seen.accept(pid);
                ready.countDown();
            }), t);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.failed(test, "interrupted (the script and its workers were killed)");
        } catch (RunFailed e) {
            return Result.failed(test, e.getMessage());
        }
    }

    @Test
    void nothingLeftWhenTheJvmIsStopped() throws Exception {
        stopJvm("TERM");
    }

    @Test
    void nothingLeftWhenTheJvmIsKilled() throws Exception {
        stopJvm("KILL");
    }

    static void deleteTree(Path p) throws java.io.IOException {
        try (var s = java.nio.file.Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) java.nio.file.Files.deleteIfExists(x);
        }
    }

    private void stopJvm(String signal) throws Exception {
        assumeThat(Python.find()).isPresent();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var folders = Leftovers.tempFolders();
        Process jvm = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                CowChild.class.getName(), Python.find().orElseThrow())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Leftovers seen = new Leftovers();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()))) {
            for (int i = 0; i < 3; i++) {
                String line = out.readLine();
                assertThat(line).as("the child JVM reports main and both workers").isNotNull();
                seen.accept(Long.parseLong(line.strip()));
            }
            assertThat(seen.seen).hasSize(3);
            new ProcessBuilder("kill", "-" + signal, Long.toString(jvm.pid())).redirectOutput(new File("/dev/null")).start().waitFor();
            assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();
            List<ProcessHandle> left = seen.running();
            assertThat(left).as("after SIG" + signal).isEmpty();
            var newFolders = Leftovers.newFolders(folders);
            if (signal.equals("KILL")) {
                // a JVM killed outright runs no code: its run's temporary folder stays (tidied here)
                for (String f : newFolders) deleteTree(Path.of(System.getProperty("java.io.tmpdir"), f));
            } else {
                assertThat(newFolders).as("the temporary copy is removed at JVM exit").isEmpty();
            }
        } finally {
            jvm.destroyForcibly();
            for (ProcessHandle h : seen.seen) h.destroyForcibly();
        }
    }
}
