package hostside.report.platforms;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import hostside.core.Json;

/**
 * The reference platforms a machine is placed among, as data (resources/hostside/compare/platforms.json,
 * from design/platforms.md): each figure tagged S (vendor spec), M (measured, with its source) or T
 * (one third-party source), or null where no source gives it.
 */
public record Platforms(String about, List<Platform> platforms) {

    /**
     * @param link        "pcie", "c2c" or "integrated": the class a machine is placed in first, never crossed
     * @param gpus        PCI device ids of its GPU
     * @param gpuNames    whole words of its GPU's name ("H200": not GH200)
     * @param domain      GPUs in one NVLink domain
     * @param hostToDevice per GPU, one direction, GB/s
     * @param gpuToGpu    per GPU, one direction, GB/s
     */
    public record Platform(String id, String name, String link, String linkDetail, boolean coherent, List<String> gpus, List<String> gpuNames,
                           int domain, Tagged coresPerGpu, Tagged hostToDevice, Tagged gpuToGpu, Tagged nicGbpsPerGpu) {}

    /** A figure with where it comes from. */
    public record Tagged(double value, String tag, String source) {
        public String shown() {
            return hostside.core.Units.sig3(value) + " " + tag;
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
