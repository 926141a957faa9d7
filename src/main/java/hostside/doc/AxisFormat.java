package hostside.doc;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

import hostside.core.Unit;
import hostside.core.Units;

/**
 * How a plot's values are written, by their {@link Unit}: the one place the three renderers
 * take them from, so a tick label in the SVG reads exactly as the same value in the text table.
 * Every number is written with {@link Locale#ROOT}: a German desktop must not get "12,5 GB/s".
 */
public final class AxisFormat {
    private AxisFormat() {}

    /** One value with its unit: "4 KiB", "12.3 GB/s", "850 ns", "1.25 us", "120", "99.5%". */
    public static String value(double v, Unit unit) {
        if (!Double.isFinite(v)) return "n/a";
        return switch (unit) {
            // sizes are whole bytes; a tick at 2^20 must read "1 MiB", not "1048576 bytes"
            case BYTES -> Units.bytes(Math.round(v));
            // one decimal, as Units.gbps and every drill's table write bandwidth
            case GB_PER_S -> String.format(Locale.ROOT, "%.1f GB/s", v);
            case COUNT -> number(v);
            case PERCENT -> number(v) + "%";
            case GBIT_PER_S, NS, US, MS, S, IOPS, MS_PER_GIB, KIB, MIB, GIB, TIB -> number(v) + " " + unit.symbol;
        };
    }

    /**
     * A spread, min..max: "11.9..12.5 GB/s". The unit is written once when both ends share it, and
     * twice when they do not ("512 KiB..1 MiB").
     */
    public static String range(double low, double high, Unit unit) {
        String lo = value(low, unit);
        String hi = value(high, unit);
        int a = lo.lastIndexOf(' ');
        int b = hi.lastIndexOf(' ');
        if (a > 0 && b > 0 && lo.substring(a).equals(hi.substring(b))) lo = lo.substring(0, a);
        else if (unit == Unit.PERCENT && lo.endsWith("%")) lo = lo.substring(0, lo.length() - 1);
        return lo + ".." + hi;
    }

    /**
     * A bare number, as short as its size allows: whole from 100 up (like {@link Units#figure}), at
     * most two decimals from 1, three significant digits below 1 (a tick at 0.005 ms must not read
     * "0.00"). Trailing zeros go, so ticks read "0.5", "1", "1.5" rather than "0.50", "1.00".
     */
    public static String number(double v) {
        if (!Double.isFinite(v)) return "n/a";
        double a = Math.abs(v);
        String s;
        if (a >= 100) s = String.format(Locale.ROOT, "%.0f", v);
        else if (a >= 1) s = String.format(Locale.ROOT, "%.2f", v);
        else if (a == 0) s = "0";
        else s = new BigDecimal(v).round(new MathContext(3)).toPlainString();
        if (s.contains(".")) s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        return s.equals("-0") ? "0" : s;
    }
}
