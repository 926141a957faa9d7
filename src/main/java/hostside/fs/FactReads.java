package hostside.fs;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Typed reads for a facts reader: each failed or garbled read becomes one line in the reader's
 * unknowns ("path: not a number: \"lots\""), never an exception, so a recording with garbage in
 * one file still gives every other fact.
 */
public final class FactReads {
    private static final Pattern UNSIGNED = Pattern.compile("\\d{1,19}");
    private static final Pattern SIGNED = Pattern.compile("-?\\d{1,18}");
    private final FsRoot fs;
    private final List<String> unknowns;

    /** {@code unknowns} is the reader's own list; this adds to it. */
    public FactReads(FsRoot fs, List<String> unknowns) {
        this.fs = fs;
        this.unknowns = unknowns;
    }

    /** The trimmed text; a failed read leaves an unknown unless the file is optional and simply missing. */
    public Optional<String> text(String path, boolean expected) {
        return text(fs.read(path), expected);
    }

    /** ... of a file another reader read ({@link KernelVersion}), its failure kept among these unknowns as if read here. */
    public Optional<String> text(Read r, boolean expected) {
        if (r instanceof Read.Failed f) {
            if (expected || !f.reason().equals("missing")) unknowns.add(r.why());
            return Optional.empty();
        }
        return r.trimmed();
    }

    /** A count or size: digits only. */
    public Long number(String path, boolean expected) {
        Optional<String> t = text(path, expected);
        if (t.isEmpty()) return null;
        Long v = parseNumber(t.get());
        if (v == null) garbage(path, "not a number", t.get());
        return v;
    }

    /** A value that may be negative (-1 often means "unlimited" or "off"). */
    public Long signed(String path, boolean expected) {
        Optional<String> t = text(path, expected);
        if (t.isEmpty()) return null;
        if (!SIGNED.matcher(t.get()).matches()) {
            garbage(path, "not a number", t.get());
            return null;
        }
        return Long.parseLong(t.get());
    }

    /** {@link #number} or {@link #signed} that must fit an int. */
    public Integer integer(String path, boolean expected, boolean allowNegative) {
        Long v = allowNegative ? signed(path, expected) : number(path, expected);
        if (v == null) return null;
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            garbage(path, "out of range", String.valueOf(v));
            return null;
        }
        return v.intValue();
    }

    public static Long parseNumber(String s) {
        if (s == null || !UNSIGNED.matcher(s.strip()).matches()) return null;
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public void garbage(String path, String what, String text) {
        unknowns.add(path + ": " + what + ": \"" + shown(text) + "\"");
    }

    /** At most 40 characters of what was found, control characters shown as '?'. */
    public static String shown(String s) {
        String clean = s.strip().replaceAll("[\\p{Cntrl}&&[^\t]]", "?");
        return clean.length() > 40 ? clean.substring(0, 40) + "..." : clean;
    }
}
