package hostside.learn.m5;

import java.util.ArrayList;
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
import hostside.report.platforms.HostLink;

/**
 * A GPU reading host memory: in place over a coherent link with ATS (Grace Hopper, Grace
 * Blackwell: the GPU translates through the CPU's own page tables), pages the GPU keeps reading
 * migrated to its memory by access counters, against the explicit copy through a pinned buffer;
 * then this machine's link and its own figures. On a PCIe machine the coherent half is GH200's,
 * from platforms.json, said to be reference figures.
 */
public final class CoherentAccessStepper implements Stepper {
    public static final String KEY = "coherent-access";

    /** 1 GiB: the buffer of the questions. */
    static final long GIB = 1L << 30;
    static final String H200_VM = "the H200 VM (PCIe Gen5 x16), docs/measurements 2026-12-04";

    /** The answers of "can a kernel dereference a malloc'd host pointer?", in their order among the choices. */
    enum Reach { ATS, HMM, PINNED_ONLY, NO_GPU }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public int module() {
        return 5;
    }

    @Override
    public String title() {
        return "A GPU reading host memory: coherent access over ATS against an explicit copy";
    }

    /**
     * How this machine's GPU reaches a plain malloc'd pointer: the GPU's addressing mode where the
     * inputs carry it (fact addressing_mode: ATS, HMM or none, as NVML says), else from the host link.
     */
    static Reach reach(Inputs in) {
        HostLink.Kind link = Reference.link(in);
        if (link == HostLink.Kind.NONE) return Reach.NO_GPU;
        Inputs.Fact mode = in.fact("addressing_mode", "");
        if (mode.mine()) {
            switch (mode.value().trim().toUpperCase(java.util.Locale.ROOT)) {
                case "ATS" -> {
                    return Reach.ATS;
                }
                case "HMM" -> {
                    return Reach.HMM;
                }
                case "NONE" -> {
                    return Reach.PINNED_ONLY;
                }
                default -> {
                }
            }
        }
        return link == HostLink.Kind.C2C || link == HostLink.Kind.INTEGRATED ? Reach.ATS : Reach.PINNED_ONLY;
    }

    @Override
    public List<Frame> frames(Inputs in) {
        HostLink.Kind link = Reference.link(in);
        boolean coherent = link == HostLink.Kind.C2C || link == HostLink.Kind.INTEGRATED;
        String linkWords = Reference.linkWords(in);
        String gpu = in.fact("gpu", "a GPU").value();
        Inputs.Value gh = Reference.gh200HostToDevice(), c2c = Reference.gh200C2cPerDirection();
        Inputs.Value ce = coherent ? in.value("host_to_device_ce_pinned", gh.value(), Unit.GB_PER_S, gh.note())
                : in.value("host_to_device_ce_pinned", Reference.pcieHostToDevice().value(), Unit.GB_PER_S, Reference.pcieHostToDevice().note());
        Inputs.Value pageable = in.value("host_to_device_ce_pageable", 7.964027820068519, Unit.GB_PER_S, H200_VM);
        Inputs.Value sm = in.value("host_to_device_sm", 51.12713601202602, Unit.GB_PER_S, H200_VM);
        Inputs.Value latency = in.value("host_device_latency_sm", 1189.1344, Unit.NS, H200_VM);
        Inputs.Value faults = in.value("managed_gpu_faults_h2d", 13.846197654046666, Unit.GB_PER_S, H200_VM);
        Inputs.Value prefetch = in.value("managed_prefetch_h2d", 48.791683409102546, Unit.GB_PER_S, H200_VM);
        long page = in.basePageBytes();
        String pageWords = Units.bytes(page) + (in.basePage().mine() ? " (read here)" : " (typical, not this machine)");
        Inputs.Fact numa = in.fact("numa_balancing", "0");
        Frames f = new Frames();

        f.add("A kernel needs an array that lives in host memory",
                "A training or inference step often needs data the CPU holds: a batch, an embedding shard, an offloaded KV-cache block. "
                        + "Either the GPU reads it where it is, or it is copied into GPU memory first. Which of the two works, and how fast, depends on the link. "
                        + (link == HostLink.Kind.NONE ? "This machine has no GPU (host link " + linkWords + "): the frames use reference figures."
                        : "This machine: " + gpu + ", host link " + linkWords + "."),
                null, machineDrawing(link, linkWords, "this machine: " + linkWords));

        f.add("ATS: the GPU translates through the CPU's page tables",
                "On a Grace Hopper or Grace Blackwell superchip the GPU sends a translation request for a host address to the CPU side (Address Translation Services), "
                        + "where the SMMU walks the same page tables the CPU uses: any pointer from malloc or mmap is valid in a kernel, with no pinning and no registration. "
                        + "Each translation covers one CPU page, " + pageWords + " here: NVIDIA's Grace tuning guide recommends 64 KiB pages, 16 times fewer translations than 4 KiB. "
                        + (coherent ? "This machine's link is coherent, so this is how its GPU reads host memory."
                        : link == HostLink.Kind.NONE ? "This machine has no GPU: this frame shows a GH200." : "This machine's link is not coherent: this frame shows a GH200."),
                null, atsDrawing(page, coherent), gh);

        f.add("A coherent read over NVLink-C2C: cache lines, no copy",
                "The GPU's load then reads the CPU's LPDDR5X over NVLink-C2C in cache lines, coherent with the CPU's caches: nothing is copied or pinned, and the CPU sees the GPU's writes. "
                        + "Reference figures, not this machine's: GH200's copy engine moves " + gh.shown() + ", and the link's spec is " + c2c.shown() + ". "
                        + "A kernel streaming host memory this way runs at link speed, well below its own HBM's."
                        + (coherent && ce.mine() ? " This machine's copy engine measured " + ce.shown() + "." : ""),
                null, c2cDrawing(gh, c2c), coherent && ce.mine() ? new Inputs.Value[]{gh, c2c, ce} : new Inputs.Value[]{gh, c2c});

        f.add("Access counters: pages the GPU keeps reading move to its memory",
                "Reading in place costs a link crossing every time. The GPU counts its accesses to host pages, and when a page is hot the driver may migrate it to GPU memory and point the CPU's page table there, "
                        + "so later reads are local (the CUDA programming guide's access-counter migration). That needs GPU memory onlined as a NUMA node, the default on Grace; in CDMM mode the driver keeps GPU memory to itself and nothing migrates. "
                        + "Keep the kernel's own NUMA balancing off, or it moves pages too: kernel.numa_balancing is " + numa.value() + " (" + numa.source().words + ").",
                null, migrationDrawing());

        f.add("The explicit copy: a pinned buffer and the copy engine",
                "cudaMemcpy from pinned memory is a DMA by the GPU's copy engine: " + ce.shown() + ". "
                        + "From pageable memory the driver first copies into a pinned staging buffer of its own: " + pageable.shown() + ". "
                        + "For comparison, GH200's copy engine over C2C: " + gh.shown() + ".",
                null, copyDrawing(ce, pageable, gh), ce, pageable, gh);

        Reach r = reach(in);
        Inputs.Fact mode = in.fact("addressing_mode", "");
        String how = mode.mine() ? "the GPU's addressing mode is " + mode.value() + " (read here)" : "the host link is " + linkWords;
        String here = switch (r) {
            case ATS -> "Yes: " + how + ", so the GPU translates through the CPU's page tables and a malloc'd pointer works in a kernel, read in place at link speed.";
            case HMM -> "Yes, through HMM: " + how + "; the driver mirrors the CPU's page tables and a GPU access faults the page over into GPU memory, so the first touch of each page costs a fault.";
            case PINNED_ONLY -> "No: " + how + ", not coherent, so there is no ATS here. A plain malloc'd pointer is not mapped on the GPU and the kernel faults with an illegal address; "
                    + "pinned (cudaHostAlloc, or cudaHostRegister on the buffer) or managed (cudaMallocManaged) memory works. The SMs read pinned host memory at " + sm.shown()
                    + ", " + latency.shown() + " per dependent access." + (mode.mine() ? "" : " (HMM, on the open kernel modules with Linux 6.1 or later, can make malloc'd memory work by faulting pages over; the inputs do not say whether it is on.)");
            case NO_GPU -> "No GPU on this machine: the figures in these frames are reference ones, a GH200 and an H200 over PCIe.";
        };
        f.add(switch (r) {
                    case ATS -> "On this machine: coherent, a malloc'd pointer works on the GPU";
                    case HMM -> "On this machine: HMM, malloc'd memory moves on a GPU fault";
                    case PINNED_ONLY -> "On this machine: not coherent, only pinned or managed memory";
                    case NO_GPU -> "On this machine: no GPU";
                },
                here,
                new Frame.Predict("On this machine, can a GPU kernel dereference a pointer that came from a plain malloc?",
                        List.of("Yes: the GPU translates it through the CPU's page tables (ATS)", "Yes, through HMM: the page moves to the GPU on a fault",
                                "No: only pinned, registered or managed memory reaches the GPU", "There is no GPU here"),
                        r.ordinal(),
                        "Decided by " + (mode.mine() ? "the GPU's addressing mode: " + mode.value() + " (read here)" : "the host link: " + linkWords) + "."),
                hereDrawing(r, linkWords, sm, latency), r == Reach.PINNED_ONLY ? new Inputs.Value[]{sm, latency} : new Inputs.Value[0]);

        double ratio = prefetch.value() / Math.max(1e-9, faults.value());
        boolean measured = faults.mine() && prefetch.mine();
        // faults against prefetch is M2-MANAGED-PREFETCH's to judge: where the report could not (measured busy), neither does the course
        var judged = in.finding(VmRules.MANAGED_PREFETCH, faults, prefetch);
        int faster = Judgement.unjudged(judged) ? 3 : ratio >= 1.1 ? 1 : ratio <= 1 / 1.1 ? 0 : 2;
        f.add("Managed memory: " + Reference.millis(GIB, faults.value()) + " by faults, " + Reference.millis(GIB, prefetch.value()) + " by prefetch, per GiB",
                "cudaMallocManaged memory that sits in host memory reaches the GPU either by the GPU faulting it over page by page on first touch, or by a prefetch "
                        + "(cudaMemPrefetchAsync) that moves it in bulk first. For 1 GiB: faults at " + faults.shown() + " take " + Reference.millis(GIB, faults.value())
                        + ", a prefetch at " + prefetch.shown() + " " + Reference.millis(GIB, prefetch.value()) + ", a pinned copy at " + ce.shown() + " "
                        + Reference.millis(GIB, ce.value()) + ". Every fault stops the faulting warps while the driver moves the page."
                        + judged.map(c -> " " + Judgement.quote(c)).orElse(""),
                new Frame.Predict(measured ? "Moving 1 GiB of managed memory to this GPU: faster by letting the kernel fault it over, or by prefetching first?"
                        : "Moving 1 GiB of managed memory to a GPU over PCIe (typical figures, not this machine's): faster by faulting it over, or by prefetching first?",
                        List.of("Faulting it over on first touch", "Prefetching first (cudaMemPrefetchAsync)", "About the same (within 10%)",
                                "Cannot tell: the report did not judge these moves"),
                        faster,
                        "Faults " + faults.shown() + ", prefetch " + prefetch.shown() + ": a ratio of " + Units.sig3(ratio) + "."
                                + judged.map(c -> " " + Judgement.quote(c)).orElse("")),
                managedDrawing(faults, prefetch, ce), faults, prefetch, ce);

        f.add("Which to use where",
                "On a coherent superchip, malloc'd memory works on the GPU as it is: keep hot data in GPU memory (or let access counters move it), use 64 KiB pages for fewer translations, and place CPU memory on the GPU's own Grace. "
                        + "Over PCIe, pin what the GPU reads and copy it (or prefetch managed memory), and keep pageable copies off the hot path. "
                        + (r == Reach.ATS ? "This machine is the first kind." : r == Reach.NO_GPU ? "This machine has no GPU." : "This machine is the second kind."),
                null, whereDrawing(r), gh, ce);
        return f.list();
    }

    // ---- drawings

    private static void machine(Svg svg, String cpuMem, String link, String linkCls, String gpuMem) {
        svg.box(8, 40, 170, 50, "CPU\npage tables", "");
        svg.box(8, 120, 170, 50, cpuMem, "");
        svg.box(462, 40, 170, 50, "GPU\nits own TLB", "");
        svg.box(462, 120, 170, 50, gpuMem, "");
        svg.line(93, 90, 93, 120, "");
        svg.line(547, 90, 547, 120, "");
        svg.box(230, 70, 180, 40, link, linkCls);
        svg.line(178, 90, 230, 90, linkCls);
        svg.line(410, 90, 462, 90, linkCls);
    }

    static String machineDrawing(HostLink.Kind link, String linkWords, String footer) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "where the array is, and the two ways to the GPU", "start", "");
        boolean coherent = link == HostLink.Kind.C2C || link == HostLink.Kind.INTEGRATED;
        machine(svg, "host memory\nthe array", link == HostLink.Kind.NONE ? "no GPU" : coherent ? "coherent link" : "PCIe link", "on", "GPU memory (HBM)");
        svg.arrow(178, 145, 462, 145, "1. read in place", "dim");
        svg.line(93, 170, 93, 200, "dim");
        svg.line(93, 200, 547, 200, "dim");
        svg.arrow(547, 200, 547, 170, "", "dim");
        svg.text(320, 194, "2. copy first, then read HBM", "middle", "dim");
        svg.text(8, 250, footer, "start", "dim");
        return svg.render("A host array and the two ways a GPU can reach it");
    }

    static String atsDrawing(long page, boolean coherent) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "a GPU load of a malloc'd address on GH200: translation first (" + (coherent ? "as on this machine" : "reference, not this machine") + ")", "start", "");
        svg.box(462, 40, 170, 50, "GPU\nTLB miss", "hot");
        svg.arrow(462, 60, 300, 60, "ATS request", "on");
        svg.box(190, 40, 110, 50, "SMMU", "on");
        svg.arrow(190, 65, 120, 65, "", "on");
        svg.box(8, 40, 112, 50, "CPU page\ntables", "on");
        svg.arrow(64, 90, 64, 130, "walk", "on");
        svg.box(8, 130, 240, 44, "physical address in LPDDR5X", "ok");
        svg.arrow(248, 152, 462, 152, "translation back to the GPU", "ok");
        svg.box(462, 130, 170, 44, "GPU caches it\none CPU page", "ok");
        svg.text(8, 210, "one translation per CPU page: " + Units.bytes(page) + " here; 64 KiB pages need 16 times fewer than 4 KiB", "start", "");
        svg.text(8, 250, "the same pointer works on the CPU and the GPU: no pinning, no cudaHostRegister", "start", "dim");
        return svg.render("ATS: the GPU's translation request walked in the CPU's page tables");
    }

    static String c2cDrawing(Inputs.Value gh, Inputs.Value c2c) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "GH200 (reference): the load itself, cache lines over NVLink-C2C", "start", "");
        machine(svg, "LPDDR5X\nthe array", "NVLink-C2C\ncoherent", "ok", "HBM");
        svg.arrow(178, 150, 462, 150, "64-byte lines, no copy, no pin", "ok");
        svg.text(8, 206, "copy engine, host to device: " + Units.sig3(gh.value()) + " GB/s (one user's report, nvbandwidth#23)", "start", "");
        svg.text(8, 224, "link spec: " + Units.sig3(c2c.value()) + " GB/s each way for its one GPU (900 GB/s both ways)", "start", "");
        svg.text(8, 250, "reference figures from platforms.json, not this machine's", "start", "dim");
        return svg.render("A coherent read over NVLink-C2C");
    }

    static String migrationDrawing() {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "access-counter migration (coherent platforms, GPU memory as a NUMA node)", "start", "");
        svg.box(8, 40, 200, 44, "page P in LPDDR5X\nGPU reads: many", "hot");
        svg.arrow(208, 62, 432, 62, "driver migrates P", "on");
        svg.box(432, 40, 200, 44, "page P in HBM\nlocal reads from now on", "ok");
        svg.box(8, 120, 200, 44, "CPU page table: P -> LPDDR5X", "dim");
        svg.arrow(208, 142, 432, 142, "entry updated", "on");
        svg.box(432, 120, 200, 44, "CPU page table: P -> HBM", "ok");
        svg.text(8, 200, "NUMA mode (the default): pages can move, numactl can place them", "start", "");
        svg.text(8, 218, "CDMM mode: the driver keeps GPU memory to itself, nothing migrates", "start", "");
        svg.text(8, 250, "the CPU can still reach P: it is in a NUMA node of GPU memory now", "start", "dim");
        return svg.render("Access counters move a hot page to GPU memory");
    }

    private static void bars(Svg svg, double y, List<Inputs.Value> values, List<String> labels, List<String> classes) {
        double max = values.stream().mapToDouble(Inputs.Value::value).max().orElse(1) * 1.1;
        for (int i = 0; i < values.size(); i++) {
            Inputs.Value v = values.get(i);
            double w = 300 * v.value() / max;
            svg.text(8, y + 18, labels.get(i), "start", "");
            svg.bar(150, y, w, 26, classes.get(i));
            svg.text(156 + w, y + 18, Units.sig3(v.value()) + " " + v.unit() + (v.mine() ? " (measured here)" : v.note().startsWith("reference") ? " (reference)" : " (typical)"), "start", "");
            y += 40;
        }
    }

    static String copyDrawing(Inputs.Value ce, Inputs.Value pageable, Inputs.Value gh) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "host to device copies, GB/s (10^9 bytes a second)", "start", "");
        bars(svg, 34, List.of(pageable, ce, gh), List.of("pageable", "pinned", "GH200 pinned"), List.of("hot", "ok", "dim"));
        svg.text(8, 186, "pageable: the driver copies into its own pinned buffer first, then DMAs", "start", "");
        List<String> src = new ArrayList<>();
        if (!ce.mine() || !pageable.mine()) src.add("typical where not measured here: " + H200_VM);
        src.add("GH200: platforms.json, one user's report (nvbandwidth#23)");
        svg.lines(8, 236, src, "dim");
        return svg.render("Copying host memory to the GPU: pageable, pinned, and GH200");
    }

    static String hereDrawing(Reach r, String linkWords, Inputs.Value sm, Inputs.Value latency) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "this machine: " + linkWords, "start", "");
        String[] kinds = {"malloc'd (pageable)", "pinned: cudaHostAlloc, cudaHostRegister", "managed: cudaMallocManaged"};
        boolean[] ok = switch (r) {
            case ATS, HMM -> new boolean[]{true, true, true};
            case PINNED_ONLY -> new boolean[]{false, true, true};
            case NO_GPU -> new boolean[]{false, false, false};
        };
        String[] how = switch (r) {
            case ATS -> new String[]{"read in place (ATS)", "read in place", "in place, or migrated"};
            case HMM -> new String[]{"faulted over (HMM)", "read in place", "faulted or prefetched"};
            case PINNED_ONLY -> new String[]{"illegal address on the GPU", "read in place by the SMs", "faulted or prefetched"};
            case NO_GPU -> new String[]{"no GPU", "no GPU", "no GPU"};
        };
        for (int i = 0; i < kinds.length; i++) {
            double y = 34 + i * 54;
            svg.box(8, y, 280, 40, kinds[i], "");
            svg.arrow(288, y + 20, 372, y + 20, "", ok[i] ? "ok" : "bad");
            svg.box(372, y, 260, 40, how[i], ok[i] ? "ok" : "bad");
        }
        if (r == Reach.PINNED_ONLY) {
            svg.text(8, 212, "SMs reading pinned host memory: " + Units.sig3(sm.value()) + " GB/s, " + Units.sig3(latency.value()) + " ns per dependent access"
                    + (sm.mine() ? " (measured here)" : " (typical)"), "start", "");
        }
        svg.text(8, 250, r == Reach.NO_GPU ? "the other frames show reference figures" : "a kernel given an unmapped pointer stops with an illegal address error", "start", "dim");
        return svg.render("Which host memory this machine's GPU can read");
    }

    static String managedDrawing(Inputs.Value faults, Inputs.Value prefetch, Inputs.Value ce) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "1 GiB of managed memory to the GPU: time (shorter is better)", "start", "");
        double[] ms = {GIB / (faults.value() * 1e6), GIB / (prefetch.value() * 1e6), GIB / (ce.value() * 1e6)};
        String[] labels = {"faults on touch", "prefetch first", "pinned copy"};
        Inputs.Value[] vs = {faults, prefetch, ce};
        double max = java.util.Arrays.stream(ms).max().orElse(1) * 1.1;
        for (int i = 0; i < ms.length; i++) {
            double y = 34 + i * 44, w = 220 * ms[i] / max; // room after the longest bar for its label
            svg.text(8, y + 18, labels[i], "start", "");
            svg.bar(150, y, w, 28, i == 0 ? "hot" : "ok");
            svg.text(156 + w, y + 18, Units.sig3(ms[i]) + " ms at " + Units.sig3(vs[i].value()) + " GB/s" + (vs[i].mine() ? " (measured here)" : " (typical)"), "start", "");
        }
        svg.text(8, 196, "each fault stops the warps that touched the page while the driver moves it", "start", "");
        svg.text(8, 250, faults.mine() ? "hostside vm measured these (managed_gpu_faults_h2d, managed_prefetch_h2d)" : "typical: " + H200_VM, "start", "dim");
        return svg.render("Managed memory by faults, by prefetch, and a pinned copy");
    }

    static String whereDrawing(Reach r) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, "what to use where", "start", "");
        boolean first = r == Reach.ATS, second = r == Reach.PINNED_ONLY || r == Reach.HMM;
        svg.box(8, 34, 300, 170, "coherent (GH200, GB200)\n\nmalloc'd memory works on the GPU\nhot data in HBM, or access counters\n64 KiB pages: fewer translations\nCPU memory on the GPU's own Grace",
                first ? "on" : "dim");
        svg.box(332, 34, 300, 170, "PCIe (HGX, workstations)\n\npin what the GPU reads, then copy\nor prefetch managed memory\nno pageable copies in the hot path\npinned buffers reused, not re-pinned",
                second ? "on" : "dim");
        svg.text(8, 250, first ? "this machine: the left column" : second ? "this machine: the right column" : "this machine: no GPU", "start", "dim");
        return svg.render("Coherent and PCIe machines: what to use where");
    }
}
