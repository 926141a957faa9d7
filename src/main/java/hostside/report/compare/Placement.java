package hostside.report.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.core.Figure;
import hostside.report.Fleet;
import hostside.report.Report;

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
 * @param hostToDeviceFloor 0.75 of the platform's host-to-device figure (DCGM's rule), null without one
 */
public record Placement(boolean placed, String why, Platforms.Platform closest, String because, List<String> differs, Double hostToDeviceFloor) {

    /** The figure the class floor is about: pinned host-to-device through the copy engine. */
    public static final String HOST_TO_DEVICE = "host_to_device_ce_pinned";

    /** DCGM sets its per-SKU floors at this share of a measured value (diag-skus.yaml). */
    static final double FLOOR = 0.75;

    /** What of a report places it: its link class, GPU, domain and the four axes (null where unknown). */
    record Axes(String link, String gpu, int gpus, int domain, Double coresPerGpu, Double hostToDevice, Double gpuToGpu, Double nicGbpsPerGpu) {}

    public static Placement of(Report r) {
        return of(axes(r), Platforms.get().platforms());
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
        if (m.nicGbpsPerGpu() == null && best.nicGbpsPerGpu() != null) differs.add("no NIC speed known here, against " + best.nicGbpsPerGpu().shown() + " Gb/s per GPU");
        else axis(differs, "NIC", m.nicGbpsPerGpu(), best.nicGbpsPerGpu(), " Gb/s per GPU");
        Double floor = best.hostToDevice() == null ? null : FLOOR * best.hostToDevice().value();
        return new Placement(true, "", best, String.join(", ", keys), differs, floor);
    }

    static boolean matches(Platforms.Platform p, String gpu) {
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

    private static double term(Double mine, Platforms.Tagged ref) {
        return mine == null || ref == null || mine <= 0 || ref.value() <= 0 ? 0 : Math.abs(Math.log(mine / ref.value()));
    }

    private static void axis(List<String> out, String what, Double mine, Platforms.Tagged ref, String unit) {
        if (mine == null || ref == null) return;
        double ratio = mine / ref.value();
        if (Math.abs(ratio - 1) < 0.05) {
            out.add(String.format(Locale.ROOT, "%s %s%s = %.0f%% of the class's %s (%s)", what, hostside.core.Units.figure(mine), unit, 100 * ratio, ref.shown(), ref.source()));
        } else {
            out.add(String.format(Locale.ROOT, "%s %s%s against %s (%s): %.2fx", what, hostside.core.Units.figure(mine), unit, ref.shown(), ref.source(), ratio));
        }
    }

    /** The report's place on each axis, from its class and its figures. */
    static Axes axes(Report r) {
        Fleet.HardwareClass c = r.hardwareClass();
        if (c == null) return new Axes(null, null, 0, 0, null, null, null, null);
        String link = c.hostLink() == null ? null : c.hostLink().startsWith("pcie") ? "pcie" : c.hostLink().equals("c2c") ? "c2c"
                : c.hostLink().equals("integrated") ? "integrated" : null;
        int domain = c.fabric() != null && (c.fabric().startsWith("nvswitch") || c.fabric().startsWith("nvlink")) ? c.gpuCount() : 1;
        Double cores = c.gpuCount() > 0 ? (double) c.cores() / c.gpuCount() : null;
        return new Axes(link, c.gpu(), c.gpuCount(), domain, cores, median(r, HOST_TO_DEVICE), median(r, "device_to_device_memcpy_write_ce"),
                nicPerGpu(c.nics(), c.gpuCount()));
    }

    /** The median over GPUs of a figure's per-GPU values, null when the report has none. */
    static Double median(Report r, String key) {
        if (r.figures() == null) return null;
        double[] v = r.figures().stream().filter(f -> f.key().equals(key) && f.scope().kind() != hostside.core.Scope.Kind.MACHINE)
                .mapToDouble(Figure::value).toArray();
        return v.length == 0 ? null : Spread.of(v).median();
    }

    private static final Pattern NIC = Pattern.compile("(\\d+)x(\\d+)g");

    /** "8x400g-rdma,2x100g" over 8 GPUs: the fastest group's Gb/s per GPU; null when no speed is known. */
    static Double nicPerGpu(String nics, int gpus) {
        if (nics == null || gpus == 0) return null;
        // the fastest group is the compute fabric's; slower ones are storage and management
        double speed = 0, count = 0;
        Matcher m = NIC.matcher(nics);
        while (m.find()) {
            double s = Double.parseDouble(m.group(2));
            if (s > speed) {
                speed = s;
                count = Double.parseDouble(m.group(1));
            } else if (s == speed) {
                count += Double.parseDouble(m.group(1));
            }
        }
        return speed == 0 ? null : speed * count / gpus;
    }
}
