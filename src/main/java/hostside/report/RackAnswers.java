package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.rack.Platform;
import hostside.rack.RackCheck;
import hostside.rack.RackItem;
import hostside.rack.RackVerdict;
import hostside.report.platforms.HostLink;

/**
 * What Module 5's rack checklist adds to the report's front: the Link and Fabric answers with the
 * platform's C2C, GPU memory, fabric and readiness items, and the class's host link where CUDA could
 * not say it (a recording, no driver).
 */
final class RackAnswers {
    private RackAnswers() {}

    /**
     * The Link and Fabric answers with what the rack checklist found: the platform's coherent link
     * (C2C) beside the copies, the fabric's state and NCCL's readiness test beside the NVLink
     * domain, each where it applies to this platform.
     */
    static List<Report.Answer> withRack(List<Report.Answer> a, Report.Rack rack) {
        java.util.Map<RackItem, RackCheck> c = new java.util.EnumMap<>(RackItem.class);
        for (RackCheck x : rack.checklist()) c.put(x.item(), x);
        List<Report.Answer> out = new ArrayList<>();
        for (Report.Answer x : a) {
            List<String> more = new ArrayList<>();
            if (x.axis().equals("Link")) {
                more.add("platform: " + rack.platform().kind().description());
                add(more, c.get(RackItem.C2C_LINK), "C2C");
                add(more, c.get(RackItem.GPU_MEMORY_MODE), "GPU memory");
            } else if (x.axis().equals("Fabric")) {
                add(more, c.get(RackItem.FABRIC_STATE), "fabric");
                add(more, c.get(RackItem.FABRIC_READINESS), "fabric readiness");
                add(more, c.get(RackItem.IMEX), "IMEX");
            }
            out.add(more.isEmpty() ? x : new Report.Answer(x.axis(), x.question(), x.status(), x.answer() + "; " + String.join("; ", more),
                    x.evidence() + (x.evidence().isEmpty() ? "" : "; ") + "the rack checklist (Module 5)"));
        }
        return out;
    }

    /**
     * The class's host link where CUDA's coherence attributes could not say it (a recording, no
     * driver): the rack's platform still knows a C2C or a unified-memory box.
     */
    static Fleet.HardwareClass hostLink(Fleet.HardwareClass hw, Report.Rack rack) {
        if (rack == null || !(hw.link().isPcie() || hw.link().kind() == HostLink.Kind.UNKNOWN)) return hw;
        if (rack.platform().c2c()) return withHostLink(hw, HostLink.C2C);
        if (rack.platform().kind() == Platform.Kind.GB10) return withHostLink(hw, HostLink.INTEGRATED);
        return hw;
    }

    private static Fleet.HardwareClass withHostLink(Fleet.HardwareClass c, HostLink link) {
        return new Fleet.HardwareClass(c.gpu(), c.gpuCount(), c.cpuModel(), c.cores(), link, c.fabric(), c.nics(), c.pageSize());
    }

    /** An item's verdict and value, where it applies and was looked at. */
    private static void add(List<String> more, RackCheck c, String name) {
        if (c == null || c.verdict() == RackVerdict.NA || c.verdict() == RackVerdict.NOT_RUN) return;
        more.add(name + " " + c.verdict() + ": " + c.value());
    }

}
