package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.bundle.TestJars;
import hostside.core.Json;

/**
 * A real bundle, made once for the class (jlink and the training run take 10-20 s on 2 cores)
 * from a jar the test makes (a clean clone has no target/hostside.jar while tests run), unpacked
 * with the system's tar and run where there is no Java on PATH and no JAVA_HOME.
 */
class BundleCommandTest {
    @TempDir
    static Path tmp;

    static final String VERSION = "0.0-bundletest";
    static Path jar, bundle, unpacked;
    static Result made;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @BeforeAll
    static void makeOne() throws Exception {
        jar = TestJars.hostside(tmp.resolve("jar/hostside.jar"), VERSION);
        bundle = Files.createDirectories(tmp.resolve("out")).resolve("hostside-bundle.tar.gz");
        made = run("bundle", "-o", bundle.toString(), "--jar", jar.toString(), "--json");
        assertThat(made.code()).as(made.err()).isZero();
        unpacked = unpack(bundle, tmp.resolve("unpacked"));
    }

    /** tar xzf FILE -C DIR, as a recipe does; returns DIR/hostside. */
    static Path unpack(Path tarball, Path dir) throws Exception {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).as("tar says nothing (no time stamps in the future)").isEmpty();
        return dir.resolve("hostside");
    }

    /** PATH without any folder that holds a java, and no JAVA_HOME: a node without Java. */
    static Result launch(Path launcher, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("HOSTSIDE_") || k.startsWith("JAVA") || k.startsWith("JDK_") || k.equals("_JAVA_OPTIONS"));
        String path = Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
                .filter(d -> !d.isEmpty() && !Files.exists(Path.of(d, "java"))).reduce((a, b) -> a + File.pathSeparator + b).orElse("/nonexistent");
        e.put("PATH", path);
        e.putAll(env);
        Process p = pb.start();
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofVirtual().start(() -> {
            try {
                err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException x) {
                err.completeExceptionally(x);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, err.get());
    }

    static String sha256(Path p) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(p)) {
            d.update(in.readAllBytes());
        }
        return HexFormat.of().formatHex(d.digest());
    }

    @Test
    void jsonSaysWhatWasWrittenWithItsHashAndProgressGoesToStderr() throws Exception {
        JsonNode j = Json.MAPPER.readTree(made.out());
        assertThat(j.path("path").asText()).isEqualTo(bundle.toString());
        assertThat(j.path("bytes").asLong()).isEqualTo(Files.size(bundle));
        assertThat(j.path("sha256").asText()).isEqualTo(sha256(bundle));
        assertThat(j.path("jdk").asText()).isEqualTo(Runtime.version().toString());
        assertThat(j.path("modules").toString()).isEqualTo("[\"java.base\",\"java.management\",\"jdk.httpserver\"]");
        assertThat(j.path("hostside").asText()).isEqualTo(VERSION);
        assertThat(j.path("startupCache").asBoolean()).isTrue();
        assertThat(made.err().lines()).allMatch(l -> l.startsWith("hostside: "));
        assertThat(made.err()).contains("hostside: linking a Java " + Runtime.version() + " runtime (java.base, java.management, jdk.httpserver) with ")
                .containsPattern("hostside: linked in \\d+\\.\\d s: \\d+(\\.\\d)? MiB in \\d+ files\\n")
                .containsPattern("hostside: start-up cache ready in \\d+\\.\\d s").containsPattern("hostside: written in \\d+\\.\\d s");
        // the folder holds the bundle and nothing else: no .part, no staging folder
        try (Stream<Path> s = Files.list(bundle.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("hostside-bundle.tar.gz");
        }
    }

    @Test
    void itRunsWhereThereIsNoJava() throws Exception {
        Result v = launch(unpacked.resolve("hostside"), Map.of(), "--version");
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.out()).isEqualTo("hostside " + VERSION + "\n");

        Result m = launch(unpacked.resolve("hostside"), Map.of("HOSTSIDE_JAVA_OPTS", "-XshowSettings:properties"), "machine", "--json", "--root",
                Fixtures.h200().toString());
        assertThat(m.code()).as(m.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(m.out());
        assertThat(j.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(j.path("topology").path("cores").asInt()).isEqualTo(16);
        assertThat(m.err()).contains("java.home = " + unpacked.resolve("runtime").toRealPath());
    }

    @Test
    void theStartUpCacheMapsForTheQuickCommandsAndTheDrillsRunWithoutIt() throws Exception {
        // AOTMode=on: the JVM refuses to start unless the cache maps
        Map<String, String> on = Map.of("HOSTSIDE_JAVA_OPTS", "-XX:AOTMode=on");
        Result quick = launch(unpacked.resolve("hostside"), on, "--version");
        assertThat(quick.code()).as(quick.err()).isZero();
        // a drill that times Java loops runs C2 without the C1-trained cache (which slowed STREAM's kernels 5-15x)
        Result drill = launch(unpacked.resolve("hostside"), Map.of("HOSTSIDE_JAVA_OPTS", "-XX:+PrintCommandLineFlags"), "vm", "--json", "--root",
                Fixtures.h200().toString());
        assertThat(drill.code()).as(drill.err()).isZero();
        assertThat(drill.out() + drill.err()).doesNotContain("AOTCache");
    }

    @Test
    void aReplacedJarRunsWithoutTheCache() throws Exception {
        Path copy = unpack(bundle, tmp.resolve("replaced"));
        Map<String, String> flags = Map.of("HOSTSIDE_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
        assertThat(launch(copy.resolve("hostside"), flags, "--version").out()).contains("-XX:AOTCache=");
        Files.setLastModifiedTime(copy.resolve("hostside.jar"), FileTime.fromMillis(System.currentTimeMillis()));
        Result r = launch(copy.resolve("hostside"), flags, "--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).doesNotContain("AOTCache").endsWith("hostside " + VERSION + "\n");
    }

    @Test
    void everythingLiesInOneFolderWithItsModesAndLinks() throws Exception {
        Set<String> names = new HashSet<>();
        Set<Long> times = new HashSet<>();
        int links = 0;
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(Files.newInputStream(bundle)))) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null;) {
                String n = e.getName();
                names.add(n);
                times.add(e.getModTime().getTime());
                assertThat(n).as(n).startsWith("hostside/").doesNotStartWith("/");
                assertThat(List.of(n.split("/"))).as(n).doesNotContain("..", ".");
                assertThat(e.getLongUserId()).as(n).isZero();
                assertThat(e.getLongGroupId()).as(n).isZero();
                if (e.isSymbolicLink()) {
                    links++;
                    Path target = Path.of(n).getParent().resolve(e.getLinkName()).normalize();
                    assertThat(target.startsWith(Path.of("hostside/runtime"))).as(n + " -> " + e.getLinkName()).isTrue();
                    assertThat(names).as("its target comes first").contains(target.toString());
                }
                int mode = e.getMode() & 0777;
                switch (n) {
                    case "hostside/hostside", "hostside/runtime/bin/java", "hostside/runtime/lib/jspawnhelper" -> assertThat(mode).as(n).isEqualTo(0755);
                    case "hostside/hostside.jar", "hostside/README", "hostside/hostside.aot" -> assertThat(mode).as(n).isEqualTo(0644);
                    default -> assertThat(mode & 0400).as(n).isNotZero();
                }
            }
        }
        assertThat(names).contains("hostside/", "hostside/hostside", "hostside/README", "hostside/hostside.jar", "hostside/hostside.aot",
                "hostside/runtime/bin/java", "hostside/runtime/lib/modules", "hostside/runtime/release");
        assertThat(names).noneMatch(n -> n.contains("jlink") || n.endsWith(".log") || n.endsWith(".config"));
        assertThat(links).as("jlink links the legal notices of one module to another's").isPositive();
        assertThat(times).as("one time, the jar's, to the second").hasSize(1).allMatch(t -> t % 1000 == 0);
        assertThat(times.iterator().next()).isEqualTo(Files.getLastModifiedTime(jar).toMillis() / 1000 * 1000);

        // and so on disk, as tar unpacked it
        assertThat(Files.isExecutable(unpacked.resolve("hostside"))).isTrue();
        assertThat(Files.isExecutable(unpacked.resolve("runtime/bin/java"))).isTrue();
        assertThat(Files.isExecutable(unpacked.resolve("runtime/lib/jspawnhelper"))).isTrue();
        assertThat(Files.isSymbolicLink(unpacked.resolve("runtime/legal/java.management/LICENSE"))).isTrue();
        assertThat(Files.getLastModifiedTime(unpacked.resolve("hostside.jar"))).isEqualTo(Files.getLastModifiedTime(unpacked.resolve("hostside.aot")));
    }

    @Test
    void theReadmeSaysWhatItIsHowToRunItAndWhatIsInside() throws IOException {
        String readme = Files.readString(unpacked.resolve("README"));
        String flat = readme.replace('\n', ' ');
        assertThat(flat).startsWith("hostside " + VERSION + " with a Java runtime of its own, for Linux machines on ").contains("./hostside report")
                .contains("Java " + Runtime.version()).contains("java.base, java.management, jdk.httpserver").contains("made with jlink").contains("hostside.aot");
        assertThat(readme.lines()).allMatch(l -> l.length() <= 78);
    }

    @Test
    void aBundleMakesItsLikeWithoutJlink() throws Exception {
        // a folder with a space: the hint to copy must still run as shown
        Path again = Files.createDirectories(tmp.resolve("again here")).resolve("b2.tar.gz");
        Result r = launch(unpacked.resolve("hostside"), Map.of(), "bundle", "-o", again.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("hostside: no jlink in " + unpacked.resolve("runtime").toRealPath() + " (a JRE, or a bundle's runtime): packing it as it is")
                .doesNotContain("linking");
        List<String> out = r.out().lines().toList();
        assertThat(out).hasSize(3);
        assertThat(out.get(0)).matches("wrote " + java.util.regex.Pattern.quote(again.toString()) + " \\(\\d+(\\.\\d)? MiB\\): hostside " + VERSION + ", Java "
                + java.util.regex.Pattern.quote(Runtime.version().toString()) + " \\(java\\.base, java\\.management, jdk\\.httpserver\\), start-up cache");
        // sha256sum's own format, so that a copy can be checked with sha256sum -c
        assertThat(out.get(1)).isEqualTo(sha256(again) + "  " + again);
        assertThat(out.get(2)).isEqualTo("run it anywhere: tar xzf '" + again + "' && ./hostside/hostside report");

        Path second = unpack(again, tmp.resolve("again-unpacked"));
        Result v = launch(second.resolve("hostside"), Map.of(), "--version");
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.out()).isEqualTo("hostside " + VERSION + "\n");
        try (Stream<Path> a = Files.walk(unpacked.resolve("runtime")); Stream<Path> b = Files.walk(second.resolve("runtime"))) {
            assertThat(b.map(p -> second.relativize(p).toString()).sorted().toList()).isEqualTo(a.map(p -> unpacked.relativize(p).toString()).sorted().toList());
        }
    }
}
