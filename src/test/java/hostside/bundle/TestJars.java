package hostside.bundle;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import hostside.cli.Main;

/**
 * Jars for the bundle's tests. {@code mvn test} runs before {@code package}, so a clean clone has
 * no target/hostside.jar: the tests make their own from target/classes and the jars those classes
 * reach, as the shade plugin does, found by jdeps (run in this JVM) rather than listed by hand.
 */
public final class TestJars {
    private TestJars() {}

    private static List<String[]> dependencies;

    /** hostside's compiled classes. */
    public static Path classes() {
        try {
            return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code jdeps -R -summary} of hostside's classes over this JVM's class path: each line's
     * {@code [from, to]}, {@code to} a jar's path or a module's name. "classes" is hostside's own.
     */
    public static synchronized List<String[]> dependencies() {
        if (dependencies != null) return dependencies;
        String cp = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator)).filter(p -> p.endsWith(".jar"))
                .reduce((a, b) -> a + File.pathSeparator + b).orElse("");
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("the tests need a JDK with jdeps"));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = jdeps.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "-R", "-summary", "--multi-release", "25", "--ignore-missing-deps", "--class-path", cp, classes().toString());
        if (code != 0) throw new IllegalStateException("jdeps failed: " + err.toString(StandardCharsets.UTF_8));
        List<String[]> deps = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
            String[] parts = line.strip().split("\\s+->\\s+");
            if (parts.length == 2) deps.add(parts);
        }
        dependencies = List.copyOf(deps);
        return dependencies;
    }

    /**
     * A runnable hostside jar at {@code file}: target/classes and every jar they reach, merged,
     * with the shaded jar's manifest and {@code version} as its Implementation-Version.
     */
    public static Path hostside(Path file, String version) throws IOException {
        List<Path> jars = dependencies().stream().map(d -> d[1]).filter(t -> t.endsWith(".jar")).distinct().map(Path::of).toList();
        Manifest m = manifest(HostsideJar.MAIN_CLASS);
        m.getMainAttributes().putValue("Enable-Native-Access", "ALL-UNNAMED");
        m.getMainAttributes().putValue("Implementation-Version", version);
        Set<String> seen = new HashSet<>();
        Files.createDirectories(file.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(file), m)) {
            seen.add(JarFile.MANIFEST_NAME);
            Path classes = classes();
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                    try (InputStream in = Files.newInputStream(p)) {
                        put(out, seen, classes.relativize(p).toString().replace('\\', '/'), in);
                    }
                }
            }
            for (Path jar : jars) {
                try (JarFile j = new JarFile(jar.toFile())) {
                    for (JarEntry e : j.stream().filter(e -> !e.isDirectory()).toList()) {
                        try (InputStream in = j.getInputStream(e)) {
                            put(out, seen, e.getName(), in);
                        }
                    }
                }
            }
        }
        return file;
    }

    /** As the shade plugin's filters: no signatures and no module descriptors; the first of a name wins. */
    private static void put(JarOutputStream out, Set<String> seen, String name, InputStream in) throws IOException {
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        if (name.endsWith("module-info.class") || upper.startsWith("META-INF/") && (upper.endsWith(".SF") || upper.endsWith(".DSA") || upper.endsWith(".RSA"))) return;
        if (!seen.add(name)) return;
        out.putNextEntry(new JarEntry(name));
        in.transferTo(out);
        out.closeEntry();
    }

    /** A jar that holds nothing but a manifest naming {@code mainClass}: enough for the checks made before anything runs. */
    public static Path manifestOnly(Path file, String mainClass) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream o = Files.newOutputStream(file); JarOutputStream out = new JarOutputStream(o, manifest(mainClass))) {
            out.putNextEntry(new JarEntry("README"));
            out.write("a test jar\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return file;
    }

    private static Manifest manifest(String mainClass) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        return m;
    }
}
