package hostside.process;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * /proc/PID/limits: one line per resource limit, "Max locked memory  8388608  8388608  bytes".
 *
 * @param limits   by the name the kernel prints ("Max locked memory"), in file order
 * @param unparsed lines that are neither the header nor a limit (a truncated or garbled file)
 */
public record Limits(Map<String, Limit> limits, List<String> unparsed) {
    public static final String MEMLOCK = "Max locked memory";
    public static final String NOFILE = "Max open files";
    public static final String STACK = "Max stack size";
    public static final String NPROC = "Max processes";

    /**
     * One resource limit. "unlimited" (RLIM_INFINITY) is null with the matching flag set, so
     * that a null never has to be guessed at.
     *
     * @param soft          the soft limit (what applies); null when unlimited
     * @param hard          the hard limit (how far an unprivileged process may raise soft); null when unlimited
     * @param unit          bytes, files, seconds...; "" when the kernel prints none
     * @param softUnlimited the soft limit is unlimited
     * @param hardUnlimited the hard limit is unlimited
     */
    public record Limit(Long soft, Long hard, String unit, boolean softUnlimited, boolean hardUnlimited) {
        static Limit of(String soft, String hard, String unit) {
            boolean su = soft.equals("unlimited"), hu = hard.equals("unlimited");
            return new Limit(su ? null : Long.parseLong(soft), hu ? null : Long.parseLong(hard), unit == null ? "" : unit, su, hu);
        }

        /** The soft limit as the kernel compares it: Long.MAX_VALUE when unlimited. */
        public long softOrMax() {
            return softUnlimited ? Long.MAX_VALUE : soft;
        }
    }

    private static final Pattern LINE = Pattern.compile("^(\\S.*?)\\s+(unlimited|\\d{1,19})\\s+(unlimited|\\d{1,19})(?:\\s+([A-Za-z]+))?\\s*$");

    public static Limits parse(String text) {
        Map<String, Limit> out = new LinkedHashMap<>();
        List<String> unparsed = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("Limit ")) continue;
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                unparsed.add(line.strip());
                continue;
            }
            try {
                out.putIfAbsent(m.group(1).strip(), Limit.of(m.group(2), m.group(3), m.group(4)));
            } catch (NumberFormatException e) { // 19 digits above Long.MAX_VALUE
                unparsed.add(line.strip());
            }
        }
        return new Limits(Collections.unmodifiableMap(out), List.copyOf(unparsed));
    }

    public Optional<Limit> get(String name) {
        return Optional.ofNullable(limits.get(name));
    }
}
