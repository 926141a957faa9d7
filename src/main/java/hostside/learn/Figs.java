package hostside.learn;

import java.util.Locale;

import hostside.core.Unit;
import hostside.core.Units;

/** A figure in the unit a frame quotes it in (a report's ns shown as us), and plain numbers, three significant figures. */
public final class Figs {
    private Figs() {}

    /** {@code v} converted to {@code unit} where both are times (ns, us, ms, s) or sizes (bytes, KiB, MiB, GiB); else as it is. */
    public static Inputs.Value in(Inputs.Value v, Unit unit) {
        return v.in(unit);
    }

    /** Three significant figures. */
    public static String n(double v) {
        return Units.sig3(v);
    }

    /** A ratio as "1.01x". */
    public static String x(double ratio) {
        return Units.sig3(ratio) + "x";
    }

    /** A share in percent, "1.36%"; a share below 0.001% as "under 0.001%". */
    public static String pct(double percent) {
        return percent > 0 && percent < 0.001 ? "under 0.001%" : Units.sig3(percent) + "%";
    }

    /** A share figure as "1.36% (measured here)", the source as {@link Inputs.Value#shown()} writes it. */
    public static String pct(Inputs.Value v) {
        return pct(v.value()) + " " + source(v);
    }

    /** "(measured here)", "(typical, not this machine: NOTE)": the source part of {@link Inputs.Value#shown()}. */
    public static String source(Inputs.Value v) {
        return "(" + v.source().words + (v.note() == null || v.note().isEmpty() ? "" : ": " + v.note()) + ")";
    }

    /** A rate as "10,000". */
    public static String count(double v) {
        return String.format(Locale.ROOT, "%,d", Math.round(v));
    }

    /** b / a, or 1 where a is not a positive number (no division by zero reaches a frame). */
    public static double ratio(double b, double a) {
        return a > 0 ? b / a : 1;
    }

    public static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
