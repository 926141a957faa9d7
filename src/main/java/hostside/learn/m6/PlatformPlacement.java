package hostside.learn.m6;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import hostside.core.Severity;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.report.platforms.HostLink;
import hostside.report.platforms.Placement;
import hostside.report.platforms.Platforms.Platform;
import hostside.report.platforms.Platforms;

/**
 * Module 6: this machine placed among the reference platforms the way the report places it
 * ({@link Placement#of}): the link class first (never ranked across classes), then the same GPU,
 * then the NVLink domain, then the nearest on the four axes (CPU cores per GPU, host to device,
 * GPU to GPU, NIC per GPU), each a log scale; the closest platform, where it differs, and the
 * class's host-to-device floor. The axes are read from the inputs' facts and figures, as
 * {@code hostside.report.Placements} reads them from a report. A machine that cannot be placed
 * (no GPU, no report, an unknown link) is replaced by a typical one, and every caption says so.
 * Whether the copies are above the floor is the report's finding of {@link Placement#CLASS_FLOOR}
 * where it drew one, never a comparison of the stepper's own: a copy measured busy is not judged.
 */
public final class PlatformPlacement implements Stepper {
    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    /** The figure the class floor is about, as the report's placement reads it. */
    static final String HOST_TO_DEVICE = "host_to_device_ce_pinned";
    /** GPU to GPU, one direction, as the report's placement reads it. */
    static final String GPU_TO_GPU = "device_to_device_memcpy_write_ce";

    /** The machine placed when this one cannot be: a one-GPU cloud VM, the commonest PCIe box. */
    static final String TYPICAL = "a typical cloud VM: 1x NVIDIA H100 over PCIe Gen5 x16, 16 cores, one 100 Gb/s NIC";

    @Override
    public String key() {
        return "placement";
    }

    @Override
    public int module() {
        return 6;
    }

    @Override
    public String title() {
        return "This machine among the reference platforms, on the four axes";
    }

    /**
     * The machine as the placement reads it: its axes, and each axis's figure with its source
     * (null where unknown, with {@code missing} saying why).
     */
    record Machine(String name, boolean typical, String why, Placement.Axes axes, String gpuWords, String linkWords, String fabric,
                   Inputs.Value cores, Inputs.Value h2d, Inputs.Value g2g, Inputs.Value nic, Map<String, String> missing) {}

    /** One of the four axes: its name, its unit, a platform's figure on it, and the machine's. */
    record Axis(String name, String unit, Function<Platform, Platforms.Tagged> ref, Function<Machine, Inputs.Value> mine) {}

    static final List<Axis> AXES = List.of(
            new Axis("CPU cores per GPU", "cores per GPU", Platform::coresPerGpu, Machine::cores),
            new Axis("host to device", "GB/s", Platform::hostToDevice, Machine::h2d),
            new Axis("GPU to GPU", "GB/s per direction", Platform::gpuToGpu, Machine::g2g),
            new Axis("NIC per GPU", "Gb/s per GPU", Platform::nicGbpsPerGpu, Machine::nic));

    // ---- the machine from the inputs

    static Machine machine(Inputs in) {
        Machine mine = fromFacts(in);
        if (mine != null) {
            Placement p = Placement.of(mine.axes());
            if (p.placed()) return mine;
            return typical(p.why().startsWith("no GPU") ? "it has no GPU (read here), and the reference platforms are GPU machines" : "it cannot be placed (" + p.why() + ")");
        }
        return typical(in.facts().isEmpty() ? "there is no report: nothing about this machine was read" : "its report holds no GPU count");
    }

    /** This machine's axes from its facts and figures, as Placements reads them from a report; null without a GPU count. */
    static Machine fromFacts(Inputs in) {
        Map<String, Inputs.Fact> f = in.facts();
        Optional<Integer> gpuCount = in.count(Inputs.GPU_COUNT);
        if (gpuCount.isEmpty()) return null;
        int gpus = gpuCount.get();
        HostLink link = in.hostLink().orElse(null);
        Inputs.Fact gpu = f.get("gpu"), fabric = f.get("fabric"), nics = f.get("nics");
        Integer cores = in.count(Inputs.CORES).orElse(null);
        String linkClass = Placement.linkClass(link);
        String gpuName = gpu == null || gpu.value().equals("none") ? null : gpu.value().replaceFirst("^\\d+x ", "");
        String fab = fabric == null ? "none" : fabric.value();
        int domain = Placement.domain(fab, gpus);
        Map<String, String> missing = new LinkedHashMap<>();
        Inputs.Value c = null;
        if (cores == null || gpus == 0) missing.put("CPU cores per GPU", gpus == 0 ? "no GPU" : "the core count was not read");
        else c = new Inputs.Value("cores_per_gpu", (double) cores / gpus, Unit.COUNT, "cores per GPU", in.values().get(Inputs.CORES).source(), cores + " cores for " + gpus + " GPU" + (gpus == 1 ? "" : "s"));
        Inputs.Value h = measured(in, HOST_TO_DEVICE);
        if (h == null) missing.put("host to device", "not measured here");
        Inputs.Value g = measured(in, GPU_TO_GPU);
        if (g == null) missing.put("GPU to GPU", gpus < 2 ? "one GPU: no peer to copy to" : "not measured here");
        Inputs.Value n = in.values().get(Inputs.NIC_PER_GPU);
        if (n == null) missing.put("NIC per GPU", nics == null ? "no NICs read" : nics.value().equals("none") ? "no NIC found" : "no NIC speed known, NICs " + nics.value());
        Placement.Axes axes = new Placement.Axes(linkClass, gpuName, gpus, domain, c == null ? null : c.value(), h == null ? null : h.value(),
                g == null ? null : g.value(), n == null ? null : n.value());
        return new Machine(in.machine(), false, "", axes, gpu == null ? "no GPU read" : gpu.value(), linkWords(link), fab, c, h, g, n, missing);
    }

    /** The machine placed in this one's stead, its figures all typical. */
    static Machine typical(String why) {
        Inputs.Source t = Inputs.Source.TYPICAL;
        Inputs.Value c = new Inputs.Value("cores_per_gpu", 16, Unit.COUNT, "cores per GPU", t, "16 cores for 1 GPU");
        Inputs.Value h = new Inputs.Value(HOST_TO_DEVICE, 55, Unit.GB_PER_S, t, "PCIe Gen5 x16 pinned copies");
        Inputs.Value n = new Inputs.Value(Inputs.NIC_PER_GPU, 100, Unit.GBIT_PER_S, "per GPU", t, "one 100 Gb/s NIC for 1 GPU");
        Map<String, String> missing = new LinkedHashMap<>();
        missing.put("GPU to GPU", "one GPU: no peer to copy to");
        Placement.Axes axes = new Placement.Axes("pcie", "NVIDIA H100 80GB HBM3", 1, 1, c.value(), h.value(), null, n.value());
        return new Machine("a typical cloud VM", true, why, axes, "1x NVIDIA H100 80GB HBM3", "PCIe Gen5 x16", "none", c, h, null, n, missing);
    }

    private static Inputs.Value measured(Inputs in, String key) {
        Inputs.Value v = in.values().get(key);
        return v != null && v.mine() && v.value() > 0 ? v : null;
    }

    /** The link in the placement's words: "PCIe Gen5 x16", "coherent NVLink-C2C", "integrated, one memory"; "none", "unknown". */
    static String linkWords(HostLink hostLink) {
        if (hostLink == null) return "unknown";
        return switch (hostLink.kind()) {
            case PCIE -> hostLink.pcieWords();
            case C2C -> "coherent NVLink-C2C";
            case INTEGRATED -> "integrated, one memory";
            case NONE, UNKNOWN -> hostLink.toString();
        };
    }

    static String className(String link) {
        return switch (link) {
            case "pcie" -> "PCIe";
            case "c2c" -> "coherent C2C";
            case "integrated" -> "integrated";
            default -> link;
        };
    }

    // ---- the frames

    @Override
    public List<Frame> frames(Inputs in) {
        Machine m = machine(in);
        Placement p = Placement.of(m.axes());
        // Placement.of decides; the steps below only show the candidates each key leaves, for the drawing
        List<Platform> all = Platforms.get().platforms();
        String link = m.axes().link();
        List<Platform> inClass = all.stream().filter(x -> x.link().equals(link)).toList();
        List<Platform> sameGpu = inClass.stream().filter(x -> Placement.matches(x, m.axes().gpu())).toList();
        List<Platform> afterGpu = sameGpu.isEmpty() ? inClass : sameGpu;
        int nearest = afterGpu.stream().mapToInt(x -> Math.abs(x.domain() - m.axes().domain())).min().orElse(0);
        List<Platform> afterDomain = afterGpu.stream().filter(x -> Math.abs(x.domain() - m.axes().domain()) == nearest).toList();
        Platform best = p.closest();
        String basis = m.typical() ? "Not this machine: " + m.why() + "; these frames place " + TYPICAL + "." : "";
        String who = m.typical() ? "The typical machine" : "This machine";

        Frames f = new Frames();

        // 1. the machine as the placement reads it
        List<String> known = new ArrayList<>(), unknown = new ArrayList<>();
        for (Axis a : AXES) {
            Inputs.Value v = a.mine().apply(m);
            if (v != null) known.add(a.name() + ": " + v.shown());
            else unknown.add(a.name() + " (" + m.missing().get(a.name()) + ")");
        }
        add(f, "What the placement reads",
                who + " has " + m.gpuWords() + " behind " + m.linkWords() + ", and " + m.axes().domain() + " GPU" + (m.axes().domain() == 1 ? "" : "s")
                        + " in its NVLink domain (fabric " + m.fabric() + "). " + (known.isEmpty() ? "It has a figure on none of the four axes." : "On the four axes: " + String.join("; ", known) + ".")
                        + (unknown.isEmpty() ? "" : " Not known: " + String.join("; ", unknown) + ": those axes are left out of the distance.") + " " + basis,
                null, PlacementDrawings.card(m, basis), values(m));

        // 2. link class first
        List<Platform> choices = new ArrayList<>(inClass);
        // a class of one platform (integrated: DGX Spark) gets the coherent box it is most often taken for as the other choice
        for (Platform x : all.stream().sorted(java.util.Comparator.comparing((Platform x) -> !x.coherent())).toList()) {
            if (choices.size() < 2 && !choices.contains(x)) choices.add(x);
        }
        if (choices.size() > 5) choices = new ArrayList<>(choices.subList(0, 5));
        if (!choices.contains(best)) choices.set(choices.size() - 1, best);
        Frame.Predict closest = new Frame.Predict("Which reference platform is " + (m.typical() ? "the typical machine" : "this machine") + " closest to?",
                choices.stream().map(Platform::name).toList(), choices.indexOf(best),
                best.name() + ", because " + p.because() + "; the next frames take the rule one key at a time.");
        add(f, "Link class first: " + className(link),
                "The first key is the host link's class: PCIe, coherent C2C, or integrated (one memory). Platforms of another class are never ranked against this one: "
                        + "a GH200 copying at a third of its class's speed is still a GH200, not a fast PCIe box. "
                        + "Its host link (" + m.linkWords() + ") puts " + (m.typical() ? "it" : "this machine") + " among " + names(inClass) + ". " + basis,
                closest, PlacementDrawings.classes(all, inClass, List.of(), m, PlacementDrawings.Step.CLASS, basis));

        // 3. the same GPU
        add(f, "Then the same GPU",
                (sameGpu.isEmpty() ? "No platform of the class has " + m.gpuWords() + ", so all " + inClass.size() + " stay."
                        : "In the class, " + names(sameGpu) + " " + (sameGpu.size() == 1 ? "has" : "have") + " the same GPU (" + m.gpuWords() + "), matched by PCI id or a whole word of its name, "
                        + "so an H200 is never taken for a GH200.") + " " + basis,
                null, PlacementDrawings.classes(all, inClass, afterGpu, m, PlacementDrawings.Step.GPU, basis));

        // 4. the NVLink domain
        add(f, "Then the NVLink domain",
                "Next, the platforms whose NVLink domain is nearest in size: " + m.axes().domain() + " GPU" + (m.axes().domain() == 1 ? "" : "s") + " here, "
                        + domains(afterGpu) + ". " + (nearest == 0 ? names(afterDomain) + (afterDomain.size() == 1 ? " matches." : " match.") : names(afterDomain) + " " + (afterDomain.size() == 1 ? "is" : "are")
                        + " nearest, and the difference stays on the list of what differs.") + " " + basis,
                null, PlacementDrawings.classes(all, inClass, afterDomain, m, PlacementDrawings.Step.DOMAIN, basis));

        // 5-8. the four axes
        for (Axis a : AXES) {
            Inputs.Value v = a.mine().apply(m);
            Platforms.Tagged r = a.ref().apply(best);
            String term = v != null && r.known() ? " Against " + best.name() + "'s " + tagged(r, a.unit()) + " that adds |ln(" + Units.sig3(v.value()) + " / "
                    + Units.sig3(r.value()) + ")| = " + Units.sig3(Math.abs(Math.log(v.value() / r.value()))) + " to the distance."
                    : v == null ? "" : " " + best.name() + "'s figure on this axis is " + tagged(r, a.unit()) + ", so it adds nothing to the distance.";
            add(f, "Axis: " + a.name(),
                    capital(a.name()) + ", on a log scale: " + (v != null ? who.toLowerCase(Locale.ROOT) + " has " + v.shown() + "." + term
                            : who.toLowerCase(Locale.ROOT) + " has no figure (" + m.missing().get(a.name()) + "), so the axis is left out of its distance.")
                            + " " + range(a, all)
                            + (a == AXES.getFirst() ? " Distances are ratios, not differences: 2x off counts the same at 14 cores as at 900 GB/s." : "") + " " + basis,
                    null, PlacementDrawings.axis(a, all, afterDomain, m, basis), v == null ? new Inputs.Value[0] : new Inputs.Value[] {v});
        }

        // 9. the closest, and where it differs
        Map<Axis, Double> terms = new LinkedHashMap<>();
        for (Axis a : AXES) {
            Inputs.Value v = a.mine().apply(m);
            Platforms.Tagged r = a.ref().apply(best);
            if (v != null && r.known() && v.value() > 0) terms.put(a, Math.abs(Math.log(v.value() / r.value())));
        }
        Axis most = terms.entrySet().stream().max(Map.Entry.comparingByValue()).filter(e -> e.getValue() >= Math.log(1.05)).map(Map.Entry::getKey).orElse(null);
        List<String> axisChoices = new ArrayList<>(AXES.stream().map(Axis::name).toList());
        axisChoices.add("None: within 5% on every axis both have");
        Frame.Predict differs = new Frame.Predict("On which axis is " + (m.typical() ? "the typical machine" : "this machine") + " farthest from " + best.name() + "?",
                axisChoices, most == null ? 4 : AXES.indexOf(most),
                (most == null ? "Every axis both have is within 5%" : most.name() + ": " + Units.sig3(Math.exp(terms.get(most))) + "x off")
                        + (terms.isEmpty() ? ", and they share no axis." : "; axes only one side has are left out.")
                        + (best.domain() != m.axes().domain() ? " The NVLink domain (" + m.axes().domain() + " against " + best.domain() + ") is a key, not an axis." : ""));
        add(f, "Closest: " + best.name(),
                "Closest: " + best.name() + " (" + best.linkDetail() + (best.coherent() ? ", coherent" : ", not coherent") + "), because " + p.because() + ". "
                        + (p.differs().isEmpty() ? "It differs in nothing the data holds. " : "Where it differs: " + String.join("; ", p.differs()) + ". ")
                        + best.name() + " has " + tagged(best.gpuMemoryGb(), "GB") + " of memory per GPU. "
                        + "S is a vendor spec, M measured with its source, T one third-party source, ? not known and left out. "
                        + (values(m).length == 0 ? "" : capital(who.toLowerCase(Locale.ROOT)) + "'s figures: "
                        + String.join(", ", java.util.Arrays.stream(values(m)).map(Inputs.Value::shown).toList()) + ". ") + basis,
                differs, PlacementDrawings.closestCard(m, best, p, terms, basis), values(m));

        // 10. the floor
        Double floor = p.hostToDeviceFloor();
        Inputs.Value h = m.h2d();
        // the report's M1-CLASS-FLOOR is the verdict where it drew one: it knows whether the copies were measured busy
        var judged = in.finding(Placement.CLASS_FLOOR, h).filter(c -> !m.typical() && floor != null);
        int floorAnswer = floor == null ? 2 : h == null ? 3 : judged.isPresent() ? floorAnswer(judged.get().severity(), h.value() >= floor)
                : h.value() >= floor ? 0 : 1;
        Frame.Predict above = new Frame.Predict("Is " + (m.typical() ? "its" : "this machine's") + " host link above the class floor?",
                List.of("Above the floor", "Below the floor", "No floor: the class has no measured host-to-device copy", "Not known: host to device was not measured",
                        "Cannot tell: the report did not judge the copies"), floorAnswer,
                judged.isPresent() ? gbs(h.value()) + " against a floor of " + gbs(floor) + ". " + Judgement.quote(judged.get()) : switch (floorAnswer) {
                    case 0 -> gbs(h.value()) + " against a floor of " + gbs(floor) + ": " + Units.sig3(h.value() / floor) + "x the floor.";
                    case 1 -> gbs(h.value()) + " against a floor of " + gbs(floor) + ": below it; look at the link's speed under load, the buffer's NUMA node and the IOMMU.";
                    case 2 -> best.name() + "'s host to device is " + tagged(best.hostToDevice(), "GB/s") + ": no measured copy to take " + Placement.FLOOR_WORDS + " of.";
                    default -> "The floor is " + gbs(floor) + ", but no pinned host-to-device copy was measured here to hold against it.";
                });
        Platforms.Tagged ref = best.hostToDevice();
        add(f, "The floor: 0.75x of the class's host to device",
                (floor == null ? best.name() + "'s host to device is " + tagged(ref, "GB/s") + ": the floor is taken only of a measured copy (M), "
                        + "since a spec is a link's rate no copy reaches and one third-party report may be a sick machine, so the class has no floor. "
                        : "The floor is " + Placement.FLOOR_WORDS + " of the class's measured copy, " + Placement.FLOOR_RULE + ". "
                        + best.name() + "'s host to device is " + tagged(ref, "GB/s") + ", so its floor is " + gbs(floor) + ". ")
                        + (h == null ? who + "'s host to device was not measured. " : who + "'s host to device is " + h.shown()
                        + (floor == null ? "." : judged.map(c -> ". " + Judgement.quote(c)).orElse(h.value() >= floor ? ": above it." : ": below it, a finding to explain.")) + " ")
                        + basis,
                above, PlacementDrawings.floorDrawing(best, floor, h, basis, !Judgement.unjudged(judged)), h == null ? new Inputs.Value[0] : new Inputs.Value[] {h});
        return f.list();
    }

    /**
     * The floor question's answer from the report's finding: ok is above, warn below, unknown the
     * "cannot tell" choice (4); a severity the rule does not give falls back on the figures.
     */
    static int floorAnswer(Severity judged, boolean atOrAbove) {
        return switch (judged) {
            case OK -> 0;
            case WARN, BAD -> 1;
            case UNKNOWN -> 4;
            case INFO -> atOrAbove ? 0 : 1;
        };
    }

    private static void add(Frames f, String title, String caption, Frame.Predict predict, String svg, Inputs.Value... figures) {
        f.add(title, caption.trim(), predict, svg, figures);
    }

    private static Inputs.Value[] values(Machine m) {
        return java.util.stream.Stream.of(m.cores(), m.h2d(), m.g2g(), m.nic()).filter(java.util.Objects::nonNull).toArray(Inputs.Value[]::new);
    }

    static String names(List<Platform> ps) {
        List<String> n = ps.stream().map(Platform::name).toList();
        if (n.isEmpty()) return "no platform";
        if (n.size() == 1) return n.getFirst();
        return String.join(", ", n.subList(0, n.size() - 1)) + " and " + n.getLast();
    }

    static String domains(List<Platform> ps) {
        Map<Integer, List<String>> by = new LinkedHashMap<>();
        for (Platform x : ps) by.computeIfAbsent(x.domain(), k -> new ArrayList<>()).add(x.name());
        List<String> parts = new ArrayList<>();
        by.forEach((d, n) -> parts.add(d + " on " + String.join(" and ", n)));
        return String.join(", ", parts);
    }

    /** "14 cores per GPU (S: 2x Xeon 8480C, 112 cores for 8 GPUs)", or "not known (?: why)": a reference figure with its unit, tag and source. */
    static String tagged(Platforms.Tagged t, String unit) {
        return t.withSource(unit);
    }

    /** Where the reference platforms lie on an axis. */
    static String range(Axis a, List<Platform> all) {
        var s = all.stream().map(a.ref()).filter(Platforms.Tagged::known).mapToDouble(Platforms.Tagged::value).summaryStatistics();
        List<String> none = all.stream().filter(p -> !a.ref().apply(p).known()).map(PlatformPlacement::shortName).toList();
        return (s.getCount() == 0 ? "No reference platform has a figure on it." : "The reference platforms run from " + Units.sig3(s.getMin()) + " to " + Units.sig3(s.getMax()) + " " + a.unit() + ".")
                + (none.isEmpty() ? "" : " Not known (?) on it: " + String.join(", ", none) + ".");
    }

    /** "HGX H200", "GB200", "DGX Spark": the names short enough for an axis's labels. */
    static String shortName(Platform p) {
        return p.name().replace(" workstation", "").replace("HGX/DGX ", "HGX ").replace(" (GB10)", "").replace(" NVL72", p.name().startsWith("Vera") ? " NVL72" : "");
    }

    static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static String gbs(double v) {
        return Units.sig3(v) + " GB/s";
    }
}
