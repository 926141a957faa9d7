package hostside.report;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.report.platforms.Placement;

/** A report's place among the reference platforms: its axes read from its class and its figures. */
public final class Placements {
    private Placements() {}

    /** The figure the class floor is about: pinned host-to-device through the copy engine. */
    public static final String HOST_TO_DEVICE = "host_to_device_ce_pinned";

    public static Placement of(Report r) {
        return of(r.head());
    }

    public static Placement of(Report.Head r) {
        return Placement.of(axes(r));
    }

    /** The report's place on each axis, from its class and its figures. */
    public static Placement.Axes axes(Report.Head r) {
        Fleet.HardwareClass c = r.hardwareClass();
        if (c == null) return new Placement.Axes(null, null, 0, 0, null, null, null, null);
        String link = Placement.linkClass(c.link());
        int domain = Placement.domain(c.fabric(), c.gpuCount());
        Double cores = c.gpuCount() > 0 ? (double) c.cores() / c.gpuCount() : null;
        return new Placement.Axes(link, c.gpu(), c.gpuCount(), domain, cores, median(r, HOST_TO_DEVICE), median(r, "device_to_device_memcpy_write_ce"),
                c.nics() == null ? null : c.nics().gbpsPerGpu(c.gpuCount()));
    }

    /** The median over GPUs of a figure's per-GPU values (the machine-wide ones left out), null when the report has none. */
    public static Double median(Report r, String key) {
        return median(r.head(), key);
    }

    public static Double median(Report.Head r, String key) {
        double[] v = r.figures().stream().filter(f -> f.key().equals(key) && f.scope().kind() != Scope.Kind.MACHINE)
                .mapToDouble(Figure::value).toArray();
        return v.length == 0 ? null : Stats.of(v).median();
    }
}
