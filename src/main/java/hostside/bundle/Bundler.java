package hostside.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

import hostside.core.BadInputException;
import hostside.core.Units;
import hostside.fs.OutputFile;

/**
 * Makes a bundle: hostside's jar, a Java runtime and a launcher in one .tar.gz that runs on a
 * machine without a JDK ({@link BundleArchive} has the layout). The runtime is linked with the
 * JDK's jlink; a runtime without jlink (hostside running from a bundle) is packed as it is, since
 * it is already the jlink image a bundle holds: a bundle can be made again from a bundle. Steps
 * are said through {@code say} as they start and end, with their time.
 */
public final class Bundler {
    /** The launcher's text, a resource beside this class. */
    static final String LAUNCHER = "/hostside/bundle/launcher.sh";

    private final Consumer<String> say;

    public Bundler(Consumer<String> say) {
        this.say = say;
    }

    /**
     * Writes the bundle of {@code jar} with a runtime from {@code java} to {@code output}, whose
     * folder the caller checked (it exists, takes files, has room). Bad input when {@code java}
     * has no jlink and cannot be packed as it is.
     */
    public Bundle make(Path output, HostsideJar jar, JavaHome java) throws IOException {
        long began = System.nanoTime();
        Path out = output.toAbsolutePath();
        Optional<Path> jlink = java.jlink();
        RuntimeTree packed = null;
        if (jlink.isEmpty()) packed = asItIs(java, out);

        try (Staging staging = Staging.create(out.getParent(), out.getFileName().toString())) {
            RuntimeTree runtime = jlink.isPresent() ? link(jlink.get(), java, staging) : packed;
            // a jlink image's release file lists its modules, and so does a JDK's or a JRE's
            List<String> modules = jlink.isPresent() ? JavaHome.of(runtime.root(), "the linked runtime").modules() : java.modules();

            // The jar beside the runtime as in the bundle, with the time every entry will carry:
            // the cache is trained on the jar where and as it will lie.
            long time = Files.getLastModifiedTime(jar.path()).toMillis() / 1000 * 1000;
            Path stagedJar = staging.resolve("hostside.jar");
            Files.copy(jar.path(), stagedJar, StandardCopyOption.COPY_ATTRIBUTES);
            Files.setLastModifiedTime(stagedJar, FileTime.fromMillis(time));
            Optional<Path> cache = startupCache(runtime.root().resolve("bin/java"), stagedJar, staging);

            byte[] launcher;
            try (InputStream in = Bundler.class.getResourceAsStream(LAUNCHER)) {
                if (in == null) throw new IOException("the launcher " + LAUNCHER + " is missing from hostside's jar");
                launcher = in.readAllBytes();
            }
            String readme = Readme.of(jar.version(), java, jlink.isPresent(), modules, cache.isPresent());
            var parts = new BundleArchive.Parts(launcher, readme, stagedJar, cache, runtime, time);

            say.accept("writing " + output + "...");
            long t0 = System.nanoTime();
            MessageDigest sha = sha256();
            try {
                OutputFile.write(out, file -> BundleArchive.write(new DigestOutputStream(file, sha), parts));
            } catch (IOException e) {
                throw new IOException(output + ": cannot write (" + OutputFile.reason(e) + ")", e);
            }
            long bytes = Files.size(out);
            say.accept("written in " + seconds(t0) + "; " + seconds(began) + " in all");
            return new Bundle(out.toString(), bytes, HexFormat.of().formatHex(sha.digest()), java.version(), modules, jar.version(), cache.isPresent());
        }
    }

    /** Links the bundle's runtime with {@code jlink}, of the JDK {@code java}, into the staging folder. */
    private RuntimeTree link(Path jlink, JavaHome java, Staging staging) throws IOException {
        say.accept("linking a Java " + java.version() + " runtime (" + String.join(", ", Jlink.MODULES) + ") with " + jlink + "...");
        long t0 = System.nanoTime();
        Path linked = staging.resolve("runtime");
        Jlink.link(jlink, Jlink.MODULES, linked, staging);
        RuntimeTree runtime = RuntimeTree.scan(linked);
        say.accept("linked in " + seconds(t0) + ": " + Units.bytes(runtime.bytes()) + " in " + runtime.files() + " files");
        return runtime;
    }

    /**
     * The runtime {@code java} as it is, where it has no jlink: checked whole before anything is
     * written, and refused in one line where it cannot run elsewhere or lacks a module.
     */
    private RuntimeTree asItIs(JavaHome java, Path out) throws IOException {
        Path root = java.path().toRealPath();
        String why = "no jlink in " + root;
        if (out.getParent().toRealPath().startsWith(root)) {
            throw new BadInputException("-o " + out + ": inside the runtime to be packed (" + root + "); write the bundle elsewhere");
        }
        List<String> missing = Jlink.MODULES.stream().filter(m -> !java.modules().contains(m)).toList();
        if (!java.modules().isEmpty() && !missing.isEmpty()) {
            throw new BadInputException(why + ", and it lacks " + String.join(", ", missing) + ": run hostside bundle on a JDK 25 (JAVA_HOME=/path/to/jdk ./hostside bundle)");
        }
        RuntimeTree tree;
        try {
            tree = RuntimeTree.scan(root);
        } catch (RuntimeTree.Unfit e) {
            throw new BadInputException(why + ", and it cannot be packed as it is: " + e.getMessage()
                    + "; run hostside bundle on a JDK 25 (JAVA_HOME=/path/to/jdk ./hostside bundle)");
        }
        say.accept(why + " (a JRE, or a bundle's runtime): packing it as it is, Java " + java.version() + " ("
                + (java.modules().isEmpty() ? "its modules unknown" : String.join(", ", java.modules())) + "), " + Units.bytes(tree.bytes()));
        return tree;
    }

    /** Trains the start-up cache; a bundle without one still works, a little slower to start, so a failure is said and passed over. */
    private Optional<Path> startupCache(Path java, Path jar, Staging staging) throws IOException {
        say.accept("training the start-up cache (one run of machine --json --no-measure, about 5 s)...");
        long t0 = System.nanoTime();
        Path cache = staging.resolve("hostside.aot");
        Optional<String> why = StartupCache.train(java, jar, cache, staging);
        if (why.isPresent()) {
            say.accept("no start-up cache (" + why.get() + "); the bundle works without one, ~0.3 s slower to start");
            return Optional.empty();
        }
        Files.setLastModifiedTime(cache, Files.getLastModifiedTime(jar));
        say.accept("start-up cache ready in " + seconds(t0) + " (" + Units.bytes(Files.size(cache)) + ")");
        return Optional.of(cache);
    }

    private static String seconds(long startNanos) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startNanos) / 1e9);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }
}
