package hostside.report;

import hostside.core.Printable;

/**
 * How a line about a report quotes what the report holds: numbers short, as written, and strings
 * cut and made printable. A report comes from another machine; its values are quoted, never
 * reprinted. {@link ReportChecks} and {@link JsonFaults} both say what they refused in these words.
 */
final class Quoted {
    private Quoted() {}

    /**
     * A number from a report as a message shows it: the shortest that reads back as it (Java's,
     * as the report was written), a whole one without ".0", a large or small one with its
     * exponent: 55.2, -150, 1e-320, 1.2345678901234568e29, -0. Never a number padded to its
     * hundreds of digits (1e300 in full), nor one rounded to look whole (1.23e29 as 123000...).
     */
    static String number(double v) {
        if (v == 0) return Math.copySign(1.0, v) < 0 ? "-0" : "0";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        String s = Double.toString(v); // 55.2, 1.0E-320, 1.2345678901234568E29, Infinity
        return s.replace(".0E", "E").replace('E', 'e');
    }

    /** A string from the report, quoted as {@link #visible}. */
    static String quoted(String s) {
        return "\"" + visible(s) + "\"";
    }

    /** A string from the report as a terminal may show it ({@link Printable}), cut at 200 characters: a message quotes, it does not reprint. */
    static String visible(String s) {
        String cut = s.length() > 200 ? s.substring(0, 200) + "..." : s;
        return Printable.of(cut);
    }
}
