package hostside.learn.m2;

import java.util.List;
import java.util.Locale;

import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Inputs;
import hostside.learn.Svg;
import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk;

/**
 * What Module 2's steppers take from the machine (its base page, its THP mode, its CPU) and the
 * few drawing helpers they share.
 */
final class Pages {
    private Pages() {}

    /** The x86-64 base page: the typical value when the report does not say. */
    static final long TYPICAL_PAGE = 4096;

    /** The base page in bytes: this machine's (read) or 4 KiB (typical); a value that does not parse is the typical one. */
    static long pageBytes(Inputs in) {
        Inputs.Fact f = in.fact("page_size_bytes", String.valueOf(TYPICAL_PAGE));
        try {
            long b = Long.parseLong(f.value().trim());
            return b > 0 && Long.bitCount(b) == 1 ? b : TYPICAL_PAGE;
        } catch (NumberFormatException e) {
            return TYPICAL_PAGE;
        }
    }

    /** Whether the base page is this machine's, read from its report (and a power of two, so usable). */
    static boolean pageIsMine(Inputs in) {
        Inputs.Fact f = in.fact("page_size_bytes", "");
        if (!f.mine()) return false;
        try {
            long b = Long.parseLong(f.value().trim());
            return b > 0 && Long.bitCount(b) == 1;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** "this machine's base page is 4 KiB (read here)" or "... 4 KiB (typical, not this machine)". */
    static String pageWords(Inputs in) {
        return pageIsMine(in) ? "this machine's base page is " + Units.bytes(pageBytes(in)) + " (read here)"
                : "the base page is taken as " + Units.bytes(pageBytes(in)) + " (typical, not this machine: the report does not say)";
    }

    /** The base page as a figure the frame quotes, in KiB. */
    static Inputs.Value pageValue(Inputs in) {
        return new Inputs.Value("page_size", Unit.BYTES.convert(pageBytes(in), Unit.KIB), Unit.KIB, pageIsMine(in) ? Inputs.Source.READ : Inputs.Source.TYPICAL,
                pageIsMine(in) ? "" : "x86-64's base page");
    }

    /** An Arm CPU by its model name (Grace is Neoverse V2; GB10 has Cortex cores). */
    static boolean arm(Inputs in) {
        String cpu = in.fact("cpu", "").value().toLowerCase(Locale.ROOT);
        return cpu.contains("neoverse") || cpu.contains("cortex") || cpu.contains("grace") || cpu.contains("aarch64")
                || cpu.contains("arm") || cpu.contains("graviton") || cpu.contains("ampere");
    }

    /**
     * The page-table layout this machine walks: 64 KiB pages are ARM64's 64 KiB granule; 4 KiB pages
     * are x86-64 4-level, or ARM64's 4 KiB granule when the CPU is an Arm one. The report does not say
     * whether an x86 kernel runs 5-level tables (LA57), so 4-level, the common case, is taken.
     */
    static Layout layout(Inputs in) {
        long page = pageBytes(in);
        if (page == 65536) return Layout.ARM64_64K;
        if (page == 4096 && arm(in)) return Layout.ARM64_4K;
        return Layout.X86_64_4LEVEL;
    }

    /** One line for the drawing: which layout, and why. */
    static String layoutWhy(Inputs in, Layout l) {
        long page = pageBytes(in);
        String from = pageIsMine(in) ? "this machine's " + Units.bytes(page) + " base page (read here)"
                : "a typical " + Units.bytes(page) + " base page (not this machine's)";
        if (page != 4096 && page != 65536) return l.title() + ": no layout for " + from + ", so the common one";
        return l.title() + (l.arch() == PageWalk.Arch.X86 ? " (LA57 unknown: 4-level)" : "") + ", from " + from;
    }

    /** The THP mode: "always", "madvise" or "never" (the bracketed one of sysfs's list), this machine's or typical. */
    static Inputs.Fact thp(Inputs in) {
        Inputs.Fact f = in.fact("thp", "madvise");
        String v = f.value().trim().toLowerCase(Locale.ROOT);
        int open = v.indexOf('['), close = v.indexOf(']');
        if (open >= 0 && close > open) v = v.substring(open + 1, close);
        if (!v.equals("always") && !v.equals("madvise") && !v.equals("never")) return new Inputs.Fact("thp", "madvise", Inputs.Source.TYPICAL);
        return new Inputs.Fact("thp", v, f.source());
    }

    /** "madvise (read here)". */
    static String factWords(Inputs.Fact f) {
        return "'" + f.value() + "' (" + f.source().words + ")";
    }

    /** Text lines from (x, y) down, 14 units apart; returns the y below the last. */
    static double lines(Svg svg, double x, double y, List<String> lines, String cls) {
        for (String l : lines) {
            svg.text(x, y, l, "start", cls);
            y += 14;
        }
        return y;
    }

    /** The drawings' canvas. */
    static final int W = Svg.WIDTH, H = Svg.HEIGHT;
}
