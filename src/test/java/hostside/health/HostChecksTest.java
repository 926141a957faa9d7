package hostside.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.checklist.KernelLog;
import hostside.checklist.KmsgRecord;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.machine.PciKind;
import hostside.machine.PciLink;

/** The checks that read the kernel log and the PCIe links, and the one line that sums them up. */
class HostChecksTest {
    static final double NOW = 100_000;

    static KmsgRecord xid(double agoSeconds, String text) {
        return new KmsgRecord(0, 3, 1, (long) ((NOW - agoSeconds) * 1e6), text);
    }

    static Judged xids(KmsgRecord... records) {
        Judged j = new Judged();
        XidChecks.check(XidLog.of(new KernelLog(List.of(records), NOW, null, 0)), true, j);
        return j;
    }

    @Test
    void theGpusOwnXidWithinTheHourIsBadAndCountedByGpuAndCode() {
        Judged j = xids(xid(600, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                xid(300, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."));
        Finding f = j.findings.getFirst();
        assertEquals(HealthRules.XID.id(), f.id());
        assertEquals(Severity.BAD, f.severity());
        assertTrue(f.text().contains("Xid 79 x2 on 0000:3b:00, last 5 min ago"), f.text());
        assertTrue(j.passed.isEmpty());
    }

    @Test
    void anOlderOneIsAWarningAndAnApplicationsXidInformation() {
        Judged j = xids(xid(7200, "NVRM: Xid (PCI:0000:3b:00): 48, pid=12, name=python, DBE (0x1) on a row"),
                xid(60, "NVRM: Xid (PCI:0000:3b:00): 13, pid=12, name=python, Graphics Exception"));
        assertEquals(List.of(Severity.WARN, Severity.INFO), j.findings.stream().map(Finding::severity).toList());
    }

    @Test
    void aCleanLogPassesAndAnUnreadOneIsNeverClean() {
        Judged clean = xids(xid(10, "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.159.04"));
        assertTrue(clean.findings.isEmpty());
        assertEquals(List.of(new HealthRun.Passed(HealthRules.XID.id(), "kernel log")), clean.passed);

        Judged unread = new Judged();
        XidChecks.check(XidLog.notRead("/dev/kmsg: Operation not permitted"), true, unread);
        assertEquals(Severity.UNKNOWN, unread.findings.getFirst().severity());
        assertTrue(unread.passed.isEmpty());
    }

    static DeviceLink link(PciKind kind, PciLink idle) {
        return new DeviceLink("0000:3b:00.0", "dev", kind, idle, null, null);
    }

    static Judged links(DeviceLink... links) {
        Judged j = new Judged();
        LinkChecks.check(List.of(links), j);
        return j;
    }

    @Test
    void aGpuBelowItsMaximumAtRestIsNormalUntilTheLoadSaysOtherwise() {
        DeviceLink idle = link(PciKind.GPU, new PciLink(2.5, 16, 32.0, 16));
        Judged notLoaded = links(idle.withoutLoad("a recorded machine"));
        assertEquals(Severity.INFO, notLoaded.findings.getFirst().severity());

        Judged trainedDown = links(idle.withLoad(new PciLink(16.0, 16, 32.0, 16)));
        assertEquals(Severity.BAD, trainedDown.findings.getFirst().severity());
        assertTrue(trainedDown.findings.getFirst().text().contains("stays at Gen4 x16 of Gen5 x16"), trainedDown.findings.getFirst().text());

        Judged fine = links(idle.withLoad(new PciLink(32.0, 16, 32.0, 16)));
        assertTrue(fine.findings.isEmpty());
        assertEquals(1, fine.passed.size());
    }

    @Test
    void aNicBelowItsMaximumIsWarnedAtRestAndALinkAtItsMaximumPasses() {
        assertEquals(Severity.WARN, links(link(PciKind.NIC, new PciLink(32.0, 8, 32.0, 16))).findings.getFirst().severity());
        Judged fine = links(link(PciKind.NIC, new PciLink(32.0, 16, 32.0, 16)));
        assertTrue(fine.findings.isEmpty());
        assertEquals(HealthRules.PCIE_LINK.id(), fine.passed.getFirst().id());
        assertTrue(links(link(PciKind.GPU, null)).passed.isEmpty(), "no link files: nothing judged");
    }

    @Test
    void theLineSaysTheWorstInAtMostEightyPrintableCharacters() {
        Finding bad = HealthRules.ROW_REMAP_FAILED.finding(Severity.BAD, "GPU3", "GPU3: a row remapping has failed \"\u001b[31m\" and on and on"
                + " and on past any width a drain reason should have", Evidence.fact("x", "1"));
        Finding warn = HealthRules.PERSISTENCE.finding(Severity.WARN, "GPU0", "GPU0: persistence mode is off");
        String line = HealthLine.of(List.of(bad, warn), 20, false);
        assertTrue(line.startsWith("bad: M6-HEALTH-ROW-REMAP-FAILED GPU3: a row remapping has failed '?"), line);
        assertTrue(line.endsWith("... (+1 more)"), line);
        assertTrue(line.length() <= HealthLine.MAX, line.length() + ": " + line);
        assertTrue(line.chars().allMatch(c -> c >= 0x20 && c < 0x7f), line);

        assertEquals("ok: 20 checks passed", HealthLine.of(List.of(), 20, false));
        Finding unknown = HealthRules.NOT_JUDGED.unknown("GPUs", "not read", List.of());
        assertEquals("ok: 1 check passed, 1 not judged", HealthLine.of(List.of(unknown), 1, false));
        Finding gpus = HealthRules.NOT_JUDGED.unknown("GPUs", "the PCI bus shows 8 NVIDIA GPUs but NVML could not be used: no permission", List.of());
        assertEquals("unknown: M6-HEALTH-NOT-JUDGED the PCI bus shows 8 NVIDIA GPUs but NVML could...", HealthLine.of(List.of(gpus), 3, true));
    }
}
