package hostside.harness;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of hostside's test files: {@code hostside-DRILL-ID.tmp} for the data (or
 * {@code hostside-DRILL-ID.d}, a {@link ScratchFolder}) and {@code hostside-DRILL-ID.lock} beside
 * it, ID being 64 random bits in hex. Never the PID: two
 * containers, two PID namespaces or two hosts on shared storage have the same PIDs, and two runs
 * must never reach for one file. The fixed shape is what the stale-file sweep recognises as ours;
 * it ignores everything else, the PID-named files of older versions included (their owner cannot
 * be told from a stranger's file of that name).
 */
final class TestFileName {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern DRILL = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*");
    static final String PROBE = "probe";
    /** drill, id, and tmp, d or lock. */
    static final Pattern OURS = Pattern.compile("hostside-(" + DRILL.pattern() + ")-([0-9a-f]{16})\\.(tmp|d|lock)");

    private TestFileName() {}

    static String randomId() {
        return HexFormat.of().toHexDigits(RANDOM.nextLong());
    }

    static String data(String drill, String id) {
        return "hostside-" + checked(drill, id) + ".tmp";
    }

    static String lock(String drill, String id) {
        return "hostside-" + checked(drill, id) + ".lock";
    }

    static String folder(String drill, String id) {
        return "hostside-" + checked(drill, id) + ".d";
    }

    static String probe(String id) {
        return data(PROBE, id);
    }

    /** The parts of a name of ours: drill, id, tmp, d or lock; null for any other name. */
    static Matcher parse(String fileName) {
        Matcher m = OURS.matcher(fileName);
        return m.matches() ? m : null;
    }

    private static String checked(String drill, String id) {
        if (!DRILL.matcher(drill).matches() || !id.matches("[0-9a-f]{16}")) {
            throw new IllegalArgumentException("test file name parts: " + drill + ", " + id);
        }
        return drill + "-" + id;
    }
}
