package hostside.report.platforms;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;
import hostside.core.Unit;
import hostside.core.Units;

/**
 * A machine placed among the reference platforms as design/compare.md (2.1) says, after MLCommons'
 * "closest available system": the class by link type first (PCIe, C2C, integrated; never ranked
 * across them), then the same GPU, then the fabric domain, then the nearest on the four axes
 * (sum of |log(machine / platform)| over the axes both have).
 *
 * @param placed  whether a platform was found; {@code why} says why not
 * @param closest the platform, null when not placed
 * @param because the keys that chose it: link class, GPU, domain
 * @param differs one line per axis where the machine differs, with the ratio
 * @param hostToDeviceFloor 0.75 of the platform's measured host-to-device copy (hostside's own rule, not DCGM's:
 *                          DCGM's diag-skus.yaml takes 0.75 of its measured SM and memory figures, and its PCIe test
 *                          sets only a minimum generation and width); null where the platform has no measured copy
 *                          (a spec is no copy's speed, and one third-party report is not enough to warn on)
 */
public record Placement(boolean placed, String why, Platforms.Platform closest, String because, List<String> differs, Double hostToDeviceFloor) {

    /**
     * hostside's own share of the class's measured copy that a machine's copy should reach; the 0.75 is
     * borrowed from DCGM's per-SKU floors for SM and memory (diag-skus.yaml), which set none for PCIe.
     */
    static final double FLOOR = 0.75;

    /** The share as the texts say it: "0.75". */
    public static final String FLOOR_WORDS = "0.75";

    /** Where the floor's rule comes from, for every text that applies it. */
    public static final String FLOOR_RULE = "hostside's own rule, not DCGM's: DCGM's diag-skus.yaml takes 0.75 of its measured SM and memory figures, and its PCIe test sets only a minimum generation and width";

    /** Where a report's pinned host-to-device copies stand against hostside's floor for the closest reference platform. */
    public static final Rule CLASS_FLOOR = Rule.of("M1-CLASS-FLOOR",
            "pinned host-to-device copies against " + FLOOR_WORDS + " of the closest reference platform's measured copy",
            EnumSet.of(Severity.OK, Severity.WARN, Severity.UNKNOWN),
            "a machine of the same class (host link, GPU, NVLink domain) whose copies run well under the class's measured copy moves every"
                    + " batch, checkpoint and offloaded tensor to the GPU that much slower than its peers; where the platform has no measured copy"
                    + " (a spec is no copy's speed) nothing is judged",
            "read the link while copies run (nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv): one below its"
                    + " maximum under load is the slot's, the riser's or the BIOS's to settle; compare the copies from each NUMA node; check the IOMMU"
                    + " (iommu.passthrough=1 maps host devices one to one)",
            Source.reasoned(FLOOR_WORDS + " of the platform's measured copy: " + FLOOR_RULE),
            Source.measurement("docs/measurements/2026-12-02-h200-gpu.md and 2026-12-05-memory-vs-stream-h100*: the H200 and H100 VMs'"
                    + " pinned copies, 54.7-55.5 GB/s on PCIe Gen5 x16, the reference for their class"));

    /**
     * The finding of {@link #CLASS_FLOOR} for a report's median pinned host-to-device copy {@code h2d}
     * (GB/s); empty where the machine is not placed, the platform has no measured copy or the report
     * none. {@code busy} names what made the machine busy as the copies' drill began.
     */
    public Optional<Finding> hostToDevice(Double h2d, List<String> busy) {
        if (!placed || hostToDeviceFloor == null || h2d == null) return Optional.empty();
        double reference = hostToDeviceFloor / FLOOR;
        boolean under = h2d < hostToDeviceFloor;
        String text = String.format(Locale.ROOT, "host to device %.1f GB/s, %s hostside's floor of %s x %s's copy of %.1f GB/s (%.0f%% of it)",
                h2d, under ? "under" : "above", FLOOR_WORDS, closest.name(), reference, 100 * h2d / reference);
        List<Evidence> e = List.of(new Evidence.Measured("host_to_device_ce_pinned", h2d, Unit.GB_PER_S),
                new Evidence.Fact("reference platform " + closest.name() + ", host to device", String.format(Locale.ROOT, "%.1f GB/s", reference)));
        return Optional.of(CLASS_FLOOR.measured(under ? Severity.WARN : Severity.OK, "host link", text,
                String.format(Locale.ROOT, "host to device %.1f GB/s against %s's %.1f", h2d, closest.name(), reference), e, busy));
    }

    /**
     * What places a machine: its link class ("pcie", "c2c", "integrated", null when unknown), its
     * GPU's name or PCI id, how many GPUs and how many share its NVLink domain, and the four axes
     * (null where unknown).
     */
    public record Axes(String link, String gpu, int gpus, int domain, Double coresPerGpu, Double hostToDevice, Double gpuToGpu, Double nicGbpsPerGpu) {}

    /** The class a report's host link places a machine in ({@link HostLink#placementClass()}); null when unknown. */
    public static String linkClass(HostLink hostLink) {
        return hostLink == null ? null : hostLink.placementClass();
    }

    /** GPUs in one NVLink domain: an NVSwitch or NVLink fabric joins all the box's GPUs, else each GPU is its own. */
    public static int domain(String fabric, int gpus) {
        return fabric != null && (fabric.startsWith("nvswitch") || fabric.startsWith("nvlink")) ? gpus : 1;
    }

    public static Placement of(Axes m) {
        return of(m, Platforms.get().platforms());
    }

    static Placement of(Axes m, List<Platforms.Platform> platforms) {
        if (m.gpus() == 0) return new Placement(false, "no GPU: the reference platforms are GPU machines", null, "", List.of(), null);
        if (m.link() == null) return new Placement(false, "the host link is unknown: no class to place it in", null, "", List.of(), null);
        List<Platforms.Platform> same = platforms.stream().filter(p -> p.link().equals(m.link())).toList();
        if (same.isEmpty()) return new Placement(false, "no reference platform has a " + m.link() + " host link", null, "", List.of(), null);
        List<String> keys = new ArrayList<>(List.of(m.link().equals("pcie") ? "a PCIe host link" : m.link().equals("c2c") ? "a coherent C2C host link" : "integrated memory"));
        List<Platforms.Platform> gpu = same.stream().filter(p -> matches(p, m.gpu())).toList();
        if (!gpu.isEmpty()) {
            same = gpu;
            keys.add("the same GPU");
        }
        int bestDomain = same.stream().mapToInt(p -> Math.abs(p.domain() - m.domain())).min().orElse(0);
        List<Platforms.Platform> domain = same.stream().filter(p -> Math.abs(p.domain() - m.domain()) == bestDomain).toList();
        if (bestDomain == 0) keys.add("the same NVLink domain (" + m.domain() + " GPU" + (m.domain() == 1 ? "" : "s") + ")");
        Platforms.Platform best = domain.stream().min(Comparator.comparingDouble(p -> distance(m, p))).orElseThrow();
        List<String> differs = new ArrayList<>();
        if (best.domain() != m.domain()) differs.add(String.format(Locale.ROOT, "%d GPU%s in its domain, not %d", m.domain(), m.domain() == 1 ? "" : "s", best.domain()));
        axis(differs, "CPU cores per GPU", m.coresPerGpu(), best.coresPerGpu(), "");
        axis(differs, "host to device", m.hostToDevice(), best.hostToDevice(), " GB/s");
        axis(differs, "GPU to GPU", m.gpuToGpu(), best.gpuToGpu(), " GB/s per direction");
        if (m.nicGbpsPerGpu() == null && best.nicGbpsPerGpu().known()) {
            differs.add("no NIC speed known here, against " + Units.sig3(best.nicGbpsPerGpu().value()) + " Gb/s per GPU ("
                    + best.nicGbpsPerGpu().tag() + ", " + best.nicGbpsPerGpu().source() + ")");
        }
        else axis(differs, "NIC", m.nicGbpsPerGpu(), best.nicGbpsPerGpu(), " Gb/s per GPU");
        return new Placement(true, "", best, String.join(", ", keys), differs, floor(best));
    }

    /**
     * The class's floor: 0.75 of its measured copy (M). A spec (S) is a link's rate, which no copy reaches;
     * one third-party report (T) may be a sick machine (GH200's 346 GB/s came from an issue titled
     * "Unexpected Low Host-to-Device Bandwidth"): neither is a figure to warn a machine against.
     */
    static Double floor(Platforms.Platform p) {
        Platforms.Tagged t = p.hostToDevice();
        return t.known() && t.tag().equals("M") ? FLOOR * t.value() : null;
    }

    public static boolean matches(Platforms.Platform p, String gpu) {
        if (gpu == null) return false;
        for (String id : p.gpus()) if (gpu.equalsIgnoreCase(id)) return true;
        for (String n : p.gpuNames()) if (Pattern.compile("\\b" + Pattern.quote(n) + "\\b", Pattern.CASE_INSENSITIVE).matcher(gpu).find()) return true;
        return false;
    }

    /** Sum of |log(machine / platform)| over the axes both know. */
    static double distance(Axes m, Platforms.Platform p) {
        return term(m.coresPerGpu(), p.coresPerGpu()) + term(m.hostToDevice(), p.hostToDevice()) + term(m.gpuToGpu(), p.gpuToGpu())
                + term(m.nicGbpsPerGpu(), p.nicGbpsPerGpu());
    }

    /** One axis's share of the distance: none where either side is not known (a "?" figure is left out, never taken as 0). */
    private static double term(Double mine, Platforms.Tagged ref) {
        return mine == null || !ref.known() || !(mine > 0) ? 0 : Math.abs(Math.log(mine / ref.value()));
    }

    private static void axis(List<String> out, String what, Double mine, Platforms.Tagged ref, String unit) {
        // a ratio of a figure that is no measurement (0: a report's checks refuse one) or over one says nothing: the axis is left out, as an unknown one is
        if (mine == null || !(mine > 0)) return;
        if (!ref.known()) {
            out.add(String.format(Locale.ROOT, "%s %s%s here; the class's is not known (?: %s)", what, Units.sig3(mine), unit, ref.source()));
            return;
        }
        double ratio = mine / ref.value();
        if (Math.abs(ratio - 1) < 0.05) {
            out.add(String.format(Locale.ROOT, "%s %s%s = %.0f%% of the class's %s (%s)", what, Units.sig3(mine), unit, 100 * ratio, ref.shown(), ref.source()));
        } else {
            out.add(String.format(Locale.ROOT, "%s %s%s against %s (%s): %.2fx", what, Units.sig3(mine), unit, ref.shown(), ref.source(), ratio));
        }
    }
}
