package hostside.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle's launcher (src/main/resources/hostside/bundle/launcher.sh), with a fake java that
 * writes down the arguments it was given: it must start the JVM as the repository's ./hostside
 * does for every command (their flags were measured, docs/startup.md), use the start-up cache
 * only beside the jar it was trained on, and find its bundle through links and spaces.
 */
class BundleLauncherTest {
    @TempDir
    Path tmp;

    /** Writes its arguments, one a line, where the test says. */
    static final String FAKE_JAVA = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$HOSTSIDE_TEST_ARGS\"\n";

    record Run(int code, List<String> args, String err) {}

    static void executable(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** An unpacked bundle at {@code dir} with the real launcher, a fake runtime, and a jar and cache of one time stamp. */
    static Path bundle(Path dir) throws IOException {
        try (InputStream in = Bundler.class.getResourceAsStream(Bundler.LAUNCHER)) {
            executable(dir.resolve("hostside"), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        executable(dir.resolve("runtime/bin/java"), FAKE_JAVA);
        FileTime t = FileTime.from(Instant.parse("2026-12-01T10:00:00Z"));
        for (String f : new String[] {"hostside.jar", "hostside.aot"}) {
            Files.writeString(dir.resolve(f), f);
            Files.setLastModifiedTime(dir.resolve(f), t);
        }
        return dir.resolve("hostside");
    }

    /** A copy of the repository's launcher beside an up-to-date jar (nothing to build), and a fake JDK 25 for it. */
    Path repository() throws IOException {
        Path repo = tmp.resolve("repo");
        executable(repo.resolve("hostside"), Files.readString(Path.of("hostside")));
        FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
        Files.writeString(repo.resolve("pom.xml"), "<project/>\n");
        Files.createDirectories(repo.resolve("src/main/java"));
        Files.writeString(repo.resolve("src/main/java/A.java"), "class A {}\n");
        Files.setLastModifiedTime(repo.resolve("pom.xml"), old);
        Files.setLastModifiedTime(repo.resolve("src/main/java/A.java"), old);
        Files.createDirectories(repo.resolve("target"));
        Files.writeString(repo.resolve("target/hostside.jar"), "jar");
        executable(tmp.resolve("jdk/bin/java"), FAKE_JAVA);
        Files.writeString(tmp.resolve("jdk/release"), "JAVA_VERSION=\"25.0.3\"\nJAVA_RUNTIME_VERSION=\"25.0.3+9-LTS\"\n");
        return repo.resolve("hostside");
    }

    Run launch(Path launcher, Map<String, String> env, String... args) throws Exception {
        Path record = tmp.resolve("args-" + System.nanoTime());
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("HOSTSIDE_") || k.contains("JAVA_OPTIONS") || k.equals("JAVA_HOME"));
        e.put("HOSTSIDE_TEST_ARGS", record.toString());
        e.put("HOSTSIDE_JDK_SEARCH", tmp.resolve("jdk").toString());
        e.putAll(env);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), Files.exists(record) ? Files.readAllLines(record) : List.of(), err);
    }

    /** The JVM's arguments with the launcher's own paths named, so that the two launchers' can be compared. */
    static List<String> named(List<String> args, Path dir, String jar) {
        return args.stream().map(a -> a.equals(dir.resolve(jar).toString()) ? "JAR" : a.replace(dir.toString(), "DIR")).toList();
    }

    @Test
    void everyCommandStartsTheJvmAsTheRepositoryLauncherDoes() throws Exception {
        Path bundled = bundle(tmp.resolve("b"));
        Path repo = repository();
        Map<String, String> noCache = Map.of("HOSTSIDE_NO_AOT", "1");
        String[][] lines = {{}, {"--version"}, {"--help"}, {"machine", "--json"}, {"machine", "--no-measure"}, {"machine", "--root=x.tar.gz"},
                {"machine", "--help"}, {"rack"}, {"rack", "--root", "x"}, {"vm", "--json"}, {"cpu"}, {"io", "--dir", "/tmp"}, {"report"},
                {"container"}, {"checklist", "1"}, {"compare", "a.json"}, {"snapshot", "-o", "x.tar.gz"}, {"bundle"}};
        int c1 = 0, c2 = 0;
        for (String[] line : lines) {
            Run fromRepo = launch(repo, noCache, line), fromBundle = launch(bundled, noCache, line);
            assertThat(fromRepo.code()).as(fromRepo.err()).isZero();
            assertThat(fromBundle.code()).as(fromBundle.err()).isZero();
            // the repository's target/ holds what the bundle's folder holds: the jar, the cache, a crash report
            List<String> expected = named(fromRepo.args(), repo.getParent().toRealPath().resolve("target"), "hostside.jar");
            assertThat(named(fromBundle.args(), bundled.getParent().toRealPath(), "hostside.jar")).as(String.join(" ", line)).isEqualTo(expected)
                    .endsWith(line);
            // the start-up cache is trained with the flags of the quick commands, and checked with both sets
            List<String> flags = expected.subList(0, expected.indexOf("-Xlog:disable"));
            if (flags.equals(StartupCache.FLAGS)) c1++;
            else if (flags.equals(StartupCache.DRILL_FLAGS)) c2++;
            else throw new AssertionError("flags of neither set: " + flags);
        }
        assertThat(c1).isPositive();
        assertThat(c2).isPositive();
    }

    @Test
    void theStartUpCacheIsUsedOnlyBesideTheJarItWasTrainedOn() throws Exception {
        Path launcher = bundle(tmp.resolve("b"));
        Path dir = launcher.getParent().toRealPath();
        List<String> args = launch(launcher, Map.of(), "--version").args();
        assertThat(args).containsSubsequence(StartupCache.FLAGS.getLast(), "-XX:AOTCache=" + dir.resolve("hostside.aot"), "-Xlog:disable", "-jar");

        assertThat(launch(launcher, Map.of("HOSTSIDE_NO_AOT", "1"), "--version").args()).noneMatch(a -> a.contains("AOT"));
        // a drill that times Java loops runs C2 without the C1-trained cache, which slowed its loops 5-15x
        for (String[] measuring : new String[][] {{"machine", "--json"}, {"report"}, {"vm"}, {"rack"}}) {
            assertThat(launch(launcher, Map.of(), measuring).args()).as(String.join(" ", measuring)).noneMatch(a -> a.contains("AOT"));
        }
        assertThat(launch(launcher, Map.of(), "machine", "--no-measure").args()).contains("-XX:AOTCache=" + dir.resolve("hostside.aot"));

        // a jar put in its place later: the cache would run the old classes
        Files.setLastModifiedTime(dir.resolve("hostside.jar"), FileTime.from(Instant.now()));
        assertThat(launch(launcher, Map.of(), "--version").args()).noneMatch(a -> a.contains("AOT"));
        Files.delete(dir.resolve("hostside.aot"));
        assertThat(launch(launcher, Map.of(), "--version").args()).noneMatch(a -> a.contains("AOT"));
    }

    @Test
    void javaOptionsComeLastAndAreSplitButNeverGlobbed() throws Exception {
        Path launcher = bundle(tmp.resolve("b"));
        Files.writeString(tmp.resolve("b/x1"), "");
        List<String> args = launch(launcher, Map.of("HOSTSIDE_JAVA_OPTS", "-Xlog:gc -Dglob=* -Xmx1g", "HOSTSIDE_DEBUG", "1"), "machine", "--json").args();
        // after -Xlog:disable, so that a -Xlog given there still logs
        assertThat(args).containsSubsequence("-Xlog:disable", "-Xlog:aot=warning:stderr", "-Xlog:gc", "-Dglob=*", "-Xmx1g", "-jar");
        assertThat(args.subList(args.indexOf("-jar"), args.size())).containsExactly("-jar", tmp.resolve("b/hostside.jar").toRealPath().toString(), "machine", "--json");
    }

    @Test
    void itFindsItsBundleThroughALinkAndAcrossSpaces() throws Exception {
        Path launcher = bundle(tmp.resolve("a folder with spaces/hostside"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("hostside"), launcher);
        Files.createSymbolicLink(bin.resolve("hs"), Path.of("hostside")); // a relative link to the link
        Run r = launch(bin.resolve("hs"), Map.of(), "compare", "a b.json");
        assertThat(r.code()).as(r.err()).isZero();
        Path dir = launcher.getParent().toRealPath();
        assertThat(r.args()).contains("-XX:AOTCache=" + dir.resolve("hostside.aot")).endsWith("-jar", dir.resolve("hostside.jar").toString(), "compare", "a b.json");
    }

    @Test
    void aBundleUnpackedInPartSaysWhatIsMissingInOneLine() throws Exception {
        Path launcher = bundle(tmp.resolve("b"));
        Files.delete(tmp.resolve("b/runtime/bin/java"));
        Run r = launch(launcher, Map.of(), "--version");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("hostside: ").contains("runtime/bin/java is missing").hasLineCount(1);
        assertThat(r.args()).isEmpty();
    }
}
