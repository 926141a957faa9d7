package hostside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes of bench/ are built with every build, so that a change to hostside's classes that
 * breaks one fails here instead of on the day someone runs it: the Java probes (bench/java) are
 * compiled against the main classes, with the build's own lint options and warnings as errors, and
 * the C probes (bench/c) with gcc -Wall -Werror, as bench/run builds them. Nothing is run: what
 * they measure is for bench/run on a real machine. The CUDA probe (bench/cuda) needs nvcc, which
 * CI has not; the findings scenario builds it on the GPU machine.
 */
class BenchProbesTest {
    static final Path JAVA = Path.of("bench/java");
    static final Path C = Path.of("bench/c");

    @Test
    void theJavaProbesCompileAgainstTheMainClasses(@TempDir Path classes) {
        List<Path> sources = files(JAVA, ".java");
        assertTrue(sources.size() >= 3, "the Java probes were not found under " + JAVA.toAbsolutePath() + ": " + sources);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(),
                    "-proc:none", "-Xlint:all,-serial,-processing", "-Werror");
            boolean ok = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources)).call();
            List<String> said = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                said.add(d.getKind() + " " + (d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ")
                        + d.getMessage(Locale.ROOT));
            }
            assertEquals(List.of(), said, "javac's diagnostics for bench/java");
            assertTrue(ok, "javac failed on bench/java");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(Files.isRegularFile(classes.resolve("hostside/memory/TeamOverhead.class")), "TeamOverhead was not compiled in its package");
    }

    @Test
    void theCProbesCompileWithoutAWarning(@TempDir Path out) throws Exception {
        List<Path> sources = files(C, ".c");
        assertTrue(sources.size() >= 3, "the C probes were not found under " + C.toAbsolutePath() + ": " + sources);
        List<String> failed = new ArrayList<>();
        for (Path source : sources) {
            String name = source.getFileName().toString().replace(".c", "");
            // -fopenmp for memref's read pass; -lpthread for refs' ping-pong threads: as bench/run builds them
            List<String> command = List.of("gcc", "-O2", "-Wall", "-Werror", "-fopenmp", "-o", out.resolve(name).toString(),
                    source.toString(), "-lpthread");
            Process gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(gcc.waitFor(120, TimeUnit.SECONDS), "gcc took over two minutes on " + source);
            if (gcc.exitValue() != 0) failed.add(String.join(" ", command) + "\n" + said);
        }
        assertEquals(List.of(), failed, "C probes that gcc refuses");
    }

    static List<Path> files(Path root, String suffix) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix) && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
