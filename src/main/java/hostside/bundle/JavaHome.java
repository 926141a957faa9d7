package hostside.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.core.BadInputException;

/**
 * A Java runtime's folder: a JDK whose jlink makes the bundle's runtime, or a runtime without
 * jlink that is packed as it is. What it is comes from its {@code release} file, which every JDK
 * and every jlink image has, without starting it.
 */
public record JavaHome(Path path, Map<String, String> release) {
    /** The runtime hostside runs on now. */
    public static JavaHome running() {
        return of(Path.of(System.getProperty("java.home")), "java.home");
    }

    /** The runtime at {@code path}; bad input, named after {@code option}, if it is none. */
    public static JavaHome of(Path path, String option) {
        Path home = path.toAbsolutePath().normalize();
        if (!Files.isExecutable(home.resolve("bin/java"))) throw new BadInputException(option + " " + path + ": no bin/java there, so not a Java runtime");
        Map<String, String> release = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                int eq = line.indexOf('=');
                if (eq > 0) release.put(line.substring(0, eq).strip(), unquote(line.substring(eq + 1).strip()));
            }
        } catch (IOException e) {
            // a runtime without a release file: its version is not known, which feature() refuses below
        }
        JavaHome h = new JavaHome(home, Map.copyOf(release));
        if (h.feature() < 25) {
            throw new BadInputException(option + " " + path + ": " + (h.feature() == 0 ? "no release file says its Java version" : "Java " + h.feature())
                    + "; hostside needs Java 25 or newer");
        }
        return h;
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    /** The feature release (25 for 25.0.3), 0 when the release file does not say. */
    public int feature() {
        String v = release.getOrDefault("JAVA_VERSION", "");
        if (v.startsWith("1.")) v = v.substring(2);
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) end++;
        return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
    }

    /** Its jlink, where it has one: a JDK does, a JRE or a jlink image (a bundle's runtime) does not. */
    public Optional<Path> jlink() {
        Path j = path.resolve("bin/jlink");
        return Files.isRegularFile(j) && Files.isExecutable(j) ? Optional.of(j) : Optional.empty();
    }

    /** The modules it holds, from its release file. */
    public List<String> modules() {
        String m = release.getOrDefault("MODULES", "").strip();
        return m.isEmpty() ? List.of() : Arrays.asList(m.split("\\s+"));
    }

    /**
     * The full version, as {@code java -version} says it (25.0.3+9-LTS). A JDK's release file has
     * it; a jlink image's has only JAVA_VERSION, so for the runtime running now it is asked.
     */
    public String version() {
        String v = release.get("JAVA_RUNTIME_VERSION");
        if (v != null && !v.isBlank()) return v;
        if (isRunning()) return Runtime.version().toString();
        return release.getOrDefault("JAVA_VERSION", "unknown");
    }

    /** Whose build it is (Temurin-25.0.3+9), or empty when not known. */
    public String vendor() {
        String v = release.get("IMPLEMENTOR_VERSION");
        if (v != null && !v.isBlank()) return v;
        if (isRunning()) return Optional.ofNullable(System.getProperty("java.vendor.version")).orElse("");
        return release.getOrDefault("IMPLEMENTOR", "");
    }

    /**
     * The machines it runs on (x86_64, aarch64): its native code is built for one architecture,
     * so a bundle made on an x86_64 machine does not run on a Grace node.
     */
    public String arch() {
        String a = release.get("OS_ARCH");
        if (a != null && !a.isBlank()) return a;
        return isRunning() ? System.getProperty("os.arch", "unknown") : "unknown";
    }

    /** Whether this is the runtime hostside runs on now. */
    public boolean isRunning() {
        try {
            return Files.isSameFile(path, Path.of(System.getProperty("java.home")));
        } catch (IOException e) {
            return false;
        }
    }
}
