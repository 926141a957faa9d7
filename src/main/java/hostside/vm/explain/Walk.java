package hostside.vm.explain;

import java.util.Locale;
import static hostside.vm.explain.PageWalk.hex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import hostside.core.Units;
import hostside.vm.explain.PageWalk.Arch;
import hostside.vm.explain.PageWalk.Field;
import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Level;
import hostside.vm.explain.PageWalk.Options;
import hostside.vm.explain.PageWalk.PageSize;

/** Builds the page-walk steps for one set of options. */
final class Walk {
    /** The second-level TLB's entries the reach figures are counted with (PageWalk#TLB_RANGE: cores differ). */
    static final int TLB_ENTRIES = PageWalk.TLB_ENTRIES;

    private final Options o;
    private final Layout layout;
    private final long va;
    private final boolean user;
    private final Level leaf;
    private final int leafIndex;
    private final long pageBytes;
    private final long frame;
    private final long offset;
    private final List<Step> steps = new ArrayList<>();

    Walk(Options o) {
        this.o = o;
        this.layout = o.layout();
        this.va = o.address();
        this.user = !Canonical.upper(va, layout);
        this.leaf = o.leaf();
        this.leafIndex = layout.levels().indexOf(leaf);
        this.pageBytes = o.page().bytes(layout);
        this.frame = Synthetic.frame(layout, va, pageBytes);
        this.offset = va & (pageBytes - 1);
    }

    List<Step> steps() {
        Optional<String> bad = Canonical.problem(va, layout);
        if (bad.isPresent()) {
            nonCanonical(bad.get());
            return List.copyOf(steps);
        }
        split();
        if (o.tlbHit()) {
            tlbHit();
            return List.copyOf(steps);
        }
        tlbMiss();
        tableBase();
        Optional<Level> fault = o.fault();
        for (int i = 0; i <= leafIndex; i++) {
            if (fault.isPresent() && fault.get().equals(layout.levels().get(i))) {
                notPresent(i);
                handler(i);
                retry();
                break;
            }
            level(i);
        }
        physical();
        return List.copyOf(steps);
    }

    // ---- the steps

    private void nonCanonical(String why) {
        if (layout.arch() == Arch.X86) {
            int top = layout.vaBits() - 1;
            add("Non-canonical address: #GP, not a page fault",
                    "On " + layout.title() + " bits 63:" + top + " of an address must all be equal, copies of bit " + top
                            + " (all 0 for user space, all 1 for the kernel), and here they are not: " + why + ". "
                            + "The CPU refuses the address before any TLB lookup or table walk and raises a general-protection fault (#GP), not a page fault, so there is nothing for the kernel to map in. "
                            + "Linux turns it into SIGSEGV for a user program.",
                    new WalkState.Refused(layout.key(), hex(va), why, "#GP (general protection)", "SIGSEGV"));
        } else {
            add("Address outside both TTBR ranges: no walk",
                    "Bit 55 picks the table register: 0 means TTBR0_EL1 (user), where bits 55:48 must be 0 (Linux ignores the top byte, a pointer tag); 1 means TTBR1_EL1 (kernel), where bits 63:48 must all be 1. "
                            + "Here " + why + ", so the MMU raises a translation fault without reading any table. "
                            + "There is nothing for the kernel to map in: Linux sends SIGSEGV to a user program.",
                    new WalkState.Refused(layout.key(), hex(va), why, "translation fault, no table read", "SIGSEGV"));
        }
    }

    private void split() {
        List<WalkState.IndexField> fields = new ArrayList<>();
        for (Field f : PageWalk.split(va, layout)) {
            String[] hiLo = f.bits().split(":");
            int width = (Integer.parseInt(hiLo[0]) - Integer.parseInt(hiLo[1]) + 4) / 4;
            fields.add(new WalkState.IndexField(f.name(), f.bits(), f.value(), String.format(Locale.ROOT, "0x%0" + width + "x", f.value())));
        }
        String sizes = layout == Layout.ARM64_64K
                ? "L2 and L3 take 13 bits each, so a 64 KiB table holds 8192 eight-byte entries; L1 takes the remaining 6 bits (64 entries)."
                : "A 9-bit index picks one of 512 eight-byte entries, exactly one 4 KiB table.";
        String half = layout.arch() == Arch.X86
                ? (user ? "" : " Bit " + (layout.vaBits() - 1) + " is 1: a kernel address.")
                : (user ? " Bit 55 is 0: a user address, walked from TTBR0_EL1" + tagNote() + "."
                        : " Bit 55 is 1: a kernel address, walked from TTBR1_EL1.");
        add("Split the address into indices",
                "The MMU cuts the " + layout.vaBits() + "-bit virtual address " + hex(va) + " into " + layout.levels().size()
                        + " table indices, one per level, and a " + layout.offsetBits() + "-bit offset inside the "
                        + Units.bytes(layout.basePageBytes()) + " page. " + sizes + half,
                new WalkState.Split(layout.key(), hex(va), layout.vaBits(), layout.basePageBytes(),
                        user ? WalkState.Half.USER : WalkState.Half.KERNEL, fields));
    }

    private String tagNote() {
        long tag = Canonical.tag(va, layout);
        return tag == 0 ? "" : String.format(Locale.ROOT, " (the top byte 0x%02x is a pointer tag: Linux sets top-byte-ignore for user pointers)", tag);
    }

    private void tlbHit() {
        long pa = frame + offset;
        add("TLB lookup: hit, translation done",
                "The TLB, the core's cache of recent translations, already holds this " + Units.bytes(pageBytes)
                        + " page, so the physical address comes back in about one cycle and no table is read. "
                        + "Physical address = frame " + hex(frame) + " + offset " + String.format(Locale.ROOT, "0x%x", offset) + " = " + hex(pa) + ". "
                        + "Most accesses end here; the walk below only happens on a miss.",
                new WalkState.TlbHit(layout.key(), hex(va), hex(va & -pageBytes), pageBytes, hex(frame),
                        String.format(Locale.ROOT, "0x%x", offset), hex(pa)));
    }

    private void tlbMiss() {
        add("TLB lookup: miss, walk the tables",
                "The core first looks the page up in its TLB, a small cache of recent translations (a few dozen entries in the L1 TLB, about "
                        + TLB_ENTRIES + " in the second-level TLB: " + PageWalk.TLB_RANGE + "). Nothing matches this page, so the hardware page walker reads the tables in memory, one level at a time, "
                        + layout.levels().size() + " reads at most.",
                new WalkState.TlbMiss(layout.key(), hex(va), hex(va & -pageBytes), pageBytes, layout.levels().size()));
    }

    private void tableBase() {
        long base = Synthetic.table(layout, 0, va);
        String top = layout.levels().getFirst().name();
        if (layout.arch() == Arch.X86) {
            add("Table base from CR3",
                    "CR3 holds the physical address of this process's top table, the " + top
                            + "; the kernel loads it on every context switch. Kernel addresses go through the same table: its upper half is shared by every process.",
                    new WalkState.TableBase(layout.key(), hex(va), "CR3", hex(base), top));
        } else {
            String reg = user ? "TTBR0_EL1" : "TTBR1_EL1";
            add("Table base from " + reg,
                    user ? reg + " holds the physical address of this process's " + top + " table, the one for user addresses; the kernel switches it with the process. Kernel addresses go through TTBR1_EL1 instead, one table shared by every process."
                            : reg + " holds the physical address of the kernel's " + top + " table, shared by every process. User addresses go through TTBR0_EL1, which the kernel switches with the process.",
                    new WalkState.TableBase(layout.key(), hex(va), reg, hex(base), top));
        }
    }

    private void level(int i) {
        Level l = layout.levels().get(i);
        Entry e = entry(i, true);
        String where = "Entry address = table base " + hex(e.base) + " + " + e.index + " x 8 bytes = " + hex(e.address) + ". ";
        if (i < leafIndex) {
            Level next = layout.levels().get(i + 1);
            add(name(l) + ": index " + e.index + " -> " + next.name() + " table",
                    where + "The entry reads " + hex(e.value) + ": present, and it points to the " + next.name() + " table at "
                            + hex(e.next) + ". " + cost(i),
                    read(e, hex(e.next), null, null, null, null));
        } else if (i < layout.levels().size() - 1) {
            long skipped = leaf.lo();
            add(name(l) + ": index " + e.index + " -> " + Units.bytes(pageBytes) + " page, walk ends early",
                    where + "The entry reads " + hex(e.value) + ": present " + (layout.arch() == Arch.X86 ? "with PS=1" : "and a block descriptor (bit 1 = 0)")
                            + ", so it maps a whole " + Units.bytes(pageBytes) + " page and the walk stops here, skipping "
                            + skippedLevels(i) + ". "
                            + "The low " + skipped + " bits of the address (the skipped indices and the offset together) become the offset "
                            + String.format(Locale.ROOT, "0x%x", offset) + " into the frame at " + hex(frame) + ".",
                    read(e, null, hex(frame), pageBytes, skipped, null));
        } else {
            add(name(l) + ": index " + e.index + " -> " + Units.bytes(pageBytes) + " frame",
                    where + "The entry reads " + hex(e.value) + ": present, and this is the last level, so it holds the physical frame "
                            + hex(frame) + " of this " + Units.bytes(pageBytes) + " page. "
                            + "This last read is the one most likely to miss the caches: a big working set has more page-table pages than the caches hold.",
                    read(e, null, hex(frame), pageBytes, null, null));
        }
    }

    private void notPresent(int i) {
        Level l = layout.levels().get(i);
        Entry e = entry(i, false);
        String raise = layout.arch() == Arch.X86
                ? "The CPU raises a page fault (#PF) with the address in CR2, and the kernel's fault handler takes over."
                : "The MMU raises a translation fault at level " + l.number() + " (a data abort with the address in FAR_EL1), and the kernel's fault handler takes over.";
        add(name(l) + ": index " + e.index + " -> not present, page fault",
                "Entry address = table base " + hex(e.base) + " + " + e.index + " x 8 bytes = " + hex(e.address) + ". "
                        + "The entry reads " + hex(e.value) + ": its " + (layout.arch() == Arch.X86 ? "present" : "valid") + " bit is 0, so the walk stops. " + raise,
                read(e, null, null, null, null,
                        layout.arch() == Arch.X86 ? "#PF (page fault), address in CR2" : "translation fault level " + l.number() + ", address in FAR_EL1"));
    }

    private void handler(int i) {
        Level l = layout.levels().get(i);
        if (i < leafIndex) {
            Level next = layout.levels().get(i + 1);
            add("The kernel handles the fault: a missing table",
                    "A missing " + l.name() + " entry means the " + next.name() + " table below it does not exist yet: nothing in this "
                            + Units.bytes(l.entryCovers()) + " stretch of the address space has been touched. "
                            + "If the address is inside a VMA (a region the process has mapped), the kernel allocates a zeroed "
                            + Units.bytes(layout.tableBytes()) + " page-table page, fills this entry, and goes on down, allocating the page itself as for a first touch (a minor fault). "
                            + "If no VMA covers the address, the access is a bug and the process gets SIGSEGV.",
                    new WalkState.FaultHandled(layout.key(), hex(va), l.name(), next.name() + " table", List.of(
                            new WalkState.FaultCase("address in a VMA", "allocate a page-table page, fill the entry, continue down", "minor"),
                            new WalkState.FaultCase("address in no VMA", "send SIGSEGV", "-"))));
            return;
        }
        String page = Units.bytes(pageBytes);
        boolean huge = o.page() != PageSize.BASE;
        String fresh = "a zeroed " + page + " page" + (huge ? ", a transparent huge page or one from the hugetlbfs pool" : "");
        add("The kernel handles the fault: a missing page",
                "A missing entry for the page itself (the last level of this walk) is where the kernel decides what the page is: anonymous memory touched for the first time gets "
                        + fresh + " (a minor fault). A file mapping whose page is in the page cache is mapped directly (minor fault); otherwise the kernel reads it from disk first (a major fault, a disk wait). "
                        + "A write to a present but read-only copy-on-write entry faults here too and gets its own copy of the page, and an address in no VMA gets SIGSEGV.",
                new WalkState.FaultHandled(layout.key(), hex(va), l.name(), page + " page", List.of(
                        new WalkState.FaultCase("anonymous memory, first touch", "allocate a zeroed " + page + " page" + (huge ? " (THP or hugetlbfs)" : ""), "minor"),
                        new WalkState.FaultCase("file mapping, page in the page cache", "map the cached page", "minor"),
                        new WalkState.FaultCase("file mapping, not in the page cache", "read it from disk, then map it", "major"),
                        new WalkState.FaultCase("write to a read-only copy-on-write entry", "copy the page, map the copy writable", "minor"),
                        new WalkState.FaultCase("address in no VMA", "send SIGSEGV", "-"))));
    }

    private void retry() {
        List<WalkState.WalkRow> rows = new ArrayList<>();
        for (int i = 0; i <= leafIndex; i++) {
            Entry e = entry(i, true);
            rows.add(new WalkState.WalkRow(layout.levels().get(i).name(), e.index, hex(e.address), hex(e.value), e.flags));
        }
        add("Retry: the access runs again",
                "The handler returns to the faulting instruction, which runs again. "
                        + "The TLB still misses (a not-present entry is never cached), so the walker reads every level again, and this time each entry is present; the ones the kernel just wrote are likely still in the cache.",
                new WalkState.Retry(layout.key(), hex(va), rows));
    }

    private void physical() {
        long pa = frame + offset;
        long base = layout.basePageBytes();
        String reach = pageBytes == base
                ? "One TLB entry covers " + Units.bytes(base) + " here: " + TLB_ENTRIES + " entries (a typical count) reach only " + Units.bytes(TLB_ENTRIES * base)
                        + ", so a process that sweeps gigabytes (a dataset, a pinned staging buffer) walks often."
                : "One TLB entry now covers " + Units.bytes(pageBytes) + ": " + TLB_ENTRIES + " entries (a typical count) x " + Units.bytes(pageBytes) + " = "
                        + Units.bytes(TLB_ENTRIES * pageBytes) + " of reach instead of " + TLB_ENTRIES + " x " + Units.bytes(base) + " = "
                        + Units.bytes(TLB_ENTRIES * base) + (o.page() == PageSize.SIZE_1G ? " (cores keep fewer 1 GiB entries, but even 16 reach 16 GiB)" : "")
                        + ", which is why huge pages cut walks for big buffers.";
        add("Physical address and TLB fill",
                "Physical address = frame " + hex(frame) + " + offset " + String.format(Locale.ROOT, "0x%x", offset) + " = " + hex(pa) + ". "
                        + "The walker stores the translation in the TLB, so the next access to this " + Units.bytes(pageBytes) + " page skips the walk. " + reach,
                new WalkState.Physical(layout.key(), hex(va), hex(frame), String.format(Locale.ROOT, "0x%x", offset), hex(pa), pageBytes,
                        TLB_ENTRIES * pageBytes, TLB_ENTRIES * base));
    }

    // ---- helpers

    /** One entry read: where it is and what it holds. */
    private record Entry(Level level, long index, long base, long address, long value, long next, String flags) {}

    /** An entry read as a step's state, with what its kind of entry leads to (null where it does not apply). */
    private WalkState.EntryRead read(Entry e, String nextTable, String frame, Long pageSizeBytes, Long offsetBits, String fault) {
        return new WalkState.EntryRead(layout.key(), hex(va), e.level.name(), e.level.linux(), e.level.range(), e.index, hex(e.base), hex(e.address),
                hex(e.value), e.flags, Entries.present(e.value), nextTable, frame, pageSizeBytes, offsetBits, fault);
    }

    private Entry entry(int i, boolean present) {
        Level l = layout.levels().get(i);
        long base = Synthetic.table(layout, i, va);
        long index = l.index(va);
        long next = i < leafIndex ? Synthetic.table(layout, i + 1, va) : frame;
        long value = !present ? 0 : i < leafIndex ? Entries.table(layout, next, user) : Entries.leaf(layout, frame, user, i < layout.levels().size() - 1);
        boolean last = i == layout.levels().size() - 1;
        boolean sizeBit = Arrays.stream(PageSize.values()).anyMatch(p -> p != PageSize.BASE && p.leaf(layout).equals(Optional.of(l)));
        return new Entry(l, index, base, base + index * 8, value, next, Entries.flags(layout, value, last, sizeBit));
    }

    private static String name(Level l) {
        return l.name() + " (" + l.linux() + ")";
    }

    private String skippedLevels(int i) {
        return String.join(" and ", layout.levels().subList(i + 1, layout.levels().size()).stream().map(Level::name).toList());
    }

    /** Upper levels are nearly always hot: a few entries cover the whole working set. */
    private String cost(int i) {
        return i == 0 || i < leafIndex - 1
                ? "Each level is one memory read: about 100 ns from DRAM, but entries this high are shared by huge stretches of memory, so they usually hit the page-walk caches or L2/L3 in a few ns."
                : "Each level is one memory read: a few ns when the entry is hot in the page-walk caches or L2/L3, about 100 ns when it has to come from DRAM.";
    }

    private void add(String title, String narration, WalkState state) {
        steps.add(new Step(steps.size() + 1, title, narration, state));
    }
}
