package hostside.learn.m5;

import java.util.Locale;

import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Inputs;
import hostside.learn.Svg;
import hostside.report.platforms.HostLink;
import hostside.report.platforms.Platforms;

/**
 * What Module 5's steppers know besides the machine: the reference platforms' figures (hostside's
 * platforms.json, each with its tag and source), the host link in words, and drawing helpers.
 * platforms.json is read once, when hostside first needs it, and never changes: the frames stay a
 * pure function of the inputs.
 */
final class Reference {
    private Reference() {}

    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    /** The typical host link, where the inputs name none: PCIe Gen5 x16, an H100 or H200 box's. */
    static final HostLink TYPICAL_LINK = new HostLink(HostLink.Kind.PCIE, 5, 16);

    /** How host memory reaches the GPU: the hardware class's link, no GPU where it counts none, PCIe where the inputs name no link. */
    static HostLink.Kind link(Inputs in) {
        if (in.count(Inputs.GPU_COUNT).orElse(-1) == 0) return HostLink.Kind.NONE;
        if (!in.facts().containsKey(Inputs.HOST_LINK)) return TYPICAL_LINK.kind();
        return in.hostLink().map(HostLink::kind).orElse(HostLink.Kind.UNKNOWN);
    }

    /** "PCIe Gen5 x16 (read here)", "NVLink-C2C (typical, not this machine)". */
    static String linkWords(Inputs in) {
        Inputs.Fact f = in.fact(Inputs.HOST_LINK, TYPICAL_LINK.toString());
        HostLink l = in.facts().containsKey(Inputs.HOST_LINK) ? in.hostLink().orElse(null) : TYPICAL_LINK;
        String words = l == null ? "not known (" + f.value().trim().toLowerCase(Locale.ROOT) + ")" : switch (l.kind()) {
            case PCIE -> l.pcieWords();
            case C2C -> "NVLink-C2C";
            case INTEGRATED -> "one memory (integrated GPU)";
            case NONE -> "no GPU";
            case UNKNOWN -> "not known (unknown)";
        };
        return words + " (" + f.source().words + ")";
    }

    // ---- the reference platforms

    static Platforms.Platform platform(String id) {
        return Platforms.get().platforms().stream().filter(p -> p.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalStateException("platforms.json has no platform " + id));
    }

    private static String tag(String t) {
        return switch (t) {
            case "S" -> "vendor spec";
            case "M" -> "measured";
            case "T" -> "one third-party source";
            default -> t;
        };
    }

    /** A platform's figure as a reference value: never this machine's, and said to be which platform's, with its tag in words and its source. */
    static Inputs.Value figure(String id, String key, Platforms.Tagged t, Unit unit) {
        // a figure the data does not know is no reference: a stepper that needs one fails here, in its tests, not on a page
        if (!t.known()) throw new IllegalStateException("platforms.json does not know " + key + " for " + id + ": " + t.source());
        return new Inputs.Value(key, t.value(), unit, Inputs.Source.TYPICAL,
                "reference " + platform(id).name() + ", platforms.json: " + tag(t.tag()) + ", " + t.source());
    }

    /** GH200's copy-engine host-to-device copy: 346 GB/s, one user's report (nvbandwidth#23), so tagged as one third-party source. */
    static Inputs.Value gh200HostToDevice() {
        return figure("gh200", "host_to_device_ce_pinned", platform("gh200").hostToDevice(), Unit.GB_PER_S);
    }

    /**
     * GH200's NVLink-C2C for its one GPU, one direction: 450 GB/s (spec, 900 both ways). GH200 has one GPU per
     * Grace, so the link's figure is the GPU's; GB200's and GB300's are quoted per superchip of two GPUs and are not.
     */
    static Inputs.Value gh200C2cPerDirection() {
        return figure("gh200", "c2c_per_direction", platform("gh200").hostLinkPerGpu(), Unit.GB_PER_S);
    }

    /** An HGX H200's host-to-device copy over PCIe Gen5 x16: 55.2 GB/s measured. */
    static Inputs.Value pcieHostToDevice() {
        return figure("hgx-h200", "host_to_device_ce_pinned", platform("hgx-h200").hostToDevice(), Unit.GB_PER_S);
    }

    /** GB200 NVL72's GPU-to-GPU NVLink per direction: 900 GB/s spec (1.8 TB/s both ways). */
    static Inputs.Value nvl72GpuToGpu() {
        return figure("gb200-nvl72", "gpu_to_gpu", platform("gb200-nvl72").gpuToGpu(), Unit.GB_PER_S);
    }

    /** GPUs in one GB200 NVL72 NVLink domain: 72. */
    static int nvl72Domain() {
        return platform("gb200-nvl72").domain();
    }

    // ---- words and drawing

    /** "19.4 ms" to move {@code bytes} at {@code gbps} (10^9 bytes a second). */
    static String millis(long bytes, double gbps) {
        return Units.sig3(bytes / (gbps * 1e9) * 1e3) + " ms";
    }
}
