package hostside.harness;

import java.util.Locale;
import java.util.Optional;

/**
 * An option's value that hostside cut to fit the machine ({@code vm --anon-size 1T}, {@code cpu
 * --dataset-size 1T}): what was asked, what was used instead, and why. The detail record of a
 * case whose size can be cut holds it ({@link Holder}, as "cut" in the JSON: {@code {"option",
 * "asked", "used", "why"}}), and the documents print {@link #text()}: a figure measured over less
 * than was asked must say so.
 *
 * @param option the option as typed ("--anon-size")
 * @param asked  bytes asked for
 * @param used   bytes used
 * @param why    the bound, with its figure ("a quarter of available memory (5.8 GiB of 23.2 GiB)")
 */
public record Cut(String option, long asked, long used, String why) {

    /** A cut where {@code used} is below {@code asked}; empty where the value was used as asked. */
    public static Optional<Cut> of(String option, long asked, long used, String why) {
        return used < asked ? Optional.of(new Cut(option, asked, used, why)) : Optional.empty();
    }

    /** A detail that may say an option was cut: the record of a case whose size the user can ask for. */
    public interface Holder extends Detail {
        /** The cut, or null where the option was used as asked. */
        Cut cut();
    }

    /** The cut a result's detail holds, if any. */
    public static Optional<Cut> in(Result r) {
        return r.detail() instanceof Holder h ? Optional.ofNullable(h.cut()) : Optional.empty();
    }

    /** "--anon-size 1.0 TiB asked, 5.8 GiB used: a quarter of available memory (...)" */
    public String text() {
        return option + " " + size(asked) + " asked, " + size(used) + " used: " + why;
    }

    /** Binary units, one decimal above KiB, Locale.ROOT (a figure in a sentence, not a table cell). */
    public static String size(long bytes) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
