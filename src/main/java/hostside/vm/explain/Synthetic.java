package hostside.vm.explain;

import java.util.List;

import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Level;

/**
 * Made-up but stable physical addresses. Each table is named by the part of the address above the level that indexes
 * it, so two addresses in the same 2 MiB region share their PT, as they would on a real machine.
 */
final class Synthetic {
    /** Physical memory the tables and frames land in: 1 GiB up to 256 GiB, a plausible GPU host. */
    private static final long LOW = 1L << 30;
    private static final long SPAN = 255L << 30;

    private Synthetic() {}

    /** SplitMix64's finaliser: cheap, and well spread, so nearby addresses get unrelated frames. */
    static long mix(long z) {
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long physical(long seed, long align) {
        return LOW + Long.remainderUnsigned(mix(seed), SPAN / align) * align;
    }

    /**
     * The table that level i's index selects into. The root is CR3's table on x86, one for both halves; on ARM it is
     * TTBR0's (user) or TTBR1's (kernel), two different tables.
     */
    static long table(Layout layout, int i, long va) {
        List<Level> levels = layout.levels();
        boolean ttbr1 = layout.arch() == PageWalk.Arch.ARM && Canonical.upper(va, layout);
        long region = i == 0 ? (ttbr1 ? -1 : 0) : used(layout, va) >>> (levels.get(i).hi() + 1);
        return physical(mix(region) ^ (i * 0x1000193L) ^ layout.ordinal(), layout.tableBytes());
    }

    /** The frame of the page of pageBytes that holds va. */
    static long frame(Layout layout, long va, long pageBytes) {
        long page = used(layout, va) >>> Long.numberOfTrailingZeros(pageBytes);
        return physical(mix(page) ^ 0xF7A3EL ^ pageBytes, pageBytes);
    }

    /**
     * The bits the walk reads, plus which half: an ARM tag or the x86 sign-extension bits name no different page, but
     * TTBR0 and TTBR1 addresses with the same low bits do.
     */
    private static long used(Layout layout, long va) {
        return (va & ((1L << layout.vaBits()) - 1)) | (Canonical.upper(va, layout) ? 1L << 62 : 0);
    }
}
