package hostside.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the bundle's runtime with a JDK's jlink. Temurin 25 has no jmods folder; jlink links
 * from the JDK's own run-time image (JEP 493) all the same.
 */
final class Jlink {
    /**
     * What hostside needs of the JDK. {@code jdeps --print-module-deps} on hostside's own classes
     * says java.base and java.management (the JIT watch of the timing drills reads the
     * CompilationMXBean), and jdk.httpserver since the learning mode serves its pages with the
     * JDK's own HTTP server (a few hundred KiB). On the shaded jar it adds java.desktop and java.sql: Jackson's optional
     * java.beans and java.sql types, commons-compress's pack200 and commons-lang3's concurrent
     * package, none of which hostside reaches; Jackson looks for each of them before using it.
     * java.desktop alone would add 12 MiB. BundleModulesTest holds hostside's own classes to this list.
     */
    static final List<String> MODULES = List.of("java.base", "java.management", "jdk.httpserver");

    /**
     * No --compress: the bundle is gzipped as a whole, which compresses lib/modules better than
     * jlink's per-resource zip does (the runtime's share of the archive: 18.6 MiB unzipped against
     * 21.9 MiB with zip-9), and classes need no inflating at start. No CDS archive
     * (--generate-cds-archive, +7 MiB): the start-up cache holds the JDK's classes as well.
     */
    static final List<String> OPTIONS = List.of("--strip-debug", "--no-man-pages", "--no-header-files", "--compress=zip-0");

    /** jlink links ~60 MB in 5-10 s on 2 cores; far more is a JDK that hangs. */
    static final Duration LIMIT = Duration.ofMinutes(10);

    private Jlink() {}

    /** Links {@code modules} of the JDK whose jlink is {@code jlink} into {@code output}, which must not exist yet. */
    static void link(Path jlink, List<String> modules, Path output, Staging staging) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(jlink.toString(), "--add-modules", String.join(",", modules)));
        cmd.addAll(OPTIONS);
        cmd.addAll(List.of("--output", output.toString()));
        Path log = staging.resolve("jlink.log");
        int code = staging.run(cmd, log, LIMIT, List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"));
        if (code != 0 || !Files.isExecutable(output.resolve("bin/java"))) {
            throw new IOException(jlink + (code == -1 ? " ran over " + LIMIT.toMinutes() + " minutes" : " failed (exit " + code + "): " + firstError(log)));
        }
    }

    /** jlink's own first "Error:" line, else its last line. */
    private static String firstError(Path log) {
        try {
            for (String l : Files.readAllLines(log)) if (l.startsWith("Error:")) return l.substring(6).strip();
        } catch (IOException | java.io.UncheckedIOException e) {
            // fall through to the last line, or to saying it is unreadable
        }
        return StartupCache.lastLine(log);
    }
}
