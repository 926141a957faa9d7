package hostside.learn.m2;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.vm.explain.PageWalk;
import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Level;
import hostside.vm.explain.Step;
import hostside.vm.explain.WalkState;

/**
 * The page-walk stepper of {@code hostside vm --explain pagewalk}, as frames: each step's title and
 * narration as they are, a drawing made from the step's state (the address cut into its index
 * fields, the levels as boxes with the one being read lit, the TLB), and questions put before the
 * steps that answer them, each answered from the walk itself. The layout follows this machine's base
 * page: 4 KiB walks x86-64's four levels (ARM64's 4 KiB granule on an Arm CPU), 64 KiB walks ARM64's
 * 64 KiB granule.
 */
public final class PageWalkStepper implements Stepper {
    public static final String KEY = "pagewalk";

    private final Function<Layout, PageWalk.Options> options;

    /** The terminal's default walk: its default address, base pages, a TLB miss, no fault. */
    public PageWalkStepper() {
        this(PageWalkStepper::defaults);
    }

    /** Another walk on the machine's layout (a huge page, a TLB hit, a fault), as --page, --tlb and --fault-at give it. */
    public PageWalkStepper(Function<Layout, PageWalk.Options> options) {
        this.options = options;
    }

    /** The options the terminal uses with no flags, on {@code layout}. */
    public static PageWalk.Options defaults(Layout layout) {
        return PageWalk.Options.of(PageWalk.parseAddress(PageWalk.Options.DEFAULT_ADDRESS), layout);
    }

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
        return "A page walk: one virtual address through the TLB and the page tables";
    }

    /** The walk's steps on this machine's layout, as the terminal plays them. */
    public List<Step> steps(Inputs in) {
        return PageWalk.steps(options.apply(Pages.layout(in)));
    }

    @Override
    public List<Frame> frames(Inputs in) {
        Layout layout = Pages.layout(in);
        List<Step> steps = PageWalk.steps(options.apply(layout));
        Walk w = new Walk(layout, steps, Pages.layoutWhy(in, layout));
        Frames f = new Frames();
        int reads = 0;
        for (Step s : steps) {
            WalkState st = (WalkState) s.state();
            reads += reads(st);
            Kind k = kind(st);
            List<Inputs.Value> figures = new ArrayList<>();
            if (s.number() == 1) figures.add(Pages.pageValue(in));
            if (k == Kind.TLB_MISS) figures.add(TlbReachStepper.l2Reach(layout.basePageBytes()));
            if (k == Kind.PHYSICAL) {
                figures.add(TlbReachStepper.l2Reach(w.pageBytes));
                if (w.pageBytes != layout.basePageBytes()) figures.add(TlbReachStepper.l2Reach(layout.basePageBytes()));
            }
            f.add(s.title(), s.narration(), predict(st, w), draw(s.title(), st, k, w, reads), figures.toArray(Inputs.Value[]::new));
        }
        return f.list();
    }

    // ---- what the walk holds, read from its steps

    enum Kind { NON_CANONICAL, SPLIT, TLB_MISS, TLB_HIT, REGISTER, LEVEL, NOT_PRESENT, HANDLER, RETRY, PHYSICAL }

    static Kind kind(WalkState st) {
        return switch (st) {
            case WalkState.Refused r -> Kind.NON_CANONICAL;
            case WalkState.Split sp -> Kind.SPLIT;
            case WalkState.TlbHit h -> Kind.TLB_HIT;
            case WalkState.TlbMiss m -> Kind.TLB_MISS;
            case WalkState.TableBase b -> Kind.REGISTER;
            case WalkState.EntryRead e -> e.present() ? Kind.LEVEL : Kind.NOT_PRESENT;
            case WalkState.FaultHandled h -> Kind.HANDLER;
            case WalkState.Retry r -> Kind.RETRY;
            case WalkState.Physical p -> Kind.PHYSICAL;
        };
    }

    /** The table entries a step reads from memory: one per entry read, each level again on a retry. */
    static int reads(WalkState st) {
        return switch (st) {
            case WalkState.EntryRead e -> 1;
            case WalkState.Retry r -> r.walk().size();
            default -> 0;
        };
    }

    /** The whole walk: what a frame's drawing and question need beyond its own step. */
    static final class Walk {
        final Layout layout;
        final long va;
        final String address;
        final String register;
        final String leaf;
        final String fault;
        final long pageBytes;
        final int reads;
        final String layoutWhy;

        Walk(Layout layout, List<Step> steps, String layoutWhy) {
            this.layout = layout;
            this.layoutWhy = layoutWhy;
            this.address = ((WalkState) steps.getFirst().state()).address();
            this.va = PageWalk.parseAddress(address);
            String reg = null, leafName = null, faultName = null;
            long page = layout.basePageBytes();
            int n = 0;
            for (Step s : steps) {
                WalkState st = (WalkState) s.state();
                n += reads(st);
                switch (st) {
                    case WalkState.TableBase b -> reg = b.register();
                    case WalkState.EntryRead e -> {
                        if (e.leaf()) leafName = e.level();
                        if (!e.present()) faultName = e.level();
                        if (e.pageSizeBytes() != null) page = e.pageSizeBytes();
                    }
                    case WalkState.TlbHit h -> page = h.pageSizeBytes();
                    case WalkState.TlbMiss m -> page = m.pageSizeBytes();
                    case WalkState.Physical p -> page = p.pageSizeBytes();
                    default -> { }
                }
            }
            this.register = reg != null ? reg : layout.arch() == PageWalk.Arch.X86 ? "CR3" : "TTBR0_EL1";
            this.leaf = leafName;
            this.fault = faultName;
            this.pageBytes = page;
            this.reads = n;
        }

        int index(String level) {
            for (int i = 0; i < layout.levels().size(); i++) if (layout.levels().get(i).name().equals(level)) return i;
            return -1;
        }

        /** The levels the walk reads, top down: to the leaf, or to the fault. */
        List<String> read() {
            String last = fault != null ? fault : leaf;
            List<String> out = new ArrayList<>();
            for (Level l : layout.levels()) {
                out.add(l.name());
                if (l.name().equals(last)) break;
            }
            return out;
        }
    }

    // ---- the questions, answered from the walk

    static Frame.Predict predict(WalkState state, Walk w) {
        return switch (state) {
            case WalkState.TlbHit st -> tlbQuestion(w, true,
                    "The TLB holds virtual page " + st.virtualPage() + ": the physical address comes back in about a cycle.");
            case WalkState.TlbMiss st -> tlbQuestion(w, false,
                    "No TLB entry matches virtual page " + st.virtualPage() + ", so the walker reads up to " + st.tableReadsAtMost() + " tables, one per level.");
            case WalkState.TableBase st -> {
                if (w.fault != null || w.reads < 1 || w.reads > 5) yield null;
                List<String> read = w.read();
                boolean early = w.leaf != null && w.index(w.leaf) < w.layout.levels().size() - 1;
                yield new Frame.Predict("Starting from " + w.register + ", how many page-table entries does the walker read from memory to translate "
                        + w.address + "?",
                        List.of("1", "2", "3", "4", "5"), w.reads - 1,
                        "One entry per level, " + String.join(" -> ", read) + ": " + w.reads + (w.reads == 1 ? " read" : " reads")
                                + (early ? ", since the " + w.leaf + " entry maps a whole " + Units.bytes(w.pageBytes) + " page" : "")
                                + ". Each is a memory access: a few ns from the page-walk caches, about 100 ns from DRAM.");
            }
            case WalkState.EntryRead st when !st.present() -> {
                String fault = st.fault();
                boolean pageFault = fault.contains("#PF") || fault.contains("translation fault");
                yield new Frame.Predict("The walker reads the " + st.level() + " entry and finds it not present. What happens?",
                        List.of("A fault: the kernel's handler maps the memory in, or sends SIGSEGV", "The walker skips to the next level",
                                "The CPU reuses the last translation the TLB had"),
                        pageFault ? 0 : 1,
                        "The entry's present bit is 0, so the walk stops with " + fault + ", and the kernel decides.");
            }
            case WalkState.Refused st -> new Frame.Predict("Does the MMU walk the page tables for the address " + w.address + "?",
                    List.of("Yes, as for any address", "No: it refuses the address before reading any table"),
                    1,
                    "The address is malformed (" + st.check() + "): " + st.fault() + ", then " + st.signal() + ".");
            default -> null;
        };
    }

    static Frame.Predict tlbQuestion(Walk w, boolean hit, String answer) {
        return new Frame.Predict(hit
                ? "The instruction just before touched the same page. TLB hit or miss for " + w.address + "?"
                : "The program reaches " + w.address + " while sweeping a buffer far larger than the TLB's reach. TLB hit or miss?",
                List.of("Hit: the TLB holds the translation, no table is read", "Miss: the hardware walks the page tables"),
                hit ? 0 : 1, answer);
    }

    // ---- the drawing

    static String draw(String title, WalkState st, Kind k, Walk w, int readsSoFar) {
        Svg svg = new Svg(Pages.W, Pages.H);
        Layout layout = w.layout;
        svg.text(8, 16, "virtual address " + w.address + ", " + layout.title(), "start", "");

        // the address, cut into one index per level and the offset
        List<PageWalk.Field> fields = PageWalk.split(w.va, layout);
        int current = switch (st) {
            case WalkState.EntryRead e -> w.index(e.level());
            case WalkState.FaultHandled h -> w.index(h.faultLevel());
            default -> -1;
        };
        double gap = 6, fw = (624 - gap * (fields.size() - 1)) / fields.size();
        for (int i = 0; i < fields.size(); i++) {
            PageWalk.Field fl = fields.get(i);
            String[] hiLo = fl.bits().split(":");
            int digits = (Integer.parseInt(hiLo[0]) - Integer.parseInt(hiLo[1]) + 4) / 4;
            String cls = k == Kind.NON_CANONICAL ? "bad" : k == Kind.SPLIT || i == current ? "on"
                    : (k == Kind.PHYSICAL || k == Kind.TLB_HIT) && i == fields.size() - 1 ? "on" : "dim";
            svg.box(8 + i * (fw + gap), 26, fw, 34, fl.name() + " " + fl.bits() + "\n"
                    + String.format(Locale.ROOT, "0x%0" + digits + "x", fl.value()), cls);
        }

        // the TLB, the table register, one box per level, the page
        List<Level> levels = layout.levels();
        int n = levels.size() + 3;
        double bg = 12, bw = (624 - bg * (n - 1)) / n, by = 84, bh = 40;
        int leaf = w.leaf == null ? -1 : w.index(w.leaf);
        int fault = w.fault == null ? -1 : w.index(w.fault);
        int reached = switch (k) {
            case LEVEL, NOT_PRESENT -> current;
            case HANDLER -> current;
            case RETRY, PHYSICAL -> leaf;
            default -> -1;
        };
        String tlbCls = switch (k) {
            case TLB_MISS -> "hot";
            case TLB_HIT, PHYSICAL -> "ok";
            default -> "dim";
        };
        String tlbLabel = switch (k) {
            case TLB_MISS, REGISTER, LEVEL -> "TLB\nmiss";
            case TLB_HIT -> "TLB\nhit";
            case PHYSICAL -> "TLB\nfilled";
            default -> "TLB";
        };
        svg.box(8, by, bw, bh, tlbLabel, tlbCls);
        String regCls = k == Kind.REGISTER ? "on" : reached >= 0 ? "ok" : "dim";
        svg.box(8 + (bw + bg), by, bw, bh, w.register, regCls);
        svg.arrow(8 + bw, by + bh / 2, 8 + bw + bg, by + bh / 2, "", k == Kind.REGISTER ? "on" : regCls.equals("ok") ? "ok" : "dim");
        for (int i = 0; i < levels.size(); i++) {
            Level l = levels.get(i);
            double x = 8 + (i + 2) * (bw + bg);
            boolean skipped = leaf >= 0 && i > leaf;
            String cls;
            if (skipped) cls = "dim";
            else if ((k == Kind.NOT_PRESENT || k == Kind.HANDLER) && i == fault) cls = "bad";
            else if (k == Kind.RETRY) cls = i <= leaf ? "on" : "dim";
            else if (i == current && k == Kind.LEVEL) cls = "on";
            else if (reached >= 0 && i < reached) cls = "ok";
            else if (k == Kind.PHYSICAL && i <= leaf) cls = "ok";
            else cls = "dim";
            String label = l.name() + "\n" + (skipped ? "skipped" : reached >= i || k == Kind.RETRY || k == Kind.PHYSICAL
                    ? "idx " + l.index(w.va) : l.linux());
            svg.box(x, by, bw, bh, label, cls);
            String edge = i == current && (k == Kind.LEVEL || k == Kind.NOT_PRESENT) ? "on" : cls.equals("ok") || cls.equals("on") ? "ok" : "dim";
            svg.arrow(x - bg, by + bh / 2, x, by + bh / 2, "", edge);
        }
        double px = 8 + (levels.size() + 2) * (bw + bg);
        String pageCls = k == Kind.PHYSICAL || k == Kind.TLB_HIT ? "ok" : k == Kind.LEVEL && current == leaf ? "on" : "dim";
        svg.box(px, by, bw, bh, Units.bytes(w.pageBytes) + "\npage", pageCls);
        String pageEdge = pageCls.equals("dim") ? "dim" : pageCls;
        if (leaf >= 0 && leaf < levels.size() - 1) {
            // a huge page's leaf points over the skipped levels to the page
            double lx = 8 + (leaf + 2) * (bw + bg) + bw / 2;
            svg.line(lx, by + bh, lx, by + bh + 8, pageEdge);
            svg.line(lx, by + bh + 8, px + bw / 2, by + bh + 8, pageEdge);
            svg.arrow(px + bw / 2, by + bh + 8, px + bw / 2, by + bh, "", pageEdge);
        } else {
            svg.arrow(px - bg, by + bh / 2, px, by + bh / 2, "", pageEdge);
        }

        // what this step read, in figures
        List<String> details = new ArrayList<>();
        switch (st) {
            case WalkState.Refused r -> {
                details.add("refused: " + r.check());
                details.add(r.fault() + " -> " + r.signal());
            }
            case WalkState.Split sp -> details.add(levels.size() + " table indices, then a " + layout.offsetBits() + "-bit offset into the "
                    + Units.bytes(layout.basePageBytes()) + " page");
            case WalkState.TlbMiss m -> {
                details.add("virtual page " + m.virtualPage() + ": no TLB entry");
                details.add("the walker reads at most " + m.tableReadsAtMost() + " tables, one per level");
            }
            case WalkState.TlbHit h -> {
                details.add("virtual page " + h.virtualPage() + " -> frame " + h.frame());
                details.add("physical " + h.physical() + ", no table read");
            }
            case WalkState.TableBase b -> details.add(b.register() + " = " + b.tableBase() + ": the " + b.table() + " table");
            case WalkState.EntryRead e -> {
                details.add("entry at " + e.entryAddress() + " = " + e.tableBase() + " + " + e.index() + " x 8");
                details.add("entry " + e.entry() + ": " + e.flags());
                if (e.nextTable() != null) details.add("-> next table at " + e.nextTable());
                if (e.frame() != null) details.add("-> frame " + e.frame() + " of a " + Units.bytes(w.pageBytes) + " page");
                if (e.fault() != null) details.add("not present: " + e.fault());
            }
            case WalkState.FaultHandled h -> {
                details.add("the kernel's fault handler: missing " + h.missing());
                details.add("in a VMA: allocate and map, retry (minor fault); in none: SIGSEGV");
            }
            case WalkState.Retry r -> details.add("the walk again: every entry present now, " + r.walk().size() + " reads");
            case WalkState.Physical p -> {
                details.add("physical " + p.physical() + " = frame " + p.frame() + " + offset " + p.offset());
                details.add("TLB reach: " + TlbReachStepper.L2_ENTRIES + " entries (typical) x " + Units.bytes(w.pageBytes) + " = " + Units.bytes(p.tlbReachBytes()));
            }
        }
        if (w.reads > 0 && k != Kind.NON_CANONICAL && k != Kind.SPLIT && k != Kind.TLB_HIT) {
            details.add("table reads so far: " + readsSoFar);
        }
        double y = svg.lines(8, 150, details, "");
        svg.text(8, Math.max(y + 4, Pages.H - 10), w.layoutWhy, "start", "dim");
        return svg.render(title);
    }
}
