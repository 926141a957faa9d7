package hostside.bundle;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import hostside.core.BadInputException;

/** The jar a bundle ships: hostside's own (its manifest names hostside's main class), with its version. */
public record HostsideJar(Path path, String version) {
    /** The main class the launcher's {@code java -jar} must start. */
    static final String MAIN_CLASS = "hostside.cli.Main";

    /**
     * The jar hostside runs from, found from where {@code mainClass} was loaded. Run from compiled
     * classes (an IDE, the tests) there is no jar to ship, and the user is told how to make one.
     */
    public static HostsideJar running(Class<?> mainClass) {
        var source = mainClass.getProtectionDomain().getCodeSource();
        URL where = source == null ? null : source.getLocation();
        if (where == null) {
            // A class from an AOT cache trained on the jar at another path (a bundle, unpacked
            // elsewhere) has no code source on JDK 25; under java -jar the class path is the jar.
            String cp = System.getProperty("java.class.path", "");
            if (cp.endsWith(".jar") && !cp.contains(java.io.File.pathSeparator) && Files.isRegularFile(Path.of(cp))) return of(Path.of(cp), "hostside's jar");
            throw new BadInputException("cannot tell which jar hostside runs from: give it with --jar FILE");
        }
        Path p;
        try {
            p = Path.of(where.toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new BadInputException("hostside runs from " + where + ", not a jar file: give the jar with --jar FILE");
        }
        if (Files.isDirectory(p)) {
            throw new BadInputException("hostside runs from compiled classes (" + p + "), not a jar: run ./hostside bundle (it builds the jar),"
                    + " or give one with --jar FILE");
        }
        return of(p, "hostside's jar");
    }

    /** The jar at {@code path}; bad input, named after {@code what}, if it is not hostside's. */
    public static HostsideJar of(Path path, String what) {
        if (!Files.isRegularFile(path)) throw new BadInputException(what + " " + path + ": no such file");
        Manifest m;
        try (JarFile jar = new JarFile(path.toFile())) {
            m = jar.getManifest();
        } catch (IOException e) {
            throw new BadInputException(what + " " + path + ": not a jar (" + (e.getMessage() == null ? "unreadable" : e.getMessage()) + ")");
        }
        String main = m == null ? null : m.getMainAttributes().getValue("Main-Class");
        if (!MAIN_CLASS.equals(main)) {
            throw new BadInputException(what + " " + path + ": not hostside's jar (its manifest names " + (main == null ? "no main class" : "main class " + main)
                    + ", not " + MAIN_CLASS + ")");
        }
        String v = m.getMainAttributes().getValue("Implementation-Version");
        return new HostsideJar(path.toAbsolutePath(), v == null || v.isBlank() ? "dev" : v);
    }
}
