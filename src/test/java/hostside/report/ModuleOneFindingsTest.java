package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.machine.Affinity;
import hostside.machine.CopyVerdicts;
import hostside.machine.GpuDrill;
import hostside.machine.GpuRules;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.MemoryRules;
import hostside.machine.PciLink;
import hostside.machine.TopologyRules;
import hostside.process.MachineLoad;
import hostside.rack.RackVerdict;

/**
 * Module 1's measured findings on page one and in the day-one checklist: a pinned copy far below
 * its link measured quiet is a thing to fix with its rule's ID and fix; measured busy it is not
 * judged, and page one says so; a report from before findings were typed reads its GPU's verdict
 * lines as info findings of no rule, which fix nothing.
 */
class ModuleOneFindingsTest {
    static final MachineLoad BUSY = MeasuredFindingsTest.BUSY;
    static final PciLink GEN5 = new PciLink(32.0, 16, 32.0, 16);

    /** Pinned copies at 48% of a Gen5 x16 link: the recorded H200's own 55.3 GB/s, as a fault would leave it. */
    static final List<Result> SLOW = List.of(new Result("host_to_device_ce_pinned", "", Status.OK, "", Unit.GB_PER_S, new Stats(30, 29.8, 30.2, 5),
            Unit.GB_PER_S.usually, "", null, null));

    /** The recorded H200 report with its GPU's copy findings replaced by those of {@code results} measured under {@code load}. */
    static Report withCopies(List<Result> results, MachineLoad load) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> {
            if (!(d instanceof MachineRun m)) return d;
            GpuDrill.GpuSection g = m.gpu();
            List<GpuDrill.GpuRun> runs = g.runs().stream().map(r -> new GpuDrill.GpuRun(r.gpu(), r.pciAddress(), r.results(),
                    CopyVerdicts.of(r.gpu(), results, GEN5, MachineLoad.busyReasons(load)), r.linkUnderLoad())).toList();
            return new MachineRun(m.facts(), new GpuDrill.GpuSection(g.notRun(), g.cuda(), g.nvml(), runs, g.allGpus(), g.peers()), m.gpuMatrix(), m.memory());
        });
    }

    /** The recorded report with one more finding among Module 1's facts' (where the host memory's measured findings sit). */
    static Report withFact(Finding f) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> {
            if (!(d instanceof MachineRun m)) return d;
            MachineFacts x = m.facts();
            List<Finding> all = new ArrayList<>(x.findings());
            all.add(f);
            return new MachineRun(new MachineFacts(x.schema(), x.host(), x.topology(), x.pci(), x.affinity(), x.iommu(), x.kernelCmdline(), all, x.unknowns()),
                    m.gpu(), m.gpuMatrix(), m.memory());
        });
    }

    /** The recorded report with its affinity's findings (each GPU's nearest NIC) replaced by {@code nic}. */
    static Report withNic(Finding nic) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> {
            if (!(d instanceof MachineRun m)) return d;
            MachineFacts x = m.facts();
            Affinity a = x.affinity();
            return new MachineRun(new MachineFacts(x.schema(), x.host(), x.topology(), x.pci(), new Affinity(a.devices(), a.matrix(), List.of(nic)),
                    x.iommu(), x.kernelCmdline(), x.findings(), x.unknowns()), m.gpu(), m.gpuMatrix(), m.memory());
        });
    }

    static DayOne.Line line(Report r, int n) {
        return DayOne.of(r).get(n - 1);
    }

    @Test
    void aSlowLinkMeasuredQuietIsToFixWithItsRuleAndFix() throws Exception {
        Report r = withCopies(SLOW, null);
        String page = RecordedReports.pageOne(r);
        assertThat(page).contains("**warn** (Module 1, GPU0, M1-LINK-SHARE): pinned copies reach 48% of the link's 63.0 GB/s (PCIe Gen5 x16): below 70%")
                .contains("Fix: **read the link while copies run");
        DayOne.Line link = line(r, 3);
        assertThat(link.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(link.detail()).contains("Module 1's copies: GPU0 (M1-LINK-SHARE)");
    }

    @Test
    void theSameFiguresMeasuredBusyAreNotJudgedAndPageOneSaysSo() throws Exception {
        Report r = withCopies(SLOW, BUSY);
        assertThat(r.module(MachineRun.class).gpu().runs().getFirst().verdicts()).filteredOn(f -> f.id().equals(GpuRules.LINK_SHARE.id()))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
                    assertThat(f.fix()).isEmpty();
                });
        String page = RecordedReports.pageOne(r);
        assertThat(page).doesNotContain("M1-LINK-SHARE").contains("could not be judged").contains("Module 1");
        assertThat(line(r, 3).detail()).contains("(M1-LINK-SHARE) not judged");
    }

    @Test
    void aMeasuredMemoryWarningAmongTheFactsIsOnPageOneAndInItsDayOneLine() throws Exception {
        Finding far = MemoryRules.FAR_NODE.finding(Severity.WARN, "node 0", "CPUs of node 0 read node 1's memory (CPUs and memory) at 61% of their own node's",
                Evidence.of("memory_bandwidth_read", 61, Unit.GB_PER_S));
        Report r = withFact(far);
        assertThat(RecordedReports.pageOne(r)).contains("**warn** (Module 1, node 0, M1-FAR-NODE): CPUs of node 0 read node 1's memory")
                .contains("Fix: **bind each process's memory to its CPUs' node");
        assertThat(line(r, 4).verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(line(r, 4).detail()).contains("Module 1's placement: node 0 (M1-FAR-NODE)");
    }

    @Test
    void aGpuFarFromItsRdmaNicIsOnPageOneWithItsRule() throws Exception {
        Finding far = TopologyRules.NIC_DISTANCE.finding(Severity.WARN, "GPU0",
                "GPU0 and mlx5_0 are on different NUMA nodes (SYS): inter-node traffic is staged through host memory",
                Evidence.fact("affinity.GPU0.mlx5_0", "SYS"));
        assertThat(RecordedReports.pageOne(withNic(far))).contains("**warn** (Module 1, GPU0, M1-NIC-DISTANCE): GPU0 and mlx5\\_0 are on different NUMA nodes");
        Finding none = TopologyRules.NIC_DISTANCE.finding(Severity.INFO, "GPU0", "GPU0 has no NIC in this box", Evidence.fact("pci.nics", "0"));
        Report quiet = withNic(none);
        assertThat(RecordedReports.pageOne(quiet)).doesNotContain("M1-NIC-DISTANCE");
        assertThat(quiet.findings()).anyMatch(c -> c.id().equals("M1-NIC-DISTANCE") && c.severity() == Severity.INFO);
    }

    @Test
    void findingsReadBackFromTheReportsJsonWithTheirRules() throws Exception {
        Report back = ReportReader.read(Json.MAPPER.readTree(Json.write(withCopies(SLOW, null))), "again");
        Finding f = back.module(MachineRun.class).gpu().runs().getFirst().verdicts().stream()
                .filter(x -> x.id().equals(GpuRules.LINK_SHARE.id())).findFirst().orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.evidence()).contains(Evidence.of("host_to_device_ce_pinned", 30, Unit.GB_PER_S));
        assertThat(f.source()).startsWith("measurement: docs/measurements/2026-12-02-h200-gpu.md");
    }

    @Test
    void anEarlierReportsGpuVerdictLinesReadAsInfoAndFixNothing() throws Exception {
        for (String name : List.of("h200-hostside1.json", "h200-hostside2.json")) {
            java.nio.file.Path p = java.nio.file.Path.of("testdata/reports", name);
            Report r = ReportReader.read(Json.MAPPER.readTree(p.toFile()), name);
            List<Finding> v = r.module(MachineRun.class).gpu().runs().getFirst().verdicts();
            assertThat(v).as(name).hasSize(9).allSatisfy(f -> {
                assertThat(f.severity()).isEqualTo(Severity.INFO);
                assertThat(f.id()).isEmpty();
            });
            assertThat(v.get(2).text()).startsWith("pinned copies reach 88% of the link's 63.0 GB/s");
            assertThat(ToFix.of(r)).noneMatch(i -> i.module() == 1 && i.text().startsWith("pinned copies reach"));
            assertThat(line(r, 3).detail()).doesNotContain("Module 1's copies");
        }
    }
}
