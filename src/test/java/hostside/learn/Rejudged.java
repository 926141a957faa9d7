package hostside.learn;

import java.util.List;

import hostside.cpu.CpuRun;
import hostside.io.IoRun;
import hostside.machine.CopyVerdicts;
import hostside.machine.GpuDrill;
import hostside.machine.MachineRun;
import hostside.machine.PciLink;
import hostside.process.MachineLoad;
import hostside.report.Fleet;
import hostside.report.RecordedReports;
import hostside.report.Report;
import hostside.vm.MeasuredVerdicts;
import hostside.vm.VmRun;

/**
 * The recorded H200 report with its measured findings drawn again by today's rules from its own
 * results: that report was written before its findings were typed, so its stored ones name no
 * rule, and a course test needs the report's finding of each rule as page one would draw it now.
 * Under {@link #BUSY} every drill is said to have begun busy, in the findings and in the report's
 * conditions alike, as a report measured on a busy machine reads.
 */
public final class Rejudged {
    private Rejudged() {}

    /** A machine busy as a drill begins: the load InputsBusyTest uses. */
    public static final MachineLoad BUSY = InputsBusyTest.BUSY;
    /** The H200's link, as its machine drill read it: PCIe Gen5 x16 at full speed. */
    static final PciLink GEN5 = new PciLink(32.0, 16, 32.0, 16);

    /** The report quiet, its findings those of today's rules. */
    public static Report quiet() throws Exception {
        return of(null);
    }

    /** The same report with every drill begun busy: its measured findings are unknown, never a fix. */
    public static Report busy() throws Exception {
        return of(BUSY);
    }

    static Report of(MachineLoad load) throws Exception {
        List<String> busy = MachineLoad.busyReasons(load);
        Report r = RecordedReports.withRuns(RecordedReports.h200(), d -> switch (d) {
            case MachineRun m when m.gpu() != null -> {
                GpuDrill.GpuSection g = m.gpu();
                List<GpuDrill.GpuRun> runs = g.runs().stream().map(x -> new GpuDrill.GpuRun(x.gpu(), x.pciAddress(), x.results(),
                        CopyVerdicts.of(x.gpu(), x.results(), GEN5, busy), x.linkUnderLoad())).toList();
                yield new MachineRun(m.facts(), new GpuDrill.GpuSection(g.notRun(), g.cuda(), g.nvml(), runs, g.allGpus(), g.peers()), m.gpuMatrix(), m.memory());
            }
            case VmRun v -> new VmRun(v.machine(), v.facts(), v.findings(), v.host(), v.gpu(),
                    MeasuredVerdicts.of(v.machine(), v.host(), v.gpu() == null ? List.of() : v.gpu().results(), load));
            case CpuRun c -> new CpuRun(c.machine(), c.facts(), c.findings(), c.measured(), c.dataloader(),
                    hostside.cpu.MeasuredVerdicts.of(c.machine(), c.measured().results(), c.measured().gpu() != null && !c.measured().gpu().isEmpty(), load));
            case Report.Storage st -> new Report.Storage(new IoRun(st.io().machine(), st.io().facts(), st.io().findings(), st.io().file(), st.io().results(),
                    hostside.io.MeasuredVerdicts.of(st.io().results(), false, st.io().scope().toString(), load)), st.container());
            default -> d;
        });
        if (load == null) return r;
        Fleet.Confounders c = r.confounders();
        List<Fleet.DrillLoad> loads = List.of("machine", "vm", "cpu", "io").stream().map(d -> new Fleet.DrillLoad(d, load)).toList();
        return new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(), loads, c.mode()),
                r.title(), r.questions(), r.headlines(), r.figures(), r.modules());
    }
}
