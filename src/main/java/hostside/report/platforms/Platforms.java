package hostside.report.platforms;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;

import hostside.core.Json;
import hostside.core.Units;

/**
 * The reference platforms a machine is placed among, as data (resources/hostside/compare/platforms.json,
 * from design/platforms.md and its corrections): each figure tagged S (vendor spec), M (measured, its
 * source named), T (one third-party source) or ? (not known: no value, and the source says why).
 */
public record Platforms(String about, List<Platform> platforms) {

    /**
     * @param link           "pcie", "c2c" or "integrated": the class a machine is placed in first, never crossed
     * @param gpus           PCI device ids of its GPU, as pci.ids lists them
     * @param gpuNames       whole words of its GPU's name ("H200": not GH200)
     * @param domain         GPUs in one NVLink domain
     * @param hostLinkPerGpu the host link's limit for one GPU, one direction, GB/s (a spec); not known where a
     *                       link is quoted per superchip of one CPU and two GPUs, since one GPU's share of it is not published
     * @param hostToDevice   a measured pinned copy, one GPU, one direction, GB/s
     * @param gpuToGpu       per GPU, one direction, GB/s
     * @param gpuMemoryGb    per GPU, GB: shown beside the platform, not one of the four axes
     */
    public record Platform(String id, String name, String link, String linkDetail, boolean coherent, List<String> gpus, List<String> gpuNames,
                           int domain, Tagged coresPerGpu, Tagged hostLinkPerGpu, Tagged hostToDevice, Tagged gpuToGpu, Tagged nicGbpsPerGpu,
                           Tagged gpuMemoryGb) {
        public Platform {
            // a figure the file leaves out is not known: every figure has a tag and a source to show, none is blank
            coresPerGpu = orUnknown(coresPerGpu);
            hostLinkPerGpu = orUnknown(hostLinkPerGpu);
            hostToDevice = orUnknown(hostToDevice);
            gpuToGpu = orUnknown(gpuToGpu);
            nicGbpsPerGpu = orUnknown(nicGbpsPerGpu);
            gpuMemoryGb = orUnknown(gpuMemoryGb);
            gpus = gpus == null ? List.of() : List.copyOf(gpus);
            gpuNames = gpuNames == null ? List.of() : List.copyOf(gpuNames);
        }

        private static Tagged orUnknown(Tagged t) {
            return t == null ? Tagged.unknown("no source found") : t;
        }
    }

    /** The tags a figure may carry; "?" is the only one without a value. */
    public static final Set<String> TAGS = Set.of("S", "M", "T", "?");

    /**
     * A figure with how sure it is and where it comes from. Not known ("?") has no value, and its source
     * says what is known instead (a superchip's figure, a link's raw rate): never 0, never blank.
     */
    public record Tagged(Double value, String tag, String source) {
        public Tagged {
            if (tag == null || !TAGS.contains(tag)) throw new IllegalArgumentException("a figure's tag is S, M, T or ?, not " + tag);
            if (tag.equals("?") != (value == null)) throw new IllegalArgumentException("tag " + tag + " with value " + value + ": only ? has no value");
            if (value != null && !(value > 0 && Double.isFinite(value))) throw new IllegalArgumentException("a figure is a positive number, not " + value);
            if (source == null || source.isBlank()) throw new IllegalArgumentException("a figure tagged " + tag + " names its source");
        }

        public static Tagged unknown(String why) {
            return new Tagged(null, "?", why);
        }

        public boolean known() {
            return value != null;
        }

        /** "55.2 M", or "not known (?)". */
        public String shown() {
            return known() ? Units.sig3(value) + " " + tag : "not known (?)";
        }

        /** "55.2 GB/s (M: this project's H200 VM, docs/measurements)", or "not known (?: ...)". */
        public String withSource(String unit) {
            return (known() ? Units.sig3(value) + " " + unit + " (" + tag : "not known (?") + ": " + source + ")";
        }
    }

    static final String RESOURCE = "/hostside/compare/platforms.json";

    private static final Platforms LOADED = load();

    public static Platforms get() {
        return LOADED;
    }

    private static Platforms load() {
        try (InputStream in = Platforms.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException(RESOURCE + " is not in the jar");
            return Json.MAPPER.readValue(in, Platforms.class);
        } catch (IOException e) {
            throw new IllegalStateException(RESOURCE + " does not read: " + e.getMessage(), e);
        }
    }
}
