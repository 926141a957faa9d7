package hostside.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import hostside.launcher.Limited;
import hostside.launcher.Limited.MemoryCgroup;
import hostside.launcher.Limited.Run;

/**
 * The bundle's launcher under memory limits, on a real JVM: an unpacked bundle whose runtime is
 * this JVM's (a link; a jlink'd one maps less, so what runs here runs there) and whose jar is built
 * from target/classes. As ./hostside (LauncherMemoryLimitsTest): sized to a modest limit where the
 * JVM alone fails, one line below its floor, and no crash report in the working directory.
 */
class BundleMemoryLimitsTest {
    @TempDir
    static Path tmp;
    static Path launcher;

    @TempDir
    Path work;

    @BeforeAll
    static void bundle() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("hostside"));
        try (InputStream in = Bundler.class.getResourceAsStream(Bundler.LAUNCHER)) {
            BundleLauncherTest.executable(dir.resolve("hostside"), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        Files.createSymbolicLink(dir.resolve("runtime"), Path.of(System.getProperty("java.home")));
        TestJars.hostside(dir.resolve("hostside.jar"), "0.0.0-test");
        launcher = dir.resolve("hostside");
    }

    Run hostside(Map<String, String> env, String limit, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        return Limited.run(work, env, limit, cmd);
    }

    @Test
    void underAModestLimitItRunsAndBelowItsFloorItSaysSoInOneLine() throws Exception {
        Run r = hostside(Map.of(), "ulimit -v 1048576", "machine", "--json", "--no-measure");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).path("host").path("kernel").asText()).isNotEmpty();

        Run below = hostside(Map.of(), "ulimit -v 262144", "machine", "--json", "--no-measure");
        assertThat(below.code()).isEqualTo(2);
        assertThat(below.err()).isEqualTo("hostside: the address-space limit (ulimit -v) is 256 MiB; hostside's Java runtime needs at least 416 MiB: "
                + "raise it (ulimit -v 425984) or lift it (ulimit -v unlimited)\n");
        assertThat(below.out()).isEmpty();
        assertThat(Limited.crashLitter(work)).isEmpty();
    }

    @Test
    void aJvmThatCrashesLeavesItsReportInTheBundlesFolderNotTheWorkingDirectory() throws Exception {
        Run r = hostside(Map.of("HOSTSIDE_JAVA_OPTS", "-Xmx4m -XX:+CrashOnOutOfMemoryError"), "ulimit -c unlimited", "machine", "--json", "--no-measure");
        assertThat(r.code()).as(r.out() + r.err()).isNotZero();
        assertThat(Limited.crashLitter(work)).isEmpty();
        Path dir = launcher.getParent().toRealPath();
        List<String> reports = Limited.crashLitter(dir);
        assertThat(reports).hasSize(1).allMatch(n -> n.startsWith("hs_err_pid"));
        assertThat(r.out() + r.err()).contains(dir.resolve(reports.getFirst()).toString());
        Files.delete(dir.resolve(reports.getFirst()));
    }

    @Test
    void inACgroupTooSmallForAnyJvmItSaysSoInOneLine() throws Exception {
        try (MemoryCgroup tiny = MemoryCgroup.withLimit(24L << 20)) {
            Run r = hostside(Map.of(), tiny.enter(), "--version");
            assertThat(r.code()).as("137: killed by the kernel mid-start").isEqualTo(2);
            assertThat(r.err()).matches("hostside: this process's memory cgroup allows 24 MiB \\(/sys/fs/cgroup/\\S+\\); "
                    + "hostside's Java runtime needs at least 64 MiB: give the container or cgroup more memory\n");
        }
    }
}
