package hostside.core;

import java.util.Locale;

/** Sizes in binary units (KiB, MiB, GiB), bandwidth in GB/s (10^9 bytes), as the field writes them. */
public final class Units {
    private Units() {}

    /** What a fact that was not read, or could not be, reads as. */
    public static final String UNKNOWN = "unknown";

    /** A value that may be unread: its text, or {@link #UNKNOWN} for null. */
    public static String orUnknown(Object value) {
        return value == null ? UNKNOWN : value.toString();
    }

    /** 1536 as "1.5 KiB"; null as {@link #UNKNOWN}. */
    public static String bytes(Long b) {
        if (b == null) return UNKNOWN;
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = b;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        if (u == 0) return b + " bytes";
        String n = String.format(Locale.ROOT, "%.1f", v);
        return (n.endsWith(".0") ? n.substring(0, n.length() - 2) : n) + " " + units[u];
    }

    /** A share (0 to 1) as a whole percentage: 0.884 as "88%". */
    public static String share(double share) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    /** A percentage as the field writes one: whole from 10 up and where whole ("98%", "5%"), one decimal below ("0.3%"). */
    public static String percent(double percent) {
        return (Math.abs(percent) >= 10 || percent == Math.rint(percent) ? String.format(Locale.ROOT, "%.0f", percent)
                : String.format(Locale.ROOT, "%.1f", percent)) + "%";
    }

    /** "1 thread", "3 threads"; {@code many} where the plural is not the noun and an s. */
    public static String plural(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    public static String plural(long n, String one) {
        return plural(n, one, one + "s");
    }

    /** Three significant figures, trailing zeros dropped: 55.33 as 55.3, 0.17304 as 0.173, 1189.1 as 1190. */
    public static String sig3(double v) {
        if (v == 0) return "0";
        if (Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(v);
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A measured figure: whole numbers from 100 up, two decimals below. */
    public static String figure(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /**
     * A measured value as its unit deserves: sizes in bytes in binary units ("2 MiB"), operations
     * per second whole with thousands marked ("412,300"), the rest as {@link #figure}.
     */
    public static String value(Unit unit, double v) {
        return switch (unit) {
            case BYTES -> bytes(Math.round(v));
            case IOPS -> String.format(Locale.ROOT, "%,.0f", v);
            default -> figure(v);
        };
    }

    /** "55.4 (55.0-55.6)": a median and the range of the samples, each as {@link #figure}. */
    public static String withRange(double median, double min, double max) {
        return figure(median) + " (" + figure(min) + "-" + figure(max) + ")";
    }

    public static String gbps(double gbPerSecond) {
        return String.format(Locale.ROOT, "%.1f GB/s", gbPerSecond);
    }
}
