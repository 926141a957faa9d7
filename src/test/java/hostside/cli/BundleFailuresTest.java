package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.HostsideJvm;
import hostside.bundle.TestJars;
import hostside.core.Json;

/**
 * What bundle refuses, in one line and before anything is written, and what it leaves when a step
 * fails or the user presses Ctrl-C: nothing. Fake JDKs stand in for jlink, so no test here links
 * a runtime; BundleCommandTest makes a real bundle.
 */
class BundleFailuresTest {
    @TempDir
    Path tmp;

    Path out, jar;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    static void oneLineError(Result r, String... says) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).startsWith("hostside: ").doesNotContain("Exception").contains(says);
        assertThat(r.out()).isEmpty();
    }

    @BeforeEach
    void setUp() throws IOException {
        out = Files.createDirectories(tmp.resolve("out"));
        jar = TestJars.manifestOnly(tmp.resolve("jar/hostside.jar"), "hostside.cli.Main");
    }

    List<String> left() throws IOException {
        try (var s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void executable(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A folder that looks like a Java runtime: a java that cannot run hostside, a release file, and {@code jlink} where given. */
    Path fakeJava(String name, String version, String modules, String jlink) throws IOException {
        Path home = tmp.resolve(name);
        executable(home.resolve("bin/java"), "#!/bin/sh\necho 'fake java: cannot run anything' >&2\nexit 1\n");
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\nMODULES=\"" + modules + "\"\n");
        if (jlink != null) executable(home.resolve("bin/jlink"), "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --output ] && out=$2; shift; done\n" + jlink);
        return home;
    }

    String bundle(String name) {
        return out.resolve(name).toString();
    }

    @Test
    void badOutputsAreRefusedInOneLine() throws IOException {
        oneLineError(run("bundle", "-o", tmp.resolve("missing/b.tar.gz").toString(), "--jar", jar.toString()), "folder " + tmp.resolve("missing") + " does not exist");
        oneLineError(run("bundle", "-o", out.toString(), "--jar", jar.toString()), "is a folder");

        // a link at the output: neither written through nor replaced
        Path victim = Files.writeString(tmp.resolve("victim"), "keep me\n");
        Files.createSymbolicLink(out.resolve("b.tar.gz"), victim);
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString()), "is a symbolic link (to " + victim + ")");
        assertThat(Files.readString(victim)).isEqualTo("keep me\n");
        assertThat(Files.isSymbolicLink(out.resolve("b.tar.gz"))).isTrue();

        oneLineError(run("bundle", "-o", jar.toString(), "--jar", jar.toString()), "is the jar to be bundled");
        assertThat(left()).containsExactly("b.tar.gz");
    }

    @Test
    void theJarMustBeHostsides() throws IOException {
        // the tests run from target/classes: no jar of its own to ship
        oneLineError(run("bundle", "-o", bundle("b.tar.gz")), "hostside runs from compiled classes (" + TestJars.classes() + "), not a jar", "--jar FILE");
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", Files.writeString(tmp.resolve("notes.txt"), "no jar").toString()), "not a jar");
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", TestJars.manifestOnly(tmp.resolve("other.jar"), "org.example.App").toString()),
                "not hostside's jar (its manifest names main class org.example.App, not hostside.cli.Main)");
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", tmp.resolve("none.jar").toString()), "no such file");
        assertThat(left()).isEmpty();
    }

    @Test
    void theRuntimeMustBeJava25() throws IOException {
        Path old = fakeJava("jdk21", "21.0.5", "java.base java.management jdk.httpserver", "exit 0\n");
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", old.toString()), "Java 21; hostside needs Java 25 or newer");
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", tmp.toString()), "no bin/java there");
        assertThat(left()).isEmpty();
    }

    @Test
    void aFailedJlinkIsSaidWithItsErrorAndLeavesNothing() throws IOException {
        Path jdk = fakeJava("jdk", "25.0.3", "java.base java.management jdk.httpserver",
                "mkdir -p \"$out/bin\" && echo partial > \"$out/bin/java\"\necho 'Error: module not found: java.management' >&2\nexit 3\n");
        Result r = run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", jdk.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("hostside: linking a Java 25.0.3 runtime (java.base, java.management, jdk.httpserver) with " + jdk.resolve("bin/jlink") + "...\n")
                .endsWith("hostside: failed: " + jdk.resolve("bin/jlink") + " failed (exit 3): module not found: java.management (HOSTSIDE_DEBUG=1 shows where)\n");
        assertThat(r.out()).isEmpty();
        assertThat(left()).as("no staging folder, no .part").isEmpty();
    }

    @Test
    void ctrlCWhileLinkingStopsJlinkAndLeavesNothing() throws Exception {
        Path pidFile = tmp.resolve("jlink.pid");
        Path jdk = fakeJava("jdk", "25.0.3", "java.base java.management jdk.httpserver",
                "mkdir -p \"$out/lib\" && echo partial > \"$out/lib/modules\"\necho $$ > '" + pidFile + "'\nexec sleep 60\n");
        Process p = new ProcessBuilder(HostsideJvm.command("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", jdk.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(tmp.resolve("stderr.txt").toFile()).start();
        long jlink = -1;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (jlink < 0 && p.isAlive() && System.nanoTime() < deadline) {
                if (Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) jlink = Long.parseLong(Files.readString(pidFile).strip());
                else Thread.sleep(20);
            }
            assertThat(jlink).as("jlink started (stderr: " + Files.readString(tmp.resolve("stderr.txt")) + ")").isPositive();
            assertThat(left()).as("the staging folder while jlink runs").hasSize(1).allMatch(n -> n.startsWith(".b.tar.gz."));
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits on SIGINT").isTrue();
            long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcessHandle.of(jlink).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < gone) Thread.sleep(50);
            assertThat(ProcessHandle.of(jlink).map(ProcessHandle::isAlive).orElse(false)).as("jlink still running").isFalse();
            assertThat(left()).as("left after Ctrl-C").isEmpty();
        } finally {
            p.destroyForcibly();
            if (jlink > 0) ProcessHandle.of(jlink).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aRuntimeWithoutJlinkThatCannotRunElsewhereIsRefused() throws IOException {
        Path jre = fakeJava("jre", "25.0.3", "java.base java.management jdk.httpserver", null);
        Files.createDirectories(jre.resolve("lib/security"));
        Files.createSymbolicLink(jre.resolve("lib/security/cacerts"), Path.of("/etc/ssl/certs/java/cacerts"));
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", jre.toString()),
                "no jlink in " + jre.toRealPath() + ", and it cannot be packed as it is: lib/security/cacerts links outside the runtime (to /etc/ssl/certs/java/cacerts)",
                "run hostside bundle on a JDK 25");

        Path small = fakeJava("small", "25.0.3", "java.base", null);
        oneLineError(run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", small.toString()), "it lacks java.management");
        assertThat(left()).isEmpty();
    }

    @Test
    void aRuntimeWithoutJlinkIsPackedAsItIsAndAFailedTrainingOnlyCostsTheCache() throws IOException {
        Path jre = fakeJava("jre", "25.0.3", "java.base java.management jdk.httpserver", null);
        Files.createDirectories(jre.resolve("legal/java.base"));
        Files.writeString(jre.resolve("legal/java.base/LICENSE"), "license\n");
        Files.createDirectories(jre.resolve("legal/java.management"));
        Files.createSymbolicLink(jre.resolve("legal/java.management/LICENSE"), Path.of("../java.base/LICENSE"));
        Result r = run("bundle", "-o", bundle("b.tar.gz"), "--jar", jar.toString(), "--java-home", jre.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("hostside: no jlink in " + jre.toRealPath() + " (a JRE, or a bundle's runtime): packing it as it is, Java 25.0.3")
                .contains("hostside: no start-up cache (the training run made none (fake java: cannot run anything)); the bundle works without one");
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("startupCache").asBoolean()).isFalse();
        assertThat(j.path("jdk").asText()).isEqualTo("25.0.3");

        List<String> names = new ArrayList<>();
        try (InputStream in = Files.newInputStream(out.resolve("b.tar.gz"));
             TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null;) {
                names.add(e.getName());
                if (e.getName().equals("hostside/runtime/legal/java.management/LICENSE")) assertThat(e.getLinkName()).isEqualTo("../java.base/LICENSE");
                if (e.getName().equals("hostside/runtime/bin/java")) assertThat(e.getMode() & 0777).isEqualTo(0755);
            }
        }
        assertThat(names).contains("hostside/hostside", "hostside/hostside.jar", "hostside/runtime/release", "hostside/runtime/legal/java.management/LICENSE")
                .doesNotContain("hostside/hostside.aot");
        assertThat(String.join("\n", left())).isEqualTo("b.tar.gz");
        assertThat(new File(jre.toFile(), "legal/java.base/LICENSE")).exists();
    }
}
