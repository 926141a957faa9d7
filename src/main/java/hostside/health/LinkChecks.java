package hostside.health;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Evidence;
import hostside.machine.PciKind;
import hostside.machine.PciLink;

/**
 * Every GPU's and NIC's PCIe link against its maximum. A GPU below its maximum at rest is read
 * again under load ({@link LinkLoad}) before anything is concluded: idle downtraining is the GPU
 * saving power, not a fault. A NIC keeps its link trained at rest, so below its maximum it is
 * worth a look whatever the load.
 */
final class LinkChecks {
    private LinkChecks() {}

    static void check(List<DeviceLink> links, Judged out) {
        for (DeviceLink l : links) {
            if (l.idle() == null || l.idle().speedGTs() == null || l.idle().maxSpeedGTs() == null) continue;
            String s = (l.kind() == PciKind.GPU ? "GPU " : "NIC ") + l.address();
            List<Evidence> e = evidence(l);
            if (!l.belowMaxAtRest()) {
                out.pass(HealthRules.PCIE_LINK, s);
            } else if (l.kind() == PciKind.NIC) {
                out.add(HealthRules.PCIE_LINK.finding(WARN, s, s + " (" + l.label() + ") runs its link at " + l.idle().current() + " of " + l.idle().max(), e));
            } else if (l.underLoad() != null && (l.underLoad().belowMaxSpeed() || l.underLoad().belowMaxWidth())) {
                out.add(HealthRules.PCIE_LINK.finding(BAD, s, s + " stays at " + l.underLoad().current() + " of " + l.idle().max()
                        + " while copies run: its link trained down", e));
            } else if (l.underLoad() != null) {
                out.pass(HealthRules.PCIE_LINK, s);
            } else {
                out.add(HealthRules.PCIE_LINK.finding(INFO, s, s + " at " + l.idle().current() + " of " + l.idle().max()
                        + " at rest, which an idle GPU does on purpose; not read under load: " + l.notLoaded(), e));
            }
        }
    }

    private static List<Evidence> evidence(DeviceLink l) {
        List<Evidence> e = new ArrayList<>();
        String dir = "/sys/bus/pci/devices/" + l.address();
        e.add(Evidence.fact(dir + "/current_link_speed", l.idle().current()));
        e.add(Evidence.fact(dir + "/max_link_speed", l.idle().max()));
        PciLink load = l.underLoad();
        if (load != null) e.add(Evidence.fact("under load: " + dir + "/current_link_speed", load.current()));
        return e;
    }
}
