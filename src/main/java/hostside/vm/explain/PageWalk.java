package hostside.vm.explain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The page-walk stepper: one virtual address translated through x86-64 or ARM64 page tables, step by step. The tables
 * are synthetic but derived from the address, so the same options always give the same walk.
 */
public final class PageWalk {
    private PageWalk() {}

    /**
     * The second-level TLB's entries the reach figures are counted with: Ice Lake's and Sapphire
     * Rapids' (the H200 VM's Xeon is of that family). hostside does not read the TLB's size, and
     * cores differ ({@link #TLB_RANGE}); every caption that uses the count says so.
     */
    public static final int TLB_ENTRIES = 2048;
    /** The second-level TLB's entries by core, as a caption says it beside the typical count. */
    public static final String TLB_RANGE = "Skylake-SP has 1536, Ice Lake and Sapphire Rapids 2048, Zen 4 3072, Neoverse V2 about 2048";

    public enum Arch { X86, ARM }

    /**
     * One level of the walk.
     *
     * @param name   as the manuals write it (PML4, L0...)
     * @param linux  the kernel's name for the same level (pgd, p4d, pud, pmd, pte), so the reader can follow the code
     * @param number x86: 5 (PML5) down to 1 (PT), the way Linux counts page levels; ARM: the architecture's level 0-3
     * @param hi     highest virtual-address bit of this level's index
     * @param lo     lowest one; an entry here covers 2^lo bytes
     */
    public record Level(String name, String linux, int number, int hi, int lo) {
        public int bits() {
            return hi - lo + 1;
        }

        public long index(long address) {
            return (address >>> lo) & ((1L << bits()) - 1);
        }

        /** Bytes of address space one entry at this level covers. */
        public long entryCovers() {
            return 1L << lo;
        }

        public String range() {
            return hi + ":" + lo;
        }
    }

    /** A field of the split address: a level's index, or the offset. */
    public record Field(String name, String bits, long value) {}

    public enum Layout {
        X86_64_4LEVEL("x86-64-4", "x86-64 4-level", Arch.X86, 48, 12, List.of(
                new Level("PML4", "pgd", 4, 47, 39), new Level("PDPT", "pud", 3, 38, 30),
                new Level("PD", "pmd", 2, 29, 21), new Level("PT", "pte", 1, 20, 12))),
        X86_64_5LEVEL("x86-64-5", "x86-64 5-level", Arch.X86, 57, 12, List.of(
                new Level("PML5", "pgd", 5, 56, 48), new Level("PML4", "p4d", 4, 47, 39),
                new Level("PDPT", "pud", 3, 38, 30), new Level("PD", "pmd", 2, 29, 21), new Level("PT", "pte", 1, 20, 12))),
        ARM64_4K("arm64-4k", "ARM64 4 KiB granule", Arch.ARM, 48, 12, List.of(
                new Level("L0", "pgd", 0, 47, 39), new Level("L1", "pud", 1, 38, 30),
                new Level("L2", "pmd", 2, 29, 21), new Level("L3", "pte", 3, 20, 12))),
        // Linux Documentation/arch/arm64/memory.rst: 64 KiB pages, 48-bit VA, three levels (the pud is folded).
        ARM64_64K("arm64-64k", "ARM64 64 KiB granule", Arch.ARM, 48, 16, List.of(
                new Level("L1", "pgd", 1, 47, 42), new Level("L2", "pmd", 2, 41, 29), new Level("L3", "pte", 3, 28, 16)));

        private final String key;
        private final String title;
        private final Arch arch;
        private final int vaBits;
        private final int offsetBits;
        private final List<Level> levels;

        Layout(String key, String title, Arch arch, int vaBits, int offsetBits, List<Level> levels) {
            this.key = key;
            this.title = title;
            this.arch = arch;
            this.vaBits = vaBits;
            this.offsetBits = offsetBits;
            this.levels = levels;
        }

        /** The name on the command line (x86-64-4...). */
        public String key() {
            return key;
        }

        public String title() {
            return title;
        }

        public Arch arch() {
            return arch;
        }

        public int vaBits() {
            return vaBits;
        }

        public int offsetBits() {
            return offsetBits;
        }

        public List<Level> levels() {
            return levels;
        }

        public long basePageBytes() {
            return 1L << offsetBits;
        }

        /** A page-table page is one base page on every layout here. */
        public long tableBytes() {
            return basePageBytes();
        }

        /** By name (PT, l3, pmd) or number, as --fault-at takes it. */
        public Optional<Level> level(String nameOrNumber) {
            String s = nameOrNumber.trim();
            return levels.stream()
                    .filter(l -> l.name().equalsIgnoreCase(s) || l.linux().equalsIgnoreCase(s) || s.equals(String.valueOf(l.number())))
                    .findFirst();
        }

        public static Layout parse(String s) {
            for (Layout l : values()) if (l.key.equalsIgnoreCase(s.trim()) || l.name().equalsIgnoreCase(s.trim())) return l;
            throw new IllegalArgumentException("unknown layout '" + s + "': choose " + keys());
        }

        static String keys() {
            return Arrays.stream(values()).map(Layout::key).collect(Collectors.joining(", "));
        }

        /**
         * The layout a machine uses. x86_64 walks five levels only when the kernel turned LA57 on (the CPU flag alone
         * is not enough); aarch64 follows the base page size. Anything else gets x86-64 4-level, the common case.
         */
        public static Layout forMachine(String arch, boolean kernelUsesLa57, long basePageBytes) {
            String a = arch == null ? "" : arch.toLowerCase(Locale.ROOT);
            if (a.equals("aarch64") || a.equals("arm64")) return basePageBytes == 65536 ? ARM64_64K : ARM64_4K;
            return kernelUsesLa57 ? X86_64_5LEVEL : X86_64_4LEVEL;
        }
    }

    /** The page the address lives in: the base page, or a huge page that ends the walk early. */
    public enum PageSize {
        BASE("base", 0), SIZE_2M("2M", 2L << 20), SIZE_1G("1G", 1L << 30), SIZE_512M("512M", 512L << 20);

        private final String key;
        private final long hugeBytes;

        PageSize(String key, long hugeBytes) {
            this.key = key;
            this.hugeBytes = hugeBytes;
        }

        public String key() {
            return key;
        }

        public long bytes(Layout layout) {
            return this == BASE ? layout.basePageBytes() : hugeBytes;
        }

        /** The level whose entry maps a page of this size; empty when the layout has no such block. */
        public Optional<Level> leaf(Layout layout) {
            int shift = Long.numberOfTrailingZeros(bytes(layout));
            // The top level never maps a block in these layouts (x86 has no PS bit there, ARM no L0 block).
            return layout.levels().stream().skip(1).filter(l -> l.lo() == shift).findFirst();
        }

        public static PageSize parse(String s) {
            for (PageSize p : values()) if (p.key.equalsIgnoreCase(s.trim())) return p;
            throw new IllegalArgumentException("unknown page size '" + s + "': choose base, 2M, 1G, 512M");
        }
    }

    /**
     * What to walk.
     *
     * @param faultAt "none" or the name of the level whose entry is not present (normalised to the layout's name)
     */
    public record Options(long address, Layout layout, PageSize page, boolean tlbHit, String faultAt) {
        public static final String DEFAULT_ADDRESS = "0x7f3a12345678";

        public Options {
            if (layout == null) throw new IllegalArgumentException("no layout: choose " + Layout.keys());
            if (page == null) page = PageSize.BASE;
            if (page.leaf(layout).isEmpty())
                throw new IllegalArgumentException("page size " + page.key() + " does not exist on " + layout.key() + ": choose "
                        + Arrays.stream(PageSize.values()).filter(p -> p.leaf(layout).isPresent()).map(PageSize::key)
                        .collect(Collectors.joining(", ")));
            faultAt = normaliseFault(layout, page, faultAt);
            if (tlbHit && !faultAt.equals("none"))
                throw new IllegalArgumentException("--fault-at " + faultAt + " needs --tlb miss: the TLB only holds translations that are present");
        }

        public static Options of(long address, Layout layout) {
            return new Options(address, layout, PageSize.BASE, false, "none");
        }

        /** From command-line strings; null means the default (the given layout, base pages, TLB miss, no fault). */
        public static Options parse(String address, String layout, String page, String tlb, String faultAt, Layout defaultLayout) {
            Layout l = layout != null ? Layout.parse(layout) : defaultLayout != null ? defaultLayout : Layout.X86_64_4LEVEL;
            boolean hit = switch (tlb == null ? "miss" : tlb.trim().toLowerCase(Locale.ROOT)) {
                case "hit" -> true;
                case "miss" -> false;
                default -> throw new IllegalArgumentException("unknown --tlb '" + tlb + "': choose hit or miss");
            };
            return new Options(parseAddress(address == null ? DEFAULT_ADDRESS : address), l,
                    page == null ? PageSize.BASE : PageSize.parse(page), hit, faultAt);
        }

        public Level leaf() {
            return page.leaf(layout).orElseThrow();
        }

        public Optional<Level> fault() {
            return faultAt.equals("none") ? Optional.empty() : layout.level(faultAt);
        }

        private static String normaliseFault(Layout layout, PageSize page, String faultAt) {
            if (faultAt == null || faultAt.isBlank() || faultAt.trim().equalsIgnoreCase("none")) return "none";
            List<Level> reachable = layout.levels().subList(0, layout.levels().indexOf(page.leaf(layout).orElseThrow()) + 1);
            String allowed = reachable.stream().map(Level::name).collect(Collectors.joining(", ")) + " or none";
            Level l = layout.level(faultAt).orElseThrow(() -> new IllegalArgumentException(
                    "unknown level '" + faultAt + "' for " + layout.key() + ": choose " + allowed));
            if (!reachable.contains(l))
                throw new IllegalArgumentException("--fault-at " + l.name() + ": with " + page.key() + " pages the walk ends at "
                        + reachable.getLast().name() + "; choose " + allowed);
            return l.name();
        }
    }

    /** "0x7f3a_1234_5678" or decimal digits, unsigned 64-bit. */
    public static long parseAddress(String s) {
        String t = s == null ? "" : s.trim().replace("_", "");
        boolean hex = t.regionMatches(true, 0, "0x", 0, 2);
        String digits = hex ? t.substring(2) : t;
        if (!digits.matches(hex ? "[0-9a-fA-F]+" : "[0-9]+"))
            throw new IllegalArgumentException("bad address '" + s + "': give hex (0x7f3a12345678) or decimal digits");
        try {
            return Long.parseUnsignedLong(digits, hex ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address '" + s + "' does not fit in 64 bits");
        }
    }

    /** The address cut into one index per level and the offset inside a base page. */
    public static List<Field> split(long address, Layout layout) {
        List<Field> out = new ArrayList<>();
        for (Level l : layout.levels()) out.add(new Field(l.name(), l.range(), l.index(address)));
        out.add(new Field("offset", (layout.offsetBits() - 1) + ":0", address & (layout.basePageBytes() - 1)));
        return out;
    }

    /** Why the MMU refuses the address before any lookup, or empty when it is a well-formed address. */
    public static Optional<String> nonCanonical(long address, Layout layout) {
        return Canonical.problem(address, layout);
    }

    /** The walk, step by step. */
    public static List<Step> steps(Options options) {
        return new Walk(options).steps();
    }

    static String hex(long v) {
        return String.format(Locale.ROOT, "0x%016x", v);
    }
}
