package hostside.vm.measure;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;

import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.core.Versus;
import hostside.fs.Smaps;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.libc.Libc;

/**
 * TLB reach: a dependent chain of loads visiting every base page of a working set once, in
 * random order, at a random cache line inside each page (lmbench's lat_mem_rd with a random
 * walk, one line per page). Each load misses the caches once the set is large; with base pages
 * it also misses the TLB once the set passes what the TLB maps (a few MiB), and every access then
 * walks the page table. The same walk over memory backed by huge pages shows the difference: the
 * size where the two curves part is where the TLB runs out.
 */
public record TlbReach(boolean huge, long maxBytes) implements TestCase<HostTarget> {
    static final long MIN = 64L << 10;
    /**
     * The curve's end, cut to the memory budget ({@link HostTarget#budgetBytes()}: a quarter of
     * available memory, 256 MiB inside a report): on the H200 base pages cost 1.9x there.
     */
    public static final long DEFAULT_MAX = 4L << 30;
    /** The figure is the walk at this size in every run, so that the report's equals the drill's alone. */
    public static final long FIGURE_AT = 1L << 30;
    /**
     * Loads a sample, 2^18: a walk of every page of the figure's 1 GiB set (262,144 pages) once, after a
     * warm-up that walks them all; 46 ms at the H100 VM's 174 ns a base-page load there. At 2^20 each
     * large set took four times as long for the same figure: on the dev VM, interleaved, the huge-page
     * walk at 1 GiB gave 425-462 ns at 2^20 and 400-469 at 2^18 over four rounds, and both walks to
     * 4 GiB took 28.7-30.2 s a run against 22.6-23.1 over three
     * (docs/measurements/2026-12-08-fewer-loads-devvm.md); on the H100 VM the two walks were 4.7 s of a
     * 76 s report.
     */
    static final int ACCESSES = 1 << 18, SAMPLES = 3;

    public TlbReach(boolean huge) {
        this(huge, DEFAULT_MAX);
    }

    public String key() {
        return huge ? "tlb_reach_huge" : "tlb_reach_base";
    }

    public String description() {
        return "random dependent loads, one per base page, over 64 KiB to " + Units.bytes(maxBytes) + " "
                + (huge ? "backed by THP huge pages" : "in base pages") + ": ns per access at 1 GiB, or at the largest set where the memory budget ends the curve sooner";
    }

    public Optional<String> notApplicable(HostTarget t) {
        if (huge && !t.thpUsable()) return Optional.of("THP is " + t.thpEnabled() + " on this machine: no huge pages to back the walk");
        return Optional.empty();
    }

    @Override
    public String anchor() {
        return "lmbench lat_mem_rd";
    }

    /**
     * What the walk measured beside its figure: the curve, and the conditions.
     *
     * @param pageSize          the base page size (one load per base page)
     * @param hugePageSize      THP's size; null for the base-page walk
     * @param hugePercent       AnonHugePages of the region as a share of it (smaps); null for base pages or when smaps could not say
     * @param accessesPerSample dependent loads timed per sample
     * @param sweep             ns per load at each working set, smallest first; the figure is its last point
     * @param plannedEndBytes   where the curve would have ended ({@link #maxBytes()}); null in a report written before it was kept
     * @param endsEarly         why the curve ends before that (the memory budget, with its figures); "" when it does not
     */
    public record TlbDetail(long pageSize, Long hugePageSize, Double hugePercent, int accessesPerSample, Sweep sweep,
                            Long plannedEndBytes, String endsEarly) implements Detail {
        /** A detail without its curve (a damaged report's) reads with an empty one: the figure still reads. */
        public TlbDetail {
            if (sweep == null) sweep = new Sweep(Unit.NS, List.of());
            if (endsEarly == null) endsEarly = "";
        }
    }

    @Override
    public Class<TlbDetail> detailType() {
        return TlbDetail.class;
    }

    public Result run(HostTarget t) {
        long align = Math.max(t.hugePageSize(), t.pageSize());
        long largest = Long.highestOneBit(t.bounded(maxBytes, align));
        if (largest < MIN) largest = MIN;
        List<Long> sizes = sizes(largest);
        List<Sweep.Point> points = new ArrayList<>();
        Double hugePercent = null;
        try (AnonTouch.Region r = AnonTouch.Region.map(largest, align, t.pageSize())) {
            r.advise(huge ? Libc.MADV_HUGEPAGE : Libc.MADV_NOHUGEPAGE, t);
            AnonTouch.touch(r.segment(), t.pageSize());
            if (huge) {
                long ah = Smaps.anonHugeBytes(t.fs(), r.segment().address()).orElse(-1L);
                hugePercent = ah < 0 ? null : 100.0 * ah / largest;
            }
            SplittableRandom rnd = new SplittableRandom(7);
            // The chase loop is compiled before the first timed size, which would otherwise pay for it.
            chase(r.segment(), link(r.segment(), MIN, t.pageSize(), rnd), 4 * ACCESSES);
            for (long size : sizes) {
                long[] at = {link(r.segment(), size, t.pageSize(), rnd)};
                // the warm-up walks the whole set once at least, so its pages are in whatever cache holds them
                int warm = Math.max(ACCESSES, (int) Math.min(1 << 22, size / t.pageSize()));
                Stats ns = new Sampling(1, SAMPLES).stats(i -> {
                    if (i < 0) {
                        at[0] = chase(r.segment(), at[0], warm);
                        return 0;
                    }
                    long t0 = System.nanoTime();
                    at[0] = chase(r.segment(), at[0], ACCESSES);
                    return (System.nanoTime() - t0) / (double) ACCESSES;
                });
                if (at[0] == -1) throw new AssertionError(); // the chain's end is used, so the loads are not dead code
                points.add(new Sweep.Point(size, ns));
            }
        }
        TlbDetail d = new TlbDetail(t.pageSize(), huge ? t.hugePageSize() : null, hugePercent, ACCESSES, new Sweep(Unit.NS, points), maxBytes,
                endsEarly(largest, maxBytes, t.budgetWhy()));
        return Result.ok(this, Unit.NS, figure(points).value(),
                "dependent loads in a random cycle, one cache line per base page (lat_mem_rd-style), host clock; figure at 1 GiB (the largest set when smaller)", d);
    }

    /**
     * Why the curve ends at {@code largest} rather than {@code planned}: the budget. The huge-page
     * walk's own TLB reach lies beyond a 256 MiB end (Zen 2's L2 data TLB holds 2048 entries of
     * 4 KiB or 2 MiB pages, 4 GiB of huge pages: AMD's optimization guide as WikiChip quotes it,
     * en.wikichip.org/wiki/amd/microarchitectures/zen_2), so a curve that ends early shows where
     * base pages fall behind, not where huge pages do too: said with the curve, and whether the
     * figure ({@link #FIGURE_AT}) is still on it. "" when it ends as planned.
     */
    static String endsEarly(long largest, long planned, String budgetWhy) {
        if (largest >= planned) return "";
        return "the curve ends at " + Units.bytes(largest) + ", not " + Units.bytes(planned) + ": " + budgetWhy
                + (largest < FIGURE_AT ? "; the figure is the walk there, not at " + Units.bytes(FIGURE_AT)
                : "; the figure, the walk at " + Units.bytes(FIGURE_AT) + ", is within it");
    }

    /**
     * The working set the figure of {@code d}'s walk was taken at: {@link #FIGURE_AT}, or less
     * where the curve ended before it (a report's memory budget); empty for a walk without its curve.
     */
    public static OptionalLong figureAt(TlbDetail d) {
        return d.sweep().points().isEmpty() ? OptionalLong.empty() : OptionalLong.of(figure(d.sweep().points()).bytes());
    }

    /** The point at {@link #FIGURE_AT}, or the largest one when the curve ends before it. */
    static Sweep.Point figure(List<Sweep.Point> points) {
        return points.stream().filter(p -> p.bytes() == FIGURE_AT).findFirst().orElse(points.getLast());
    }

    static List<Long> sizes(long largest) {
        List<Long> s = new ArrayList<>();
        for (long b = MIN; b <= largest; b *= 4) s.add(b);
        if (s.getLast() != largest) s.add(largest);
        return s;
    }

    /**
     * Writes a single random cycle through one slot per page of the first {@code size} bytes
     * (Sattolo's shuffle makes one cycle, so the walk visits every page before it repeats).
     * Returns the offset the walk starts at.
     */
    static long link(MemorySegment m, long size, long pageSize, SplittableRandom rnd) {
        int pages = (int) (size / pageSize);
        int lines = (int) (pageSize / 64);
        int[] order = new int[pages];
        for (int i = 0; i < pages; i++) order[i] = i;
        for (int i = pages - 1; i > 0; i--) {
            int j = rnd.nextInt(i);
            int x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        long[] slot = new long[pages];
        for (int i = 0; i < pages; i++) slot[i] = (long) i * pageSize + (long) rnd.nextInt(lines) * 64;
        // order is a single cycle as a permutation: page p's successor is order[p]
        for (int p = 0; p < pages; p++) m.set(ValueLayout.JAVA_LONG, slot[p], slot[order[p]]);
        return slot[0];
    }

    static long chase(MemorySegment m, long at, int steps) {
        for (int i = 0; i < steps; i++) at = m.get(ValueLayout.JAVA_LONG, at);
        return at;
    }

    /**
     * Where base pages start to cost: the smallest size from which the walk in base pages stays at
     * least {@code ratio} times slower than the same walk in huge pages; -1 when they never part.
     */
    public static long knee(List<Sweep.Point> base, List<Sweep.Point> huge, double ratio) {
        return knee(base, huge, ratio, ratio);
    }

    /**
     * As {@link #knee(List, List, double)}, but once apart by {@code ratio} the curves may come
     * closer, down to {@code floor}, without ending the gap: page-walk caches and the L2 TLB make
     * the ratio dip between the L1 TLB's reach and the last level's (the H200 measured 2.2x at
     * 1 MiB, 1.2x at 1 GiB, 1.9x at 4 GiB). Every size must also be {@link #apart} beyond the
     * noise: a size where the two walks' samples overlap ends the gap, since nothing there says
     * base pages were slower.
     */
    public static long knee(List<Sweep.Point> base, List<Sweep.Point> huge, double ratio, double floor) {
        long knee = -1;
        for (Sweep.Point b : base) {
            Sweep.Point h = huge.stream().filter(x -> x.bytes() == b.bytes()).findFirst().orElse(null);
            if (h == null) continue;
            if (knee < 0 && apart(b, h, ratio)) knee = b.bytes();
            else if (knee >= 0 && !apart(b, h, floor)) knee = -1;
        }
        return knee;
    }

    /**
     * Whether a difference of {@code ratio} between the two walks at one size would have shown
     * beyond their noise: the wider spread is under ({@code ratio} - 1) of the huge-page median.
     * Where it is not, the walks not being {@link #apart} says only that the samples spread too
     * wide to tell, not that huge pages do nothing there.
     */
    public static boolean resolves(Sweep.Point base, Sweep.Point huge, double ratio) {
        return Math.max(base.value().spread(), huge.value().spread()) < (ratio - 1) * huge.value().median();
    }

    /**
     * Whether the base-page walk at one size is slower than the huge-page walk by at least
     * {@code ratio} and by more than either's spread ({@link Versus}): the noise rule, with the
     * verdict's own threshold as a ratio of medians.
     */
    public static boolean apart(Sweep.Point base, Sweep.Point huge, double ratio) {
        return base.value().median() >= ratio * huge.value().median() && Versus.of(base.value(), huge.value()) == Versus.ABOVE;
    }
}
