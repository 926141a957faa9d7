package hostside.testing;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;

/**
 * Tools a test needs from the machine (python3, unshare, root). CI has them all, so there a
 * missing one fails the test; elsewhere the test is skipped and says what it lacked.
 */
public final class Tools {
    private Tools() {}

    public static Path onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(d.isEmpty() ? "." : d, tool);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** Fails in CI, skips elsewhere, when {@code ok} is false. */
    public static void require(boolean ok, String what) {
        if (ok) return;
        String message = "this test needs " + what + ", which CI has";
        if ("true".equals(System.getenv("CI"))) fail(message);
        Assumptions.abort(message);
    }

    public static void requireTool(String tool) {
        require(onPath(tool) != null, tool + " on the PATH");
    }

    public static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
