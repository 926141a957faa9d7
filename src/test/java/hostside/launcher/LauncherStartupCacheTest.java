package hostside.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.bundle.TestJars;
import hostside.launcher.Limited.Run;

/**
 * ./hostside trains one start-up cache per build, under the drills' flags, and gives it to the
 * quick commands (C1 only) and the drills (C2) alike: the message's "once per build" is then true.
 * The repository is a copy of the launcher beside a jar built from target/classes, on this JVM's JDK.
 */
class LauncherStartupCacheTest {
    @TempDir
    Path repo;

    @Test
    void oneTrainingServesTheQuickCommandsAndTheDrills() throws Exception {
        LauncherMemoryLimitsTest.launcherWithOldSources(repo);
        Path target = Files.createDirectories(repo.resolve("target"));
        TestJars.hostside(target.resolve("hostside.jar"), "0.0.0-test");
        // the second cache an earlier launcher trained for the drills: gone with the next training
        Files.writeString(target.resolve("hostside-c2.aot"), "old");
        Map<String, String> env = Map.of("HOSTSIDE_JDK_SEARCH", System.getProperty("java.home"), "HOSTSIDE_DEBUG", "1");

        Run quick = Limited.run(repo, env, "true", List.of(repo.resolve("hostside").toString(), "machine", "--json", "--no-measure"));
        assertThat(quick.code()).as(quick.err()).isZero();
        assertThat(quick.err()).contains("hostside: training the start-up cache (one run of machine --json --no-measure, about 5 s, once per build)...\n")
                .contains("hostside: start-up cache ready in ").doesNotContain("no usable AOT cache");

        // a drill starts under C2 and other flags: the same cache, no second training
        Run drill = Limited.run(repo, env, "true", List.of(repo.resolve("hostside").toString(), "vm", "--help"));
        assertThat(drill.code()).as(drill.err()).isZero();
        assertThat(drill.err()).doesNotContain("training").doesNotContain("no usable AOT cache");
        Run again = Limited.run(repo, env, "true", List.of(repo.resolve("hostside").toString(), "machine", "--json", "--no-measure"));
        assertThat(again.err()).doesNotContain("training").doesNotContain("no usable AOT cache");

        try (Stream<Path> files = Files.list(target)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.contains(".aot")).sorted())
                    .containsExactly("hostside.aot", "hostside.aot.stamp");
        }
    }
}
