package hostside.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import hostside.bundle.TestJars;
import hostside.launcher.Limited.MemoryCgroup;
import hostside.launcher.Limited.Run;

/**
 * ./hostside under the memory limits of a shell ({@code ulimit -v}, {@code ulimit -d}) and of a
 * cgroup, on this JVM's JDK. Unsized, the JVM reserves ~3.8 GiB of address space (a 1 GiB class
 * space, half the limit for the heap) and fails to start below that, leaving hs_err_pid*.log in the
 * working directory; in a small cgroup its heap of half the limit does not fit beside the JVM, and
 * the kernel kills it without a word. The launcher sizes the JVM to the limit, or says in one line
 * what it needs. The repository is a copy of the launcher beside a jar built from target/classes.
 */
class LauncherMemoryLimitsTest {
    @TempDir
    static Path shared;
    static Path launcher;
    static Path report;

    @TempDir
    Path work;

    @BeforeAll
    static void repository() throws IOException {
        launcher = repository(shared.resolve("repo"));
        report = Path.of("testdata/reports/h200-hostside1.json").toAbsolutePath();
    }

    /** A copy of the launcher with an up-to-date jar beside it (nothing to build). */
    static Path repository(Path repo) throws IOException {
        launcherWithOldSources(repo);
        Path cached = shared.resolve("hostside.jar");
        if (!Files.exists(cached)) TestJars.hostside(cached, "0.0.0-test");
        Files.createDirectories(repo.resolve("target"));
        Files.copy(cached, repo.resolve("target/hostside.jar"));
        return repo.resolve("hostside");
    }

    /** The launcher copied into {@code repo}, beside sources an hour old: a jar written after them is up to date. */
    static void launcherWithOldSources(Path repo) throws IOException {
        Files.createDirectories(repo.resolve("src/main/java"));
        Files.copy(Path.of("hostside"), repo.resolve("hostside"));
        Files.setPosixFilePermissions(repo.resolve("hostside"), PosixFilePermissions.fromString("rwxr-xr-x"));
        FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
        for (String f : new String[] {"pom.xml", "src/main/java/A.java"}) {
            Files.writeString(repo.resolve(f), "x\n");
            Files.setLastModifiedTime(repo.resolve(f), old);
        }
    }

    static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>(Map.of("HOSTSIDE_JDK_SEARCH", System.getProperty("java.home"), "HOSTSIDE_NO_AOT", "1"));
        for (int i = 0; i < pairs.length; i += 2) env.put(pairs[i], pairs[i + 1]);
        return env;
    }

    Run hostside(Path launcher, Map<String, String> env, String limit, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        return Limited.run(work, env, limit, cmd);
    }

    /** Two reports for compare: the recorded H200's, and a copy under another name. */
    String[] twoReports() throws IOException {
        Path other = Files.copy(report, work.resolve("other.json"));
        return new String[] {"compare", report.toString(), other.toString()};
    }

    @Test
    void underAnAddressSpaceOrDataLimitTheJvmStartsSizedToIt() throws Exception {
        // 1 GiB of address space: ~3.8 GiB unsized; 256 MiB of data: ~435 MiB unsized (the initial heap is RAM/64)
        for (String limit : List.of("ulimit -v 1048576", "ulimit -d 262144")) {
            Run machine = hostside(launcher, env(), limit, "machine", "--json", "--no-measure");
            assertThat(machine.code()).as(limit + ": " + machine.out() + machine.err()).isZero();
            assertThat(new ObjectMapper().readTree(machine.out()).path("host").path("kernel").asText()).as(limit).isNotEmpty();

            Run compare = hostside(launcher, env(), limit, twoReports());
            assertThat(compare.code()).as(limit + ": " + compare.out() + compare.err()).isZero();
            assertThat(compare.out()).as(limit).startsWith("hostside compare: 2 reports");
            Files.delete(work.resolve("other.json"));
            assertThat(Limited.crashLitter(work)).as(limit).isEmpty();
        }
    }

    /**
     * Slurm runs its HealthCheckProgram with SLURMD_NODENAME and nothing else in the environment: no
     * HOME, no JAVA_HOME, no PATH of the user's. The launcher found its JDK with "$HOME" under set -u
     * and died there, which the health check took for a failed run.
     */
    @Test
    void itStartsInSlurmdsBareEnvironment() throws Exception {
        assertThat(Path.of(System.getProperty("java.home")).toRealPath().toString()).as("this JDK is where the launcher looks without JAVA_HOME")
                .startsWith("/usr/lib/jvm/");
        Run r = hostside(launcher, env(), "unset HOME JAVA_HOME HOSTSIDE_JDK_SEARCH; export PATH=/usr/bin:/bin",
                "health", "--format", "line", "--root", Path.of("testdata/health/h100-node.tar.gz").toAbsolutePath().toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).startsWith("ok: ");
    }

    @Test
    void belowWhatAnyJvmNeedsItSaysSoInOneLineAndStartsNone() throws Exception {
        Run v = hostside(launcher, env(), "ulimit -v 262144", "machine", "--json", "--no-measure");
        assertThat(v.code()).isEqualTo(2);
        assertThat(v.err()).isEqualTo("hostside: the address-space limit (ulimit -v) is 256 MiB; hostside's Java runtime needs at least 512 MiB: "
                + "raise it (ulimit -v 524288) or lift it (ulimit -v unlimited)\n");
        assertThat(v.out()).as("a JVM that failed would have written here").isEmpty();

        Run d = hostside(launcher, env(), "ulimit -d 65536", "compare", report.toString());
        assertThat(d.code()).isEqualTo(2);
        assertThat(d.err()).isEqualTo("hostside: the data-segment limit (ulimit -d) is 64 MiB; hostside's Java runtime needs at least 128 MiB: "
                + "raise it (ulimit -d 131072) or lift it (ulimit -d unlimited)\n");
        assertThat(d.out()).isEmpty();
        assertThat(Limited.crashLitter(work)).isEmpty();
    }

    @Test
    void aJvmThatCrashesLeavesNoReportOrCoreInTheWorkingDirectory() throws Exception {
        // a heap too small for the run, with the JVM told to crash on running out: a fatal error, planted
        Map<String, String> crash = env("HOSTSIDE_JAVA_OPTS", "-Xmx4m -XX:+CrashOnOutOfMemoryError");
        Run r = hostside(launcher, crash, "ulimit -c unlimited", "machine", "--json", "--no-measure");
        assertThat(r.code()).as(r.out() + r.err()).isNotZero();
        assertThat(Limited.crashLitter(work)).isEmpty();
        Path target = launcher.resolveSibling("target").toRealPath();
        List<String> reports = Limited.crashLitter(target);
        assertThat(reports).hasSize(1).allMatch(n -> n.startsWith("hs_err_pid"));
        // the JVM names where its report went
        assertThat(r.out() + r.err()).contains(target.resolve(reports.getFirst()).toString()).contains("CreateCoredumpOnCrash turned off");
        Files.delete(target.resolve(reports.getFirst()));
    }

    @Test
    void theStartUpCacheIsTrainedWithoutTheLimitAndUsedUnderIt() throws Exception {
        // training alone reserves 3 GiB for the cache's symbols: under 1 GiB it cannot succeed, so it is
        // not tried, and not remembered as failed for this jar either
        Path own = repository(shared.resolve("repo-aot"));
        Path target = own.resolveSibling("target");
        Map<String, String> aot = env("HOSTSIDE_DEBUG", "1");
        aot.remove("HOSTSIDE_NO_AOT");
        Run limited = hostside(own, aot, "ulimit -v 1048576", "machine", "--json", "--no-measure");
        assertThat(limited.code()).as(limited.err()).isZero();
        assertThat(limited.err()).contains("hostside: not training the start-up cache: the address-space limit (ulimit -v) is under 4096 MiB");
        try (Stream<Path> files = Files.list(target)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.contains(".aot"));
        }

        Run free = hostside(own, aot, "true", "machine", "--json", "--no-measure");
        assertThat(free.err()).contains("hostside: start-up cache ready in ");

        Run again = hostside(own, aot, "ulimit -v 1048576", "machine", "--json", "--no-measure");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.err()).as("the cache is used under the limit, its stamp untouched").doesNotContain("no usable AOT cache").doesNotContain("training");
    }

    @Test
    void inACgroupTooSmallForAnyJvmItSaysSoInOneLine() throws Exception {
        try (MemoryCgroup tiny = MemoryCgroup.withLimit(24L << 20)) {
            Run r = hostside(launcher, env(), tiny.enter(), "machine", "--json", "--no-measure");
            assertThat(r.code()).as("137: killed by the kernel mid-start").isEqualTo(2);
            assertThat(r.err()).matches("hostside: this process's memory cgroup allows 24 MiB \\(/sys/fs/cgroup/\\S+\\); "
                    + "hostside's Java runtime needs at least 64 MiB: give the container or cgroup more memory\n");
        }
    }

    @Test
    void inASmallCgroupTheHeapRunsOutBeforeTheKernelKillsTheJvm() throws Exception {
        // 60 reports of 190 kB: the JVM's own heap of half the cgroup (40 MiB) plus its ~45 MiB
        // beside it passes 80 MiB, and the kernel kills it before the heap is full
        List<String> args = new ArrayList<>(List.of("compare"));
        for (int i = 0; i < 60; i++) args.add(Files.copy(report, work.resolve("host" + i + ".json")).toString());
        try (MemoryCgroup small = MemoryCgroup.withLimit(80L << 20)) {
            Run r = hostside(launcher, env(), small.enter(), args.toArray(String[]::new));
            // done, or out of heap (hostside's own exit code), never killed by the kernel (137)
            assertThat(r.code()).as(r.err()).isIn(0, 1, 2);
        }
    }
}
