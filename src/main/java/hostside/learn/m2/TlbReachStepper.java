package hostside.learn.m2;

import java.util.List;

import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.vm.VmRules;
import hostside.vm.explain.PageWalk;

/**
 * TLB reach: how much memory the TLB's entries map with this machine's base pages and with huge
 * pages, a 1 GiB table against both, what the machine measured per access in each at the walks'
 * working set (hostside vm's tlb_reach_base and tlb_reach_huge: at 1 GiB alone, at the end of a
 * report's shorter curve inside its memory budget), what its THP mode means for a plain malloc, and
 * what huge pages do to first-touch faults. hostside does not read the TLB's size: the entry counts
 * are typical ones, and every frame that uses them says so. Whether base pages fall behind there
 * is the report's finding of M2-TLB-REACH where it drew one (it weighs the whole curve's spread and
 * the machine's load); a walk it did not judge is not explained here either.
 */
public final class TlbReachStepper implements Stepper {
    public static final String KEY = "tlb-reach";

    /**
     * Entries of the second-level TLB the frames count with: Ice Lake's and Sapphire Rapids' (the
     * H200 VM's Xeon is of that family). Cores differ: Skylake-SP 1536, Zen 4 3072, Neoverse V2 about
     * 2048; the frames call it typical and say the range. The page-walk stepper's figure too
     * (vm/explain/Walk).
     */
    public static final int L2_ENTRIES = PageWalk.TLB_ENTRIES;
    /** How the second-level TLB's size varies by core, said wherever the typical count is used. */
    static final String L2_RANGE = PageWalk.TLB_RANGE;
    /** Entries of the first-level data TLB: "a few dozen", as the page walk says; 64 on recent x86 server cores. */
    public static final int L1_ENTRIES = 64;
    /** The table of the questions: an embedding table or a KV-cache offload pool of that size is common. */
    static final long TABLE = 1L << 30;

    static final String MEASURED_ON = "the H200 VM's walk at 1 GiB, 4 KiB and 2 MiB pages, docs/measurements 2026-12-04";
    static final String FIRST_TOUCH_ON = "the H200 VM, 4 KiB and 2 MiB pages, docs/measurements 2026-12-04";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public int module() {
        return 2;
    }

    @Override
    public String title() {
        return "TLB reach: how much memory the TLB maps with base pages and with huge pages";
    }

    /**
     * The reach of {@code entries} TLB entries over pages of {@code page} bytes, as a figure in binary
     * units, typical since the entry count is (a count is quoted exactly in the note, not rounded).
     */
    static Inputs.Value reach(String key, int entries, long page) {
        long bytes = entries * page;
        Unit unit = Unit.binary(bytes);
        return new Inputs.Value(key, Unit.BYTES.convert(bytes, unit), unit, Inputs.Source.TYPICAL,
                entries + " entries x " + Units.bytes(page) + "; the count is typical, not this machine's (" + L2_RANGE + "): hostside does not read the TLB's size");
    }

    /** The second-level TLB's reach over base pages of {@code page} bytes. */
    static Inputs.Value l2Reach(long page) {
        return reach("tlb_l2_reach", L2_ENTRIES, page);
    }

    /** The PMD-level huge page of a base page: 512 x 4 KiB = 2 MiB, 8192 x 64 KiB = 512 MiB (a table page holds page/8 entries). */
    static long hugeBytes(long page) {
        return page * (page / 8);
    }

    @Override
    public List<Frame> frames(Inputs in) {
        long page = in.basePageBytes();
        long huge = hugeBytes(page);
        long l1Reach = L1_ENTRIES * page, baseReach = L2_ENTRIES * page, hugeReach = L2_ENTRIES * huge;
        Inputs.Value pageV = Pages.pageValue(in), l1 = reach("tlb_l1_reach_base", L1_ENTRIES, page), l2 = l2Reach(page),
                l2h = reach("tlb_l2_reach_huge", L2_ENTRIES, huge);
        Inputs.Fact thp = Pages.thp(in);
        Inputs.Value base = in.value("tlb_reach_base", 173.0, Unit.NS, MEASURED_ON);
        Inputs.Value hugeNs = in.value("tlb_reach_huge", 125.0, Unit.NS, MEASURED_ON);
        Inputs.Value touchBase = in.value("anon_first_touch_base", 384.0, Unit.MS_PER_GIB, FIRST_TOUCH_ON);
        Inputs.Value touchHuge = in.value("anon_first_touch_thp", 140.0, Unit.MS_PER_GIB, FIRST_TOUCH_ON);
        String P = Units.bytes(page), HP = Units.bytes(huge), typicalTlb = "typical figures, since hostside does not read the TLB's size";

        Frames f = new Frames();

        // 1. what an entry is
        f.add("One TLB entry maps one page",
                "The TLB caches translations, one entry per page: a load whose page has an entry skips the page walk. "
                        + capital(Pages.pageWords(in)) + ". The entry counts here are " + typicalTlb + ": " + L1_ENTRIES
                        + " entries in the first-level data TLB and " + L2_ENTRIES + " in the second-level TLB (" + L2_RANGE + ").",
                null, entryDrawing(page, "One TLB entry maps one page"), pageV);

        // 2. reach with base pages
        f.add("With " + P + " pages, " + L2_ENTRIES + " entries reach " + Units.bytes(baseReach),
                L2_ENTRIES + " entries x " + P + " = " + Units.bytes(baseReach) + " of memory mapped at once (the first-level TLB: " + L1_ENTRIES + " x " + P
                        + " = " + Units.bytes(l1Reach) + "). A working set larger than that misses the TLB on most random accesses, and each miss walks the page tables. "
                        + "The entry counts are " + typicalTlb + "; the page size is " + (in.basePage().mine() ? "this machine's." : "typical."),
                null, axis("With " + P + " pages the TLB reaches " + Units.bytes(baseReach), page, l1Reach, baseReach, -1, -1, false), pageV, l1, l2);

        // 3. a 1 GiB table against it
        long tablePages = TABLE / page;
        int fits = TABLE <= baseReach ? 0 : TABLE <= hugeReach ? 1 : 2;
        f.add("A 1 GiB embedding table is " + tablePages + " pages of " + P,
                "A 1 GiB table in " + P + " pages is " + tablePages + " pages, for " + L2_ENTRIES + " TLB entries (typical): "
                        + (fits == 0 ? "the TLB maps all of it." : "a random lookup finds its page in the TLB about " + Units.sig3(100.0 * L2_ENTRIES / tablePages)
                        + "% of the time, so nearly every lookup also walks the tables. In " + HP + " pages the same table is "
                        + Math.max(1, TABLE / huge) + " pages" + (fits == 1 ? ", which the TLB holds." : ", still more than the TLB holds.")),
                new Frame.Predict("Will a 1 GiB embedding table fit in the TLB's reach with base pages here (" + P + ", " + L2_ENTRIES + " entries)?",
                        List.of("Yes: the TLB maps all of it", "No, but in " + HP + " huge pages it would", "No, not even in " + HP + " huge pages"),
                        fits,
                        "Base-page reach is " + Units.bytes(baseReach) + " and huge-page reach " + Units.bytes(hugeReach) + ", against 1 GiB."),
                axis("A 1 GiB table against the base-page reach", page, l1Reach, baseReach, -1, TABLE, false), pageV, l2, l2h);

        // 4. reach with huge pages
        f.add("With " + HP + " pages, the same entries reach " + Units.bytes(hugeReach),
                "A huge page is mapped by one entry one level up (the PMD), so one TLB entry covers " + HP + ": " + L2_ENTRIES + " x " + HP + " = "
                        + Units.bytes(hugeReach) + ", " + (huge / page) + " times the reach of " + P + " pages. The 1 GiB table needs "
                        + Math.max(1, TABLE / huge) + " entries. Some cores keep fewer huge-page entries than base-page ones; the counts are " + typicalTlb + ".",
                null, axis("With " + HP + " pages the TLB reaches " + Units.bytes(hugeReach), page, l1Reach, baseReach, hugeReach, TABLE, true), pageV, l2, l2h);

        // 5. what this machine measured at the walks' working set
        double ratio = base.value() / Math.max(1e-9, hugeNs.value());
        // the report's rule: two figures whose samples' ranges overlap cannot be told apart, whatever their ratio
        boolean noise = base.withinSpreadOf(hugeNs);
        var judged = in.finding(VmRules.TLB_REACH, base, hugeNs);
        boolean unjudged = Judgement.unjudged(judged);
        int slower = unjudged ? 3 : noise ? 2 : ratio >= 1.1 ? 0 : ratio <= 1 / 1.1 ? 1 : 2;
        double walk = base.value() - hugeNs.value();
        String mix = base.mine() != hugeNs.mine() ? " One of the two is a typical figure, not this machine's, so the gap is only indicative." : "";
        // the walks' working set: 1 GiB when hostside vm ran alone, less where a report's memory budget ended the curve
        long at = (long) in.value(Inputs.TLB_WALK_AT, TABLE, Unit.BYTES, MEASURED_ON).value();
        String atS = Units.bytes(at);
        String region = at <= baseReach ? "inside both reaches" : at <= hugeReach ? "beyond the base-page reach and inside the huge-page reach" : "beyond both reaches";
        f.add("At " + atS + ": " + Units.sig3(base.value()) + " ns per load in " + P + " pages, " + Units.sig3(hugeNs.value()) + " ns in huge pages",
                "hostside vm walks a random cycle of dependent loads, one per page, over growing working sets (lat_mem_rd-style); the figure is the walk at " + atS
                        + (at < TABLE ? " (where this report's memory budget ended the curve; hostside vm alone takes it at " + Units.bytes(TABLE) + ")" : "")
                        + ". At " + atS + ", " + region + ": "
                        + "base pages " + base.shown() + ", huge pages " + hugeNs.shown() + ". "
                        // two medians: whether their difference is beyond the samples' spread, and so a cost at all, is hostside vm's finding to say (M2-TLB-REACH)
                        + judged.map(Judgement::quote).orElse(noise ? "Their samples' ranges overlap, so this run cannot tell them apart: no cause can be read into the "
                        + Units.sig3(Math.abs(walk)) + " ns between their medians. Measure again on a quiet machine (hostside vm) before reading a page walk into it."
                        : slower == 0 ? "Base pages took " + Units.sig3(walk) + " ns more per load. Where that is beyond the samples' spread it is what translation costs"
                        + " base pages at this size; hostside vm's TLB finding (M2-TLB-REACH) says whether it is, from the samples, which these two medians do not show."
                        : slower == 1 ? "Huge pages came out slower here. Two medians cannot tell that from noise; hostside vm's TLB finding (M2-TLB-REACH) weighs the samples' spread."
                        : "The two are within 10%: huge pages bought little at this size here. These two medians do not say why, nor whether the gap is beyond the noise.") + mix,
                new Frame.Predict(base.mine() && hugeNs.mine() ? "Random loads over " + atS + ": which did this machine measure as slower per load?"
                        : "Random loads over " + atS + ": which is slower per load (typical figures: this machine has no measurement)?",
                        List.of("Base pages: each load may also walk the tables", "Huge pages", "About the same (within 10%)",
                                "Cannot tell: the report did not judge these walks"),
                        slower,
                        "Base pages " + base.shown() + ", huge pages " + hugeNs.shown() + ": a ratio of " + Units.sig3(ratio) + "."
                                + judged.map(c -> " " + Judgement.quote(c)).orElse("")),
                measured(base, hugeNs, page, baseReach, hugeReach, at), base, hugeNs, l2, l2h);

        // 6. THP here
        int thpAnswer = switch (thp.value()) {
            case "always" -> 0;
            case "never" -> 2;
            default -> 1;
        };
        String thpWhat = switch (thp.value()) {
            case "always" -> "every anonymous mapping big enough gets " + HP + " pages where it is aligned, without asking, and khugepaged collapses the rest later; "
                    + "memory grows in " + HP + " steps, which is why " + (page == 65536 ? "the Grace tuning guide calls 512 MiB pages too large for most applications and 'always' balloons RSS (jemalloc#1803)." : "some services turn it down to madvise.");
            case "never" -> "no transparent huge pages at all: huge pages only come from a hugetlbfs pool reserved ahead (/sys/kernel/mm/hugepages), and hostside's huge-page walk cannot run.";
            default -> "only regions that ask with madvise(MADV_HUGEPAGE) get " + HP + " pages; a plain malloc does not ask, and PyTorch's CPU allocator asks only with THP_MEM_ALLOC_ENABLE=1 (c10/core/impl/alloc_cpu.cpp). "
                    + (hugeNs.mine() ? "hostside's huge-page walk asks, which is how it measured huge pages here." : "hostside's huge-page walk asks for them.");
        };
        f.add(thp.mine() ? "THP here: " + thp.value() : "THP mode: " + thp.value() + " (typical, not this machine's)",
                "Transparent huge pages are " + Pages.factWords(thp) + ": " + thpWhat,
                new Frame.Predict("THP is '" + thp.value() + "' here. Does a plain malloc of a 1 GiB table get " + HP + " huge pages?",
                        List.of("Yes, without asking", "Only where the program calls madvise(MADV_HUGEPAGE)", "No: THP is off"),
                        thpAnswer,
                        "/sys/kernel/mm/transparent_hugepage/enabled is '" + thp.value() + "' (" + thp.source().words + ")."),
                thpDrawing(thp, HP), pageV);

        // 7. first touch
        long faultsBase = TABLE / page, faultsHuge = Math.max(1, TABLE / huge);
        f.add("Huge pages also cut first-touch faults: " + faultsBase + " vs " + faultsHuge + " per GiB",
                "The first touch of each page faults once, and the kernel zeroes the page: " + faultsBase + " faults per GiB in " + P + " pages, "
                        + faultsHuge + " in " + HP + " pages. Per GiB touched: base pages " + touchBase.shown() + ", huge pages " + touchHuge.shown()
                        + ". Fewer, bigger faults: each huge-page fault zeroes " + HP + ", so one costs more, but a GiB costs less.",
                null, firstTouch(touchBase, touchHuge, faultsBase, faultsHuge, P, HP), touchBase, touchHuge);

        // 8. what to do here
        String advice = switch (thp.value()) {
            case "always" -> "large tables already get huge pages; watch RSS, and use madvise(MADV_NOHUGEPAGE) where a sparse mapping would bloat.";
            case "never" -> "huge pages need a hugetlbfs pool (vm.nr_hugepages) or THP turned to madvise; until then every large table walks in " + P + " pages.";
            default -> "ask for huge pages on the big host-side tables (madvise(MADV_HUGEPAGE) on an aligned region, or a hugetlbfs pool); the allocators will not by default.";
        };
        f.add("On this machine: " + Units.bytes(baseReach) + " of reach in " + P + " pages, " + Units.bytes(hugeReach) + " in " + HP + " pages",
                "Host-side tables past " + Units.bytes(baseReach) + " (embeddings, KV-cache offload, pinned pools, a dataset in memory) miss the TLB on random access in base pages. "
                        + "With THP " + Pages.factWords(thp) + ", " + advice + " The reach figures use the typical " + L2_ENTRIES + "-entry TLB.",
                null, summary(baseReach, hugeReach, base, hugeNs, thp, P, HP, at), pageV, l2, l2h, base, hugeNs);
        return f.list();
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    // ---- drawings

    static String entryDrawing(long page, String title) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "the TLB: " + L1_ENTRIES + " + " + L2_ENTRIES + " entries (typical), each virtual page -> physical frame", "start", "");
        svg.box(8, 30, 240, 200, "", "on");
        svg.text(128, 48, "TLB", "middle", "");
        String[] vp = {"0x7f3a12345", "0x7f3a12346", "0x7f3a40000", "0x55d0a1b2c"};
        String[] pf = {"0x17917bd", "0x0c0ffee", "0x2a4b6c8", "0x0badf00"};
        for (int i = 0; i < vp.length; i++) {
            double y = 60 + i * 40;
            svg.box(18, y, 220, 30, vp[i] + " -> " + pf[i], i == 0 ? "ok" : "");
            svg.box(420, y, 212, 30, Units.bytes(page) + " page, frame " + pf[i], i == 0 ? "ok" : "dim");
            svg.arrow(238, y + 15, 420, y + 15, i == 0 ? "one entry, one page" : "", i == 0 ? "ok" : "dim");
        }
        svg.text(8, 248, "addresses are made up; the entry counts are typical, not read from this machine", "start", "dim");
        return svg.render(title);
    }

    /** A working-set axis, 64 KiB to past the huge-page reach, log scale, with the reaches marked and a table. */
    static String axis(String title, long page, long l1Reach, long baseReach, long hugeReach, long table, boolean hugeOn) {
        Svg svg = new Svg(Pages.W, Pages.H);
        long lo = 64L << 10, hi = Math.max(16L << 30, hugeReach > 0 ? hugeReach * 4 : 0);
        double x0 = 40, x1 = 610, ay = 200;
        svg.text(8, 16, "working set (log scale), and what the TLB maps at once", "start", "");
        svg.line(x0, ay, x1, ay, "");
        for (long b = lo; b <= hi; b *= 16) {
            double x = x(b, lo, hi, x0, x1);
            svg.line(x, ay, x, ay + 5, "");
            svg.text(x, ay + 18, Units.bytes(b), "middle", "dim");
        }
        double bx = x(baseReach, lo, hi, x0, x1);
        svg.bar(x0, 60, x(l1Reach, lo, hi, x0, x1) - x0, 22, "on");
        svg.text(x(l1Reach, lo, hi, x0, x1) + 4, 76, "L1: " + L1_ENTRIES + " x " + Units.bytes(page) + " = " + Units.bytes(l1Reach), "start", "");
        svg.bar(x0, 90, bx - x0, 22, "ok");
        svg.text(bx + 4, 106, "L2: " + L2_ENTRIES + " x " + Units.bytes(page) + " = " + Units.bytes(baseReach), "start", "");
        if (hugeReach > 0) {
            double hx = x(hugeReach, lo, hi, x0, x1);
            svg.bar(x0, 120, hx - x0, 22, hugeOn ? "ok" : "dim");
            String label = "L2: " + L2_ENTRIES + " x " + Units.bytes(hugeBytes(page)) + " = " + Units.bytes(hugeReach);
            if (hx > 420) svg.text(hx - 4, 136, label, "end", "");
            else svg.text(hx + 4, 136, label, "start", "");
        }
        if (table > 0) {
            double tx = x(table, lo, hi, x0, x1);
            boolean inside = table <= (hugeOn && hugeReach > 0 ? hugeReach : baseReach);
            svg.bar(bx, 158, Math.max(0, tx - bx), 14, inside ? "dim" : "hot");
            svg.line(tx, 150, tx, ay, inside ? "ok" : "bad");
            svg.text(tx, 186, "1 GiB table", "middle", inside ? "ok" : "bad");
        }
        svg.text(8, 250, "entry counts typical (hostside does not read the TLB's size); page size " + Units.bytes(page), "start", "dim");
        return svg.render(title);
    }

    private static double x(long bytes, long lo, long hi, double x0, double x1) {
        double l = Math.log(Math.max(bytes, lo)) - Math.log(lo), r = Math.log(hi) - Math.log(lo);
        return x0 + (x1 - x0) * Math.min(1, l / r);
    }

    /** Where the walks' working set ({@code at}) lies among the reaches, then the two loads measured there. */
    static String measured(Inputs.Value base, Inputs.Value huge, long page, long baseReach, long hugeReach, long at) {
        Svg svg = new Svg(Pages.W, Pages.H);
        String p = Units.bytes(page), hp = Units.bytes(hugeBytes(page));
        svg.text(8, 16, "the sweep: 64 KiB up, one dependent load per page, in random order; the figure is at " + Units.bytes(at), "start", "");
        long lo = 64L << 10, hi = Math.max(16L << 30, hugeReach * 4);
        double x0 = 40, x1 = 610, bx = x(baseReach, lo, hi, x0, x1), hx = x(hugeReach, lo, hi, x0, x1), gx = x(at, lo, hi, x0, x1);
        svg.bar(x0, 28, bx - x0, 20, "ok");
        svg.bar(bx, 28, hx - bx, 20, "hot");
        svg.bar(hx, 28, x1 - hx, 20, "bad");
        svg.text(x0 + 2, 62, "both in the TLB", "start", "ok");
        svg.text((bx + hx) / 2, 62, "base pages walk, huge pages do not", "middle", "hot");
        svg.text(x1, 62, "both walk", "end", "bad");
        svg.line(x0, 48, x1, 48, "");
        for (long b = lo; b <= hi; b *= 64) svg.text(x(b, lo, hi, x0, x1), 78, Units.bytes(b), "middle", "dim");
        svg.line(gx, 24, gx, 84, "on");
        svg.text(gx, 96, Units.bytes(at), "middle", "on");
        double max = Math.max(base.value(), huge.value()) * 1.15, w = 300; // room after the longest bar for its label
        double bw = w * base.value() / max, hw = w * huge.value() / max;
        svg.text(8, 128, p + " pages", "start", "");
        svg.bar(110, 110, Math.min(bw, hw), 26, "ok");
        if (bw > hw) svg.bar(110 + hw, 110, bw - hw, 26, "hot");
        svg.text(116 + bw, 128, Units.sig3(base.value()) + " ns (" + base.source().words + ")", "start", "");
        svg.text(8, 178, hp + " pages", "start", "");
        svg.bar(110, 160, hw, 26, "ok");
        svg.text(116 + hw, 178, Units.sig3(huge.value()) + " ns (" + huge.source().words + ")", "start", "");
        if (bw > hw) svg.text(110 + hw, 152, "+" + Units.sig3(base.value() - huge.value()) + " ns per load: the walk", "start", "hot");
        svg.text(8, 212, "both pay the memory access at " + Units.bytes(at) + "; what base pages pay beyond it is the walk", "start", "dim");
        svg.text(8, 236, base.mine() && huge.mine() ? "measured here by hostside vm (tlb_reach_base, tlb_reach_huge); reach with the typical TLB"
                : "typical: " + MEASURED_ON, "start", "dim");
        return svg.render("ns per load at " + Units.bytes(at) + ", base pages against huge pages");
    }

    static String thpDrawing(Inputs.Fact thp, String hp) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "/sys/kernel/mm/transparent_hugepage/enabled: " + thp.value() + " (" + thp.source().words + ")", "start", "");
        String[] modes = {"always", "madvise", "never"};
        String[] what = {"every big anonymous region", "regions that call madvise()", "none: hugetlbfs only"};
        for (int i = 0; i < modes.length; i++) {
            boolean here = modes[i].equals(thp.value());
            svg.box(8 + i * 212, 40, 200, 50, modes[i] + (here ? " (here)" : "") + "\n" + what[i], here ? "on" : "dim");
        }
        svg.box(8, 130, 250, 44, "plain malloc(1 GiB)", "");
        svg.box(8, 190, 250, 44, "malloc + madvise(MADV_HUGEPAGE)", "");
        boolean plain = thp.value().equals("always"), asked = !thp.value().equals("never");
        svg.arrow(258, 152, 380, 152, "", plain ? "ok" : "bad");
        svg.box(380, 130, 250, 44, plain ? hp + " pages" : "base pages", plain ? "ok" : "bad");
        svg.arrow(258, 212, 380, 212, "", asked ? "ok" : "bad");
        svg.box(380, 190, 250, 44, asked ? hp + " pages" : "base pages", asked ? "ok" : "bad");
        return svg.render("THP mode " + thp.value() + ": which regions get huge pages");
    }

    static String firstTouch(Inputs.Value base, Inputs.Value huge, long faultsBase, long faultsHuge, String p, String hp) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "first touch of 1 GiB of anonymous memory: faults, and time per GiB", "start", "");
        double max = Math.max(base.value(), huge.value()) * 1.15, w = 300; // room after the longest bar for its label
        svg.text(8, 60, p + " pages", "start", "");
        svg.bar(130, 42, w * base.value() / max, 28, "hot");
        svg.text(136 + w * base.value() / max, 62, Units.sig3(base.value()) + " ms/GiB, " + faultsBase + " faults", "start", "");
        svg.text(8, 120, hp + " pages", "start", "");
        svg.bar(130, 102, w * huge.value() / max, 28, "ok");
        svg.text(136 + w * huge.value() / max, 122, Units.sig3(huge.value()) + " ms/GiB, " + faultsHuge + " faults", "start", "");
        svg.text(8, 236, base.mine() && huge.mine() ? "measured here by hostside vm (anon_first_touch_base, anon_first_touch_thp)"
                : "typical: " + FIRST_TOUCH_ON, "start", "dim");
        return svg.render("first-touch cost per GiB, base pages against huge pages");
    }

    static String summary(long baseReach, long hugeReach, Inputs.Value base, Inputs.Value huge, Inputs.Fact thp, String p, String hp, long at) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "this machine, in one picture", "start", "");
        svg.box(8, 34, 300, 60, "reach in " + p + " pages\n" + Units.bytes(baseReach) + " (typical TLB)", "dim");
        svg.box(332, 34, 300, 60, "reach in " + hp + " pages\n" + Units.bytes(hugeReach) + " (typical TLB)", "ok");
        svg.box(8, 110, 300, 60, Units.bytes(at) + " random loads, " + p + " pages\n" + Units.sig3(base.value()) + " ns (" + base.source().words + ")", "hot");
        svg.box(332, 110, 300, 60, Units.bytes(at) + " random loads, " + hp + " pages\n" + Units.sig3(huge.value()) + " ns (" + huge.source().words + ")", "ok");
        svg.box(8, 186, 624, 44, "THP: " + thp.value() + " (" + thp.source().words + ")", "on");
        return svg.render("TLB reach on this machine");
    }
}
