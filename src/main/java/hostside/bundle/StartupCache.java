package hostside.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bundle's start-up cache: a JDK 25 AOT cache (JEP 483/514) of the classes a run of
 * {@code machine --json --no-measure} loads, trained on the bundle's own runtime and jar when the
 * bundle is made, as the repository launcher trains its own (docs/startup.md). It saves ~250 ms
 * of a ~650 ms start of {@code machine --json}. It is checked with {@code -XX:AOTMode=on}, which
 * refuses to start unless the cache maps, under the quick commands' flags; a cache that fails it
 * is left out, and the bundle starts without one. The launcher gives it only to the
 * commands that measure nothing: the drills that time Java loops ran them 5-15x slower under C2 with
 * this C1-trained cache (docs/measurements/2026-12-06-findings-h100.md).
 */
final class StartupCache {
    /** The launcher's flags for a quick command; the cache is trained with these. */
    static final List<String> FLAGS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** The launcher's flags for the drills that time Java loops (C2, no periodic housekeeping); they run without the cache. */
    static final List<String> DRILL_FLAGS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:+UnlockDiagnosticVMOptions",
            "-XX:GuaranteedSafepointInterval=0", "-XX:AsyncDeflationInterval=0");
    /** Training reads this machine's facts and measures nothing: seconds. A run that hangs (a driver) must not hold the bundle. */
    static final Duration TRAINING_LIMIT = Duration.ofMinutes(2);
    static final Duration CHECK_LIMIT = Duration.ofSeconds(60);
    /**
     * The environment the training run must not see: options the user's shell gives every JVM
     * would be trained into the cache, and the launcher on another machine does not give them.
     */
    static final List<String> UNSET = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "HOSTSIDE_DEBUG");

    private StartupCache() {}

    /**
     * Trains a cache at {@code cache} for {@code jar} on the runtime whose java is {@code java}.
     * Returns why there is none, or empty when it is made and maps under the quick commands' flags.
     */
    static Optional<String> train(Path java, Path jar, Path cache, Staging staging) throws IOException {
        Path log = staging.resolve("training.log");
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(FLAGS);
        cmd.add("-XX:AOTCacheOutput=" + cache);
        cmd.addAll(List.of("-jar", jar.toString(), "machine", "--json", "--no-measure"));
        int code = staging.run(cmd, log, TRAINING_LIMIT, UNSET);
        // the training run's exit code does not matter, the classes it loaded do (as in the launcher)
        if (!Files.isRegularFile(cache) || Files.size(cache) == 0) {
            Files.deleteIfExists(cache);
            return Optional.of(code == -1 ? "the training run took over " + TRAINING_LIMIT.toSeconds() + " s" : "the training run made none (" + lastLine(log) + ")");
        }
        List<String> check = new ArrayList<>();
        check.add(java.toString());
        check.addAll(FLAGS);
        check.addAll(List.of("-Xlog:disable", "-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-cp", jar.toString(), "-version"));
        if (staging.run(check, staging.resolve("check.log"), CHECK_LIMIT, UNSET) != 0) {
            Files.deleteIfExists(cache);
            return Optional.of("the cache does not map under " + String.join(" ", FLAGS));
        }
        return Optional.empty();
    }

    /** The last line a program wrote, for a one-line reason. */
    static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
            return lines.isEmpty() ? "it printed nothing" : lines.getLast();
        } catch (IOException | java.io.UncheckedIOException e) {
            return "its output is unreadable";
        }
    }
}
