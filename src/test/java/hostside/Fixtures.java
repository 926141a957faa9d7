package hostside;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the shared fixtures are: ../shared beside the project (CI lays it there too). */
public final class Fixtures {
    private Fixtures() {}

    public static Path shared() {
        Path p = Path.of(System.getProperty("hostside.shared", "../shared")).toAbsolutePath().normalize();
        if (!Files.isDirectory(p.resolve("fixtures"))) {
            throw new IllegalStateException("shared fixtures not found at " + p + " (set -Dhostside.shared)");
        }
        return p;
    }

    public static Path hwloc() {
        return shared().resolve("fixtures/hwloc");
    }

    public static Path h200() {
        return shared().resolve("fixtures/h200/sysfs.tar.gz");
    }
}
