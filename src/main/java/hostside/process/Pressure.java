package hostside.process;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * One PSI file, /proc/pressure/{cpu,memory,io}: the share of wall time in which some runnable
 * task (some), or every non-idle task at once (full), waited for the resource. avg10/60/300 are
 * the kernel's own running averages in percent; total is the stall time in microseconds since
 * boot, so its growth over a window gives the share of that window exactly.
 *
 * @param full null where the file has no "full" line (cpu before Linux 5.13)
 */
public record Pressure(Line some, Line full) {
    /** The resources PSI reports on, each a file /proc/pressure/NAME; written as that name in JSON. */
    public enum Resource {
        CPU, MEMORY, IO;

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        @JsonCreator
        public static Resource parse(String s) {
            for (Resource r : values()) if (r.json().equals(s)) return r;
            throw new IllegalArgumentException("\"" + s + "\" is not a PSI resource (cpu, memory, io)");
        }

        public String path() {
            return "/proc/pressure/" + json();
        }

        @Override
        public String toString() {
            return json();
        }
    }

    public record Line(double avg10, double avg60, double avg300, long totalUs) {}

    public static Pressure parse(String text) {
        Line some = null, full = null;
        for (String line : text.strip().split("\n")) {
            String l = line.strip();
            if (l.isEmpty()) continue;
            int sp = l.indexOf(' ');
            String kind = sp < 0 ? l : l.substring(0, sp);
            if (!kind.equals("some") && !kind.equals("full")) throw garbage(text);
            Line parsed = line(l.substring(sp + 1), text);
            if (kind.equals("some")) some = parsed;
            else full = parsed;
        }
        if (some == null) throw garbage(text);
        return new Pressure(some, full);
    }

    private static Line line(String fields, String text) {
        Double a10 = null, a60 = null, a300 = null;
        Long total = null;
        for (String kv : fields.strip().split("\\s+")) {
            int eq = kv.indexOf('=');
            if (eq < 0) throw garbage(text);
            String k = kv.substring(0, eq), v = kv.substring(eq + 1);
            try {
                switch (k) {
                    case "avg10" -> a10 = percent(v, text);
                    case "avg60" -> a60 = percent(v, text);
                    case "avg300" -> a300 = percent(v, text);
                    case "total" -> total = FactReads.parseNumber(v);
                    default -> { } // a field a later kernel may add
                }
            } catch (NumberFormatException e) {
                throw garbage(text);
            }
        }
        if (a10 == null || a60 == null || a300 == null || total == null) throw garbage(text);
        return new Line(a10, a60, a300, total);
    }

    private static double percent(String v, String text) {
        double d = Double.parseDouble(v);
        if (!(d >= 0 && d <= 100)) throw garbage(text);
        return d;
    }

    private static GarbageException garbage(String text) {
        return new GarbageException("not a PSI file: \"" + FactReads.shown(text) + "\"");
    }
}
