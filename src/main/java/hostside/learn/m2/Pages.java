package hostside.learn.m2;

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

    /** "this machine's base page is 4 KiB (read here)" or "... 4 KiB (typical, not this machine)". */
    static String pageWords(Inputs in) {
        return in.basePage().mine() ? "this machine's base page is " + Units.bytes(in.basePageBytes()) + " (read here)"
                : "the base page is taken as " + Units.bytes(in.basePageBytes()) + " (typical, not this machine: the report does not say)";
    }

    /** The base page as a figure the frame quotes, in KiB. */
    static Inputs.Value pageValue(Inputs in) {
        Inputs.Value page = in.basePage();
        return new Inputs.Value("page_size", Unit.BYTES.convert(page.value(), Unit.KIB), Unit.KIB, page.source(), page.note());
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
        long page = in.basePageBytes();
        if (page == 65536) return Layout.ARM64_64K;
        if (page == 4096 && arm(in)) return Layout.ARM64_4K;
        return Layout.X86_64_4LEVEL;
    }

    /** One line for the drawing: which layout, and why. */
    static String layoutWhy(Inputs in, Layout l) {
        long page = in.basePageBytes();
        String from = in.basePage().mine() ? "this machine's " + Units.bytes(page) + " base page (read here)"
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

    /** The drawings' canvas. */
    static final int W = Svg.WIDTH, H = Svg.HEIGHT;
}
