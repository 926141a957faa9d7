package hostside.health;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.List;

import hostside.core.Evidence;
import hostside.core.Finding;

/**
 * The Xids of the kernel log, judged as hostside checklist judges its hour: the GPU's own within the
 * last hour is bad, an older one a warning (a reset may have cured it, the log cannot say), an
 * application's Xid information.
 */
final class XidChecks {
    private XidChecks() {}

    /** Recent: the last hour, as the 60-second checklist counts a training step's failures. */
    static final double RECENT_SECONDS = 3600;

    /** {@code live}: a recording holds no kernel log by nature; its document says so, and no finding is to be made of it. */
    static void check(XidLog log, boolean live, Judged out) {
        if (log.notRead() != null) {
            if (live) {
                out.add(HealthRules.XID.unknown("kernel log", "Xids not read: " + log.notRead(), List.of(Evidence.fact("/dev/kmsg", log.notRead()))));
            }
            return;
        }
        List<XidLog.Seen> hardware = log.seen().stream().filter(XidLog.Seen::hardware).toList();
        List<XidLog.Seen> recent = hardware.stream().filter(s -> s.lastAgoSeconds() != null && s.lastAgoSeconds() <= RECENT_SECONDS).toList();
        List<XidLog.Seen> apps = log.seen().stream().filter(s -> !s.hardware()).toList();
        if (!recent.isEmpty()) {
            out.add(HealthRules.XID.finding(BAD, "GPUs", "the GPU's own Xids in the last hour: " + Finding.some(recent.stream().map(XidLog::describe).toList()),
                    evidence(recent)));
        } else if (!hardware.isEmpty()) {
            out.add(HealthRules.XID.finding(WARN, "GPUs", "the GPU's own Xids since boot, none in the last hour: "
                    + Finding.some(hardware.stream().map(XidLog::describe).toList()), evidence(hardware)));
        }
        if (!apps.isEmpty()) {
            out.add(HealthRules.XID.finding(INFO, "GPUs", "application Xids since boot: " + Finding.some(apps.stream().map(XidLog::describe).toList()),
                    evidence(apps)));
        }
        if (hardware.isEmpty()) out.pass(HealthRules.XID, "kernel log");
    }

    private static List<Evidence> evidence(List<XidLog.Seen> seen) {
        return seen.stream().<Evidence>map(s -> Evidence.fact("/dev/kmsg", "Xid " + s.code() + " on " + s.pci() + " x" + s.count())).toList();
    }
}
