package hostside.learn.m1;

import java.util.List;

import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Svg;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.machine.CopyVerdicts;
import hostside.machine.GpuRules;
import hostside.machine.PciLink;
import hostside.report.platforms.HostLink;
import hostside.report.platforms.Placement;
import hostside.report.platforms.Platforms;

/**
 * Module 1: one host-to-device copy of 1 GiB, from pageable memory (the driver's CPU memcpy into a
 * pinned staging buffer, then the copy engine's DMA over the link) and from pinned memory (the DMA
 * engine reads the tensor itself), with this machine's copy figures, its link's limit and what
 * pinning costs. Without a GPU or without measured copies it runs on typical figures of a PCIe
 * Gen5 x16 H100/H200 box, and every caption says so. Where the report judged the copies (M1-PAGEABLE,
 * M1-LINK-SHARE) the frames quote its findings rather than judge the medians themselves, and a copy
 * the report did not judge (measured busy) is not ordered or explained here either.
 */
public final class H2dCopy implements Stepper {
    static final long GIB = 1L << 30;
    /** The batch in the "how long" frame: the report's offload example, 10 GB. */
    static final double BATCH_BYTES = CopyVerdicts.OFFLOAD_BYTES;

    static final String TYPICAL_BOX = "a PCIe Gen5 x16 H100/H200 box";
    /** Pinned: the project's H200 VM measured 55.3 GB/s, platforms.json holds 55.2 for the class; pageable copies there run 8-20 GB/s. */
    static final double TYPICAL_PINNED = 55, TYPICAL_PAGEABLE = 12;
    static final String PIN_TYPICAL = "this project's H200 VM, report of 2026-12-04";
    static final double TYPICAL_ALLOC_MS = 360, TYPICAL_REGISTER_MS = 35;
    static final HostLink TYPICAL_LINK = new HostLink(HostLink.Kind.PCIE, 5, 16);

    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    @Override
    public String key() {
        return "h2d-copy";
    }

    @Override
    public int module() {
        return 1;
    }

    @Override
    public String title() {
        return "A host-to-device copy, pageable against pinned";
    }

    /**
     * The host link as this stepper uses it: its kind, its name and its limit for this GPU per direction (null when
     * there is no link to fill, or when one GPU's share of it is not known, {@code unknown} saying why).
     */
    record Link(String kind, String words, Inputs.Value max, boolean mine, String why, String unknown) {
        Link(String kind, String words, Inputs.Value max, boolean mine, String why) {
            this(kind, words, max, mine, why, "");
        }

        boolean pcie() {
            return kind.equals("pcie");
        }

        boolean c2c() {
            return kind.equals("c2c");
        }

        boolean integrated() {
            return kind.equals("integrated");
        }
    }

    /** The link named by the host_link fact; a typical PCIe Gen5 x16 one when the fact says none, unknown, or nothing. */
    static Link link(Inputs in) {
        Inputs.Fact f = in.facts().get(Inputs.HOST_LINK);
        if (f != null && in.hostLink().isPresent()) {
            Inputs.Fact g = in.facts().get("gpu");
            Link l = link(in.hostLink().get(), f.source(), "", g == null ? null : g.value().replaceFirst("^\\d+x ", ""));
            if (l != null) return l;
        }
        String why = f == null ? "no host link in these inputs" : "the host link " + f.source().words + " is '" + f.value() + "'";
        return link(TYPICAL_LINK, Inputs.Source.TYPICAL, why, null);
    }

    /** The stepper's link for a class's host link; null for one with no limit to draw (none, unknown, a PCIe rate no generation has). */
    static Link link(HostLink link, Inputs.Source source, String why, String gpu) {
        boolean mine = source != Inputs.Source.TYPICAL;
        if (link.isPcie()) {
            Double gts = link.gtPerS();
            if (gts == null) return null;
            int gen = link.generation(), width = link.width();
            // the figure the machine drill shows for the link: line encoding counted, packet overhead not
            double max = PciLink.gbPerSecond(gts, width);
            String words = link.pcieWords();
            String enc = gen >= 6 ? "FLIT 236/256" : gen >= 3 ? "128b/130b" : "8b/10b";
            String note = Units.sig3(gts) + " GT/s x " + width + " lanes, " + enc + " encoding";
            return new Link("pcie", words, new Inputs.Value("host_link_max", max, Unit.GB_PER_S, source, note), mine, why);
        }
        return switch (link.kind()) {
            case C2C -> c2c(source, gpu, mine, why);
            case INTEGRATED -> new Link("integrated", "one shared memory (integrated GPU)", null, mine, why);
            case PCIE, NONE, UNKNOWN -> null;
        };
    }

    /**
     * NVLink-C2C's limit for this GPU, one direction, from the reference platform its GPU matches: GH200 has one
     * GPU per Grace, so its 900 GB/s both ways is the GPU's 450 each way. GB200's and GB300's C2C serve two GPUs
     * and NVIDIA quotes them per superchip: one GPU's share is not known, so no limit is drawn, and a GPU no
     * platform matches gets none either.
     */
    static Link c2c(Inputs.Source source, String gpu, boolean mine, String why) {
        Platforms.Platform p = Platforms.get().platforms().stream().filter(x -> x.link().equals("c2c") && Placement.matches(x, gpu)).findFirst().orElse(null);
        if (p != null && p.hostLinkPerGpu().known()) {
            return new Link("c2c", "NVLink-C2C", new Inputs.Value("host_link_max", p.hostLinkPerGpu().value(), Unit.GB_PER_S, source,
                    p.name() + "'s vendor spec: " + p.hostLinkPerGpu().source()), mine, why);
        }
        String unknown = p != null ? p.name() + "'s " + p.hostLinkPerGpu().source()
                : "no reference platform has " + (gpu == null ? "this GPU" : gpu) + ", and a C2C link's figure is one GPU's only on GH200 (one GPU per Grace): "
                        + "GB200's and GB300's are quoted per superchip of two GPUs";
        return new Link("c2c", "NVLink-C2C", null, mine, why, unknown);
    }

    static Platforms.Platform gh200() {
        return Platforms.get().platforms().stream().filter(p -> p.id().equals("gh200")).findFirst().orElseThrow();
    }

    /** GH200's copy-engine figure as the references quote it: one user's report, never a floor. */
    static String gh200Copy() {
        Platforms.Tagged t = gh200().hostToDevice();
        return "one user's GH200 copied " + Units.sig3(t.value()) + " GB/s (" + t.source() + "; one third-party report, never a floor)";
    }

    @Override
    public List<Frame> frames(Inputs in) {
        Inputs.Value pinned = positive(in, "host_to_device_ce_pinned", TYPICAL_PINNED, Unit.GB_PER_S, TYPICAL_BOX);
        Inputs.Value pageable = positive(in, "host_to_device_ce_pageable", TYPICAL_PAGEABLE, Unit.GB_PER_S, TYPICAL_BOX + ", where pageable copies run 8-20 GB/s");
        Link link = link(in);
        // typical copies are a PCIe box's: they are not put on this machine's C2C or integrated link
        if (!pinned.mine() && !pageable.mine() && !link.pcie()) {
            link = link(TYPICAL_LINK, Inputs.Source.TYPICAL, "this machine's copies were not measured, and the typical ones are a PCIe box's", null);
        }
        Inputs.Value alloc = positive(in, "pin_cost_host_alloc", TYPICAL_ALLOC_MS, Unit.MS_PER_GIB, PIN_TYPICAL);
        Inputs.Value register = positive(in, "pin_cost_host_register", TYPICAL_REGISTER_MS, Unit.MS_PER_GIB, PIN_TYPICAL);
        String gpu = gpu(in, pinned.mine() || pageable.mine());
        String basis = basis(in, pinned, pageable, link);
        String node = node(in);

        Frames f = new Frames();

        // 1. the scene
        String linkLimit = link.max() != null ? "over " + link.words() + ", at most " + link.max().shown() + " per direction"
                : link.c2c() ? "over " + link.words() + ", whose limit for one GPU is not known (" + link.unknown() + ")"
                : "no link to cross: CPU and GPU share one memory";
        add(f, "1 GiB in pageable host memory, bound for the GPU",
                "A 1 GiB tensor sits in ordinary, pageable host memory, as torch.empty or a NumPy array leave it, on NUMA node " + node + ". "
                        + "It is going to " + gpu + ", " + linkLimit + ". " + basis,
                null, CopyDrawings.scene(CopyDrawings.Step.START, link, gpu, node, pinned, pageable), link.max());

        // 2. pageable: who touches the bytes first
        Frame.Predict direct = new Frame.Predict("Can the GPU get at this pageable tensor where it lies, with no CPU copy first?",
                List.of("Yes: DMA reads any host memory", "No: its pages can move, so the driver first copies it into a pinned staging buffer",
                        "Yes, here: over coherent NVLink-C2C the GPU reads it through the CPU's page tables",
                        "There is nothing to cross: CPU and GPU share one memory"),
                link.integrated() ? 3 : link.c2c() ? 2 : 1,
                link.integrated() ? "An integrated GPU reads the same DRAM as the CPU: there is no host link and no second copy of the tensor."
                        : link.c2c() ? "NVLink-C2C is coherent: the GPU translates addresses through the CPU's page tables (ATS), so it can read pageable memory in place."
                        : "A DMA engine works on physical pages, and the kernel may move or swap a pageable page at any moment; so over PCIe the driver stages the copy.");
        if (link.pcie()) {
            add(f, "Pageable: the CPU copies it into a pinned staging buffer",
                    "cudaMemcpy, or tensor.to('cuda'), cannot hand a pageable tensor's pages to the DMA engine: the kernel may move them mid-copy. "
                            + "So a CPU thread copies the tensor, chunk by chunk, into a small pinned buffer the driver owns: a plain memcpy at one core's speed. " + basis,
                    direct, CopyDrawings.scene(CopyDrawings.Step.STAGE, link, gpu, node, pinned, pageable));
        } else if (link.c2c()) {
            add(f, "Pageable over coherent C2C: the GPU can read it in place",
                    "Over NVLink-C2C the GPU walks the CPU's page tables (ATS), so a kernel can read a pageable tensor where it lies, with no staging copy. "
                            + "cudaMemcpy from pageable memory still runs the driver's own path, and the measured figure says how fast it is. " + basis,
                    direct, CopyDrawings.scene(CopyDrawings.Step.STAGE, link, gpu, node, pinned, pageable));
        } else {
            add(f, "Integrated: one memory, nothing to cross",
                    "On an integrated GPU the CPU and the GPU share one DRAM: a host-to-device copy is a copy inside the same memory, not a trip over a link. "
                            + "The figures below are copies all the same, and pinning still decides how the driver can reach the pages. " + basis,
                    direct, CopyDrawings.scene(CopyDrawings.Step.STAGE, link, gpu, node, pinned, pageable));
        }

        // 3. pageable, end to end
        double gibPageable = GIB / (pageable.value() * 1e9);
        String sweep = sweep(in);
        add(f, "Pageable, end to end",
                (link.pcie() ? "Each chunk in the staging buffer goes over " + link.words() + " by the copy engine's DMA while the CPU fills the next one; "
                        + "the two take turns, and the slower one, the CPU's memcpy, sets the pace. " : "")
                        + "End to end, pageable host-to-device copies ran at " + pageable.shown() + ": 1 GiB in " + time(gibPageable) + ". " + sweep + basis,
                null, CopyDrawings.scene(CopyDrawings.Step.DMA, link, gpu, node, pinned, pageable), pageable);

        // 4. pinned
        double ratio = pinned.value() / pageable.value();
        // the report's M1-PAGEABLE weighs the copies' load; where it could not judge them, neither does the course
        var pageableFinding = in.finding(GpuRules.PAGEABLE, pinned, pageable);
        boolean pageableUnjudged = Judgement.unjudged(pageableFinding);
        Frame.Predict faster = new Frame.Predict("Which is faster here, pinned or pageable, and by how much?",
                List.of("Pageable is as fast or faster", "Pinned, by less than 2x", "Pinned, by 2x to 5x", "Pinned, by more than 5x",
                        "Cannot tell: the report did not judge these copies"),
                pageableUnjudged ? 4 : ratio <= 1 ? 0 : ratio < 2 ? 1 : ratio <= 5 ? 2 : 3,
                pageableUnjudged ? "Pinned " + gbs(pinned) + " against pageable " + gbs(pageable) + ". " + Judgement.quote(pageableFinding.get())
                        : (ratio <= 1 ? "Pageable " + gbs(pageable) + " against pinned " + gbs(pinned) + ": unusual; the pinned figure is below what the link allows, so look at the link's speed under load and the buffer's NUMA node."
                        : "Pinned " + gbs(pinned) + " against pageable " + gbs(pageable) + ": " + x(ratio) + "; the pageable copy pays for the CPU's staging memcpy.")
                        + pageableFinding.map(c -> " " + Judgement.quote(c)).orElse(""));
        add(f, "Pinned: the copy engine reads the tensor itself",
                "Pinned (page-locked) memory cannot move, so the driver hands its physical pages to the copy engine, which reads the tensor directly: no staging buffer, no CPU memcpy, and the CPU is free meanwhile. "
                        + "Pinned copies ran at " + pinned.shown() + ", pageable ones at " + pageable.shown()
                        + pageableFinding.map(c -> ". " + Judgement.quote(c)).orElse(": "
                        + (ratio >= 1 ? "pinned is " + x(ratio) + " faster." : "pageable is " + x(1 / ratio) + " faster, which is not the usual order.")) + " " + basis,
                faster, CopyDrawings.scene(CopyDrawings.Step.PINNED, link, gpu, node, pinned, pageable), pinned, pageable);

        // 5. how close to the link's limit
        if (link.max() != null) {
            double share = pinned.value() / link.max().value();
            // M1-LINK-SHARE judges a PCIe link's share: the report's finding, where it drew one, is the verdict here
            boolean pcie = link.pcie();
            var shareFinding = in.finding(GpuRules.LINK_SHARE, pinned).filter(c -> pcie);
            boolean shareUnjudged = Judgement.unjudged(shareFinding);
            Frame.Predict close = new Frame.Predict("Pinned copies here reach what share of the link's limit?",
                    List.of("Under 50%", "50% to 80%", "80% to 95%", "Over 95%", "Cannot tell: the report did not judge these copies"),
                    shareUnjudged ? 4 : share < 0.5 ? 0 : share < 0.8 ? 1 : share <= 0.95 ? 2 : 3,
                    gbs(pinned) + " of " + gbs(link.max()) + " is " + pct(share) + (link.pcie()
                            ? shareFinding.map(c -> ". " + Judgement.quote(c)).orElse(share >= GpuRules.LINK_SHARE_FLOOR
                                    ? ": about what a healthy link gives once packet headers and flow control take their share (" + GpuRules.HEALTHY_SHARES + ")."
                                    : ": below " + pct(GpuRules.LINK_SHARE_FLOOR) + ", under every healthy link hostside knows of (" + GpuRules.LINK_SHARE.id() + "); check the link's speed under load (lspci LnkSta), the buffer's NUMA node and the IOMMU.")
                            : ": C2C's limit here is its vendor spec for one GPU, both directions halved; " + gh200Copy() + "."));
            String limit = link.pcie()
                    ? link.words() + " carries at most " + link.max().shown() + " per direction after line encoding; packet headers and flow control take their share: "
                            + GpuRules.HEALTHY_SHARES + ". "
                    : "NVLink-C2C carries " + link.max().shown() + " per direction for this GPU; " + gh200Copy() + ". ";
            add(f, "How close pinned comes to the link's limit",
                    limit + "Pinned copies here reach " + pinned.shown() + ": " + pct(share) + " of it; pageable ones " + gbs(pageable) + ", " + pct(pageable.value() / link.max().value()) + ". "
                            + shareFinding.map(c -> Judgement.quote(c) + " ").orElse("") + basis,
                    close, CopyDrawings.bars("Host to device, GB/s per direction", List.of(
                            new CopyDrawings.Bar(link.words() + " limit", link.max().value(), gbs(link.max()), "dim"),
                            new CopyDrawings.Bar("pinned", pinned.value(), gbs(pinned) + " = " + pct(share), "ok"),
                            new CopyDrawings.Bar("pageable", pageable.value(), gbs(pageable) + " = " + pct(pageable.value() / link.max().value()), "bad")), basis),
                    link.max(), pinned);
        } else if (link.c2c()) {
            add(f, "Pinned over C2C: one GPU's share of the link is not known",
                    "NVLink-C2C has no limit to hold these copies against: " + link.unknown() + ". "
                            + "Pinned copies here reach " + pinned.shown() + " and pageable ones " + pageable.shown() + ": this machine's own figures are the measurement that settles it. "
                            + "For scale, GH200's link serves one GPU, " + gh200().hostLinkPerGpu().withSource("GB/s") + ", and " + gh200Copy() + ". " + basis,
                    null, CopyDrawings.bars("Host to device, GB/s", List.of(new CopyDrawings.Bar("pinned", pinned.value(), gbs(pinned), "ok"),
                            new CopyDrawings.Bar("pageable", pageable.value(), gbs(pageable), "bad")), basis), pinned, pageable);
        } else {
            add(f, "No link to fill",
                    "An integrated GPU has no host link whose limit a copy could approach: both copies are memory-to-memory inside one DRAM, pinned at " + pinned.shown()
                            + " and pageable at " + pageable.shown() + ". " + basis,
                    null, CopyDrawings.bars("Host to device, GB/s", List.of(new CopyDrawings.Bar("pinned", pinned.value(), gbs(pinned), "ok"),
                            new CopyDrawings.Bar("pageable", pageable.value(), gbs(pageable), "bad")), basis), pinned, pageable);
        }

        // 6. 1 GiB and a 10 GB batch
        double gibPinned = GIB / (pinned.value() * 1e9);
        double batchPinned = BATCH_BYTES / (pinned.value() * 1e9), batchPageable = BATCH_BYTES / (pageable.value() * 1e9);
        Frame.Predict howLong = new Frame.Predict("How long does a 10 GB batch take from pageable memory here?",
                List.of("Under 0.25 s", "0.25 s to 0.5 s", "0.5 s to 1 s", "1 s to 2 s", "Over 2 s"),
                batchPageable < 0.25 ? 0 : batchPageable < 0.5 ? 1 : batchPageable < 1 ? 2 : batchPageable <= 2 ? 3 : 4,
                "10 GB at " + gbs(pageable) + " is " + time(batchPageable) + "; from pinned memory, at " + gbs(pinned) + ", " + time(batchPinned) + ".");
        double lost = batchPageable - batchPinned;
        add(f, "1 GiB, and a 10 GB batch",
                "At " + pinned.shown() + " pinned and " + pageable.shown() + " pageable, 1 GiB takes " + time(gibPinned) + " pinned and " + time(gibPageable)
                        + " pageable; a 10 GB batch, or 10 GB of offloaded optimizer state, takes "
                        + time(batchPinned) + " pinned and " + time(batchPageable) + " pageable. "
                        + (lost > 0 ? "A step that waits on that copy waits " + time(lost) + " longer when the batch is pageable. " : "Here pageable is not the slower one. ") + basis,
                howLong, CopyDrawings.timeline(pinned, pageable, batchPinned, batchPageable, basis), pinned, pageable);

        // 7. what pinning costs
        double copies = alloc.value() / (gibPinned * 1e3);
        // what pinning costs is M1-PIN-COST's finding; one measured busy is not turned into advice here
        var pinCost = in.finding(GpuRules.PIN_COST, alloc, register);
        Frame.Predict cost = new Frame.Predict("Pinning 1 GiB from scratch (cudaHostAlloc) takes as long as how many pinned copies of that 1 GiB?",
                List.of("Less than 1", "1 to 5", "5 to 20", "More than 20"),
                copies < 1 ? 0 : copies < 5 ? 1 : copies <= 20 ? 2 : 3,
                Units.sig3(alloc.value()) + " ms to pin against " + time(gibPinned) + " a pinned copy: " + Units.sig3(copies) + " copies' worth. Pin once and reuse.");
        add(f, "What pinning itself costs",
                "Pinning is not free: cudaHostAlloc of fresh pinned memory cost " + alloc.shown() + ", and cudaHostRegister of memory already in use "
                        + register.shown() + ": every page is faulted in, locked and mapped for the GPU. "
                        + "Pinning 1 GiB from scratch takes as long as " + Units.sig3(copies) + " pinned copies of it at " + pinned.shown()
                        + (Judgement.unjudged(pinCost) ? ". " : ", so pin buffers once and reuse them, as PyTorch's caching host allocator does. ")
                        + pinCost.map(c -> Judgement.quote(c) + " ").orElse("")
                        + (alloc.mine() && register.mine() || !basis.isEmpty() ? "" : "A pinning cost marked typical was not measured here. ")
                        + basis,
                cost, CopyDrawings.bars("Cost per GiB, milliseconds", List.of(
                        new CopyDrawings.Bar("cudaHostAlloc (pin new)", alloc.value(), Units.sig3(alloc.value()) + " ms", "hot"),
                        new CopyDrawings.Bar("cudaHostRegister (pin in use)", register.value(), Units.sig3(register.value()) + " ms", "hot"),
                        new CopyDrawings.Bar("one pinned copy of 1 GiB", gibPinned * 1e3, time(gibPinned), "ok")), alloc.mine() ? basis : "typical"),
                alloc, register, pinned);

        // 8. what to do
        add(f, "What to do in PyTorch",
                "Load batches with DataLoader(pin_memory=True): its pin-memory thread copies each batch into pinned memory in the background, off the training loop. "
                        + "Then x.to('cuda', non_blocking=True) queues the copy on the copy engine and returns at once, so it overlaps compute; from pageable memory it could not. "
                        + (pageableUnjudged ? "The report did not judge this machine's copies (" + GpuRules.PAGEABLE.id() + ", unknown), so no gain is read from the figures above. "
                        : lost > 0 ? "By the figures above, that turns " + time(batchPageable) + " per 10 GB into " + time(batchPinned) + " and frees a CPU core from the staging memcpy. " : "")
                        + basis,
                null, CopyDrawings.advice(batchPinned, batchPageable, basis));
        return f.list();
    }

    // ---- the words


    /** The machine's figure, or the typical one where it has none or a figure no rate can be made of (zero, negative, not a number). */
    static Inputs.Value positive(Inputs in, String key, double typical, Unit unit, String typicalOf) {
        Inputs.Value v = in.value(key, typical, unit, typicalOf);
        return v.value() > 0 && Double.isFinite(v.value()) ? v : new Inputs.Value(key, typical, unit, Inputs.Source.TYPICAL, typicalOf);
    }

    /** "the NVIDIA H200" from the gpu fact "1x NVIDIA H200"; without one "the GPU" whose copies were measured, else "a typical H100". */
    static String gpu(Inputs in, boolean measured) {
        Inputs.Fact g = in.facts().get("gpu");
        if (g == null || g.value().equals("none") || g.value().isBlank()) return measured ? "the GPU" : "a typical H100";
        String name = g.value().replaceFirst("^\\d+x ", "");
        return "the " + name;
    }

    /** The GPU's NUMA node when the inputs carry it; "unknown" when they do not, or when the kernel says -1. */
    static String node(Inputs in) {
        Inputs.Fact n = in.facts().get("gpu_numa_node");
        if (n == null || !n.mine()) return "unknown (these inputs do not say which node the GPU hangs off)";
        if (n.value().trim().equals("-1")) return "unknown (the kernel says -1, as VMs often do)";
        return n.value().trim() + ", the GPU's own node (" + n.source().words + ")";
    }

    /** One sentence saying which figures are typical, or "" when they are all this machine's. */
    static String basis(Inputs in, Inputs.Value pinned, Inputs.Value pageable, Link link) {
        if (pinned.mine() && pageable.mine()) {
            return link.mine() ? "" : "The link is typical (" + link.why() + "); the copy figures are this machine's.";
        }
        Inputs.Fact g = in.facts().get("gpu");
        String why = g != null && g.mine() && g.value().equals("none") ? "this machine has no GPU (" + g.source().words + ")"
                : in.values().isEmpty() ? "there is no report" : "its copies were not measured";
        if (!pinned.mine() && !pageable.mine()) return "These are typical figures of " + TYPICAL_BOX + ", not this machine's: " + why + ".";
        return (pinned.mine() ? "Pageable" : "Pinned") + " is a typical figure of " + TYPICAL_BOX + ", not this machine's: " + why + ".";
    }

    /** The size sweep's best pageable copy, when measured here: a pageable copy's speed depends on its size. */
    static String sweep(Inputs in) {
        Inputs.Value peak = in.values().get("host_to_device_sweep_pageable");
        Inputs.Value at = in.values().get("host_to_device_sweep_pageable_peak_bytes");
        if (peak == null || at == null || !peak.mine() || at.value() <= 0) return "";
        return "In the size sweep pageable copies did best at " + Units.bytes((long) at.value()) + ", at " + peak.shown() + "; large copies run slower. ";
    }

    static String gbs(Inputs.Value v) {
        return Units.sig3(v.value()) + " GB/s";
    }

    static String time(double seconds) {
        return seconds < 1 ? Units.sig3(seconds * 1e3) + " ms" : Units.sig3(seconds) + " s";
    }

    static String pct(double share) {
        return Units.share(share);
    }

    static String x(double ratio) {
        return Units.sig3(ratio) + "x";
    }

    /** A frame; its caption trimmed (the typical-figures sentence may be empty), its figures without the unknown ones. */
    private static void add(Frames f, String title, String caption, Frame.Predict predict, String svg, Inputs.Value... figures) {
        f.add(title, caption.trim(), predict, svg, figures(figures));
    }

    private static Inputs.Value[] figures(Inputs.Value... vs) {
        return java.util.Arrays.stream(vs).filter(java.util.Objects::nonNull).toArray(Inputs.Value[]::new);
    }
}
