package hostside.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A name as a compromised node would write it into its report or its /proc: OSC 52 (writes the
 * reader's clipboard), CSI 2J (clears the screen), a C1 CSI, a right-to-left override, DEL, and a
 * line break that forges a line of hostside's own. What hostside must show instead, and the check
 * that none of these characters reached an output (written here without hostside's sanitizer, so
 * the test does not grade the code with itself).
 */
public final class Hostile {
    private Hostile() {}

    /** The line a planted line break would forge. */
    public static final String FORGED = "hostside: all checks ok";
    /** What a single-line source (a /proc/cpuinfo field) can hold. */
    public static final String ONE_LINE = "EVIL\u001b]52;c;SGVsbG8=\u0007\u001b[2J\u009b31m\u202e\u007f";
    /** What a report's JSON can hold: a line break too, and the line it forges. */
    public static final String NAME = ONE_LINE + "\n" + FORGED;

    /** {@link #ONE_LINE} as it must be shown: each hidden character a visible escape. */
    public static final String SHOWN = "EVIL\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\u009b31m\\u202e\\x7f";

    /** C0 but the line feed (the outputs' own line breaks), DEL, C1, the bidi controls and U+2028/U+2029. */
    private static final Pattern HIDDEN = Pattern.compile("[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]");

    /** No hidden character, and no line forged by a planted line break. */
    public static void assertNothingHidden(String what, String output) {
        Matcher m = HIDDEN.matcher(output);
        if (m.find()) {
            int from = Math.max(0, m.start() - 40), to = Math.min(output.length(), m.end() + 40);
            throw new AssertionError(String.format(java.util.Locale.ROOT, "%s holds U+%04X at %d: ...%s...", what, (int) output.charAt(m.start()), m.start(),
                    output.substring(from, to).replace("\u001b", "<ESC>")));
        }
        assertThat(output.lines()).as(what + ": a line forged by a planted line break").noneMatch(l -> l.strip().startsWith(FORGED));
    }
}
