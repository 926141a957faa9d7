package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static hostside.machine.PeerVerdictsTest.allAtOnce;
import static hostside.machine.PeerVerdictsTest.alone;
import static hostside.machine.PeerVerdictsTest.facts;
import static hostside.machine.PeerVerdictsTest.matrix;
import static hostside.machine.PeerVerdictsTest.readCe;
import static hostside.machine.PeerVerdictsTest.withLinks;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.peer.PeerCe;
import hostside.harness.Result;
import hostside.testing.RuleTally;

/**
 * Module 1's rules between GPUs ({@link PeerRules}): each severity each rule gives, on the recorded
 * boxes of {@link NvlinkBoxes}; what keeps it quiet; and a busy machine, which turns every measured
 * one unknown with its figures and no fix (the wiring's and the driver's findings are facts and stay).
 */
class PeerRulesTest {
    static final List<String> BUSY = GpuRulesTest.BUSY_REASONS;

    static List<Finding> measured(List<PciDevice> pci, int nodes, List<NvmlGpu> nvml, List<GpuDrill.GpuRun> runs,
                                  List<String> busy, Result... all) {
        GpuMatrix m = GpuMatrix.of(pci, nodes(nodes), nvml, null);
        return PeerVerdicts.of(facts(pci, nodes), new GpuDrill.GpuSection("", null, null, runs, List.of(all), List.of()), m, busy);
    }

    static Finding of(List<Finding> f, Rule rule) {
        return GpuRulesTest.of(f, rule);
    }

    // ---- the wiring: M1-PEER-PCIE-PATH, M1-NVLINK-DOWN ----

    @Test
    void pairsThroughTheCpuWarnAndNvlinkKeepsThemQuiet() {
        Finding f = of(GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null).findings().stream()
                .filter(x -> x.text().contains("(SYS)")).toList(), PeerRules.PCIE_PATH);
        GpuRulesTest.is(f, PeerRules.PCIE_PATH, Severity.WARN);
        // across sockets, but NVLink joins every pair
        assertThat(RuleTally.quiet(GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null).findings(), PeerRules.PCIE_PATH)).isEmpty();
    }

    @Test
    void pcieOnlyPairsUnderSwitchesAreQuiet() {
        // GPU0 and GPU1 under one switch (PIX), GPU2 under a second switch below it (PXB): no NVLink, and no pair goes through the CPU
        List<PciDevice> switches = pcieOnlyPci().subList(0, 10);
        assertThat(switches.stream().filter(PciDevice::isGpu).map(PciDevice::label)).containsExactly("GPU0", "GPU1", "GPU2");
        GpuMatrix m = GpuMatrix.of(switches, nodes(1), pcieOnlyNvml().subList(0, 3), null);
        assertThat(m.pairs()).extracting(GpuMatrix.Pair::pcie).containsOnly("PIX", "PXB");
        RuleTally.quiet(m.findings(), PeerRules.PCIE_PATH);
    }

    @Test
    void aGpuWithLinksDownWarnsAndAllUpIsQuiet() {
        Finding f = of(GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(3, 2, true), null).findings(), PeerRules.NVLINK_DOWN);
        GpuRulesTest.is(f, PeerRules.NVLINK_DOWN, Severity.WARN);
        assertThat(f.subject()).isEqualTo("GPU3");
        assertThat(f.text()).contains("89% of its NVLink bandwidth");
        // every GPU's 18 links up
        RuleTally.quiet(GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null).findings(), PeerRules.NVLINK_DOWN);
    }

    // ---- the driver: M1-PEER-NVLINK-REFUSED, M1-PEER-NONE, M1-PEER-ACS ----

    static PeerPath path(String pair, Boolean ab, Boolean ba, List<String> acs) {
        return new PeerPath(pair, ab, ba, null, null, null, acs, null, Map.of(), Map.of());
    }

    @Test
    void refusedPeersAreBadOnNvlinkAWarningOnPcieAndAllowedOnesQuiet() {
        GpuMatrix hgx = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null);
        Finding nv = of(PeerPath.findings(hgx, List.of(path("GPU0-GPU1", false, false, List.of()))), PeerRules.NVLINK_REFUSED);
        GpuRulesTest.is(nv, PeerRules.NVLINK_REFUSED, Severity.BAD);
        assertThat(nv.text()).startsWith("GPU0-GPU1: NVLink joins them but peer access is refused (cuDeviceCanAccessPeer is 0)");
        GpuMatrix pcie = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        Finding none = of(PeerPath.findings(pcie, List.of(path("GPU0-GPU1", false, true, List.of()))), PeerRules.PEER_NONE);
        GpuRulesTest.is(none, PeerRules.PEER_NONE, Severity.WARN);
        assertThat(RuleTally.quiet(PeerPath.findings(hgx, List.of(path("GPU0-GPU1", true, true, List.of()))), PeerRules.NVLINK_REFUSED)).isEmpty();
        // a PCIe pair under one switch with peer access both ways and no port redirecting: quiet
        List<Finding> allowed = PeerPath.findings(pcie, List.of(path("GPU0-GPU1", true, true, List.of())));
        RuleTally.quiet(allowed, PeerRules.PEER_NONE);
        assertThat(RuleTally.quiet(allowed, PeerRules.ACS)).isEmpty();
    }

    @Test
    void switchPortsRedirectingPeerRequestsWarn() {
        GpuMatrix pcie = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        Finding f = of(PeerPath.findings(pcie, List.of(path("GPU0-GPU1", true, true, List.of("0000:02:08.0")))), PeerRules.ACS);
        GpuRulesTest.is(f, PeerRules.ACS, Severity.WARN);
        assertThat(f.text()).contains("ACS P2P Request Redirect is on at 0000:02:08.0");
        assertThat(f.fix()).contains("ECAP_ACS+0x6.w=0000");
    }

    // ---- measured: M1-NVLINK-AT-PCIE, M1-NVLINK-DEGRADED ----

    @Test
    void nvlinkAtPcieSpeedIsBadADegradedPairWarnsAndBothAreUnknownWhenBusy() {
        List<PciDevice> pci = withLinks(hgxPci());
        Result ce = readCe(pci, 390, Map.of("GPU0-GPU1", 48.0, "GPU2-GPU3", 150.0));
        List<Finding> quiet = measured(pci, 2, hgxNvml(-1, 0, true), List.of(), List.of(), ce);
        GpuRulesTest.is(of(quiet, PeerRules.NVLINK_AT_PCIE), PeerRules.NVLINK_AT_PCIE, Severity.BAD);
        GpuRulesTest.is(of(quiet, PeerRules.NVLINK_DEGRADED), PeerRules.NVLINK_DEGRADED, Severity.WARN);
        List<Finding> busy = measured(pci, 2, hgxNvml(-1, 0, true), List.of(), BUSY, ce);
        GpuRulesTest.busy(of(busy, PeerRules.NVLINK_AT_PCIE), PeerRules.NVLINK_AT_PCIE);
        GpuRulesTest.busy(of(busy, PeerRules.NVLINK_DEGRADED), PeerRules.NVLINK_DEGRADED);
        assertThat(of(busy, PeerRules.NVLINK_DEGRADED).text()).contains("GPU2-GPU3 (150 GB/s, 33% of NV18's 450 GB/s)");
        // 390 GB/s of NV18's 450 is 87%: healthy
        List<Finding> healthy = measured(pci, 2, hgxNvml(-1, 0, true), List.of(), List.of(), readCe(pci, 390, Map.of()));
        RuleTally.quiet(healthy, PeerRules.NVLINK_AT_PCIE);
        assertThat(RuleTally.quiet(healthy, PeerRules.NVLINK_DEGRADED)).isEmpty();
    }

    @Test
    void nvlinkPairsJustPastEachLineAreQuietOnIt() {
        List<PciDevice> pci = withLinks(hgxPci());
        // a GB/s past the pair's Gen5 x16 PCIe: not at PCIe speed, though far under NV18's 450 (degraded)
        double pastPcie = PeerVerdictsTest.GEN5_X16.maxGBs() + 1;
        List<Finding> f = measured(pci, 2, hgxNvml(-1, 0, true), List.of(), List.of(), readCe(pci, 390, Map.of("GPU0-GPU1", pastPcie)));
        RuleTally.quiet(f, PeerRules.NVLINK_AT_PCIE);
        GpuRulesTest.is(of(f, PeerRules.NVLINK_DEGRADED), PeerRules.NVLINK_DEGRADED, Severity.WARN);
        // a GB/s past half of NV18's 18 x 25 GB/s: not degraded
        double pastHalf = PeerRules.DEGRADED * 18 * 25 + 1;
        RuleTally.quiet(measured(pci, 2, hgxNvml(-1, 0, true), List.of(), List.of(), readCe(pci, 390, Map.of("GPU2-GPU3", pastHalf))),
                PeerRules.NVLINK_DEGRADED);
    }

    @Test
    void nvlinkThreesRateDependsOnTheChip() {
        assertThat(PeerRules.perLinkGBs(List.of("3.0"), "NVIDIA A100-SXM4-80GB")).contains(25.0);
        assertThat(PeerRules.perLinkGBs(List.of("3.0"), "NVIDIA GeForce RTX 3090")).contains(14.0625);
        assertThat(PeerRules.perLinkGBs(List.of("3.0"), "NVIDIA RTX A6000")).contains(14.0625);
        assertThat(PeerRules.perLinkGBs(List.of("3.0"), "NVIDIA A30")).as("not known: not judged").isEmpty();
        assertThat(PeerRules.perLinkGBs(List.of("4.0"), null)).contains(25.0);
        assertThat(PeerRules.perLinkGBs(List.of("5.0"), null)).contains(50.0);
        assertThat(PeerRules.perLinkGBs(List.of("1.0"), null)).contains(20.0);
        assertThat(PeerRules.perLinkGBs(List.of("3.0", "4.0"), null)).isEqualTo(Optional.empty());
    }

    // ---- measured: M1-PEER-VIA-HOST ----

    @Test
    void switchPeersAtTheStagedRateWarnAndAreUnknownWhenBusy() {
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        Result direct = readCe(pci, 25, Map.of("GPU0-GPU1", 21.0, "GPU0-GPU2", 48.0, "GPU1-GPU2", 47.0));
        Result staged = matrix(new PeerCe.Staged(), pci, 20, Map.of());
        GpuRulesTest.is(of(measured(pci, 2, pcieOnlyNvml(), List.of(), List.of(), direct, staged), PeerRules.VIA_HOST_RULE),
                PeerRules.VIA_HOST_RULE, Severity.WARN);
        GpuRulesTest.busy(of(measured(pci, 2, pcieOnlyNvml(), List.of(), BUSY, direct, staged), PeerRules.VIA_HOST_RULE), PeerRules.VIA_HOST_RULE);
        Result fast = readCe(pci, 48, Map.of());
        assertThat(RuleTally.quiet(measured(pci, 2, pcieOnlyNvml(), List.of(), List.of(), fast, staged), PeerRules.VIA_HOST_RULE)).isEmpty();
        // GPU0-GPU1 (PIX) just past the staged copy's 20 GB/s times the factor: direct, quiet
        Result justFaster = readCe(pci, 48, Map.of("GPU0-GPU1", PeerRules.VIA_HOST * 20 + 0.5));
        RuleTally.quiet(measured(pci, 2, pcieOnlyNvml(), List.of(), List.of(), justFaster, staged), PeerRules.VIA_HOST_RULE);
    }

    // ---- measured: M1-HOST-SHARE-UNEVEN, M1-HOST-SHARED ----

    @Test
    void unevenAndSharedHostCopiesWarnAndAreUnknownWhenBusy() {
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        Result uneven = allAtOnce(true, pci, 27, 28, 52, 54, 55, 53);
        GpuRulesTest.is(of(measured(pci, 2, pcieOnlyNvml(), alone(pci, 55), List.of(), uneven), PeerRules.HOST_UNEVEN), PeerRules.HOST_UNEVEN, Severity.WARN);
        GpuRulesTest.busy(of(measured(pci, 2, pcieOnlyNvml(), alone(pci, 55), BUSY, uneven), PeerRules.HOST_UNEVEN), PeerRules.HOST_UNEVEN);

        List<PciDevice> mesh = withLinks(meshPci());
        Result shared = allAtOnce(true, mesh, 30, 31, 30, 31);
        Finding f = of(measured(mesh, 4, meshNvml(), alone(mesh, 55), List.of(), shared), PeerRules.HOST_SHARED);
        GpuRulesTest.is(f, PeerRules.HOST_SHARED, Severity.WARN);
        assertThat(f.text()).startsWith("host to GPU copies: all 4 GPUs at once move 122 GB/s, 55% of the 220 GB/s they reach one at a time");
        GpuRulesTest.busy(of(measured(mesh, 4, meshNvml(), alone(mesh, 55), BUSY, shared), PeerRules.HOST_SHARED), PeerRules.HOST_SHARED);
        List<Finding> even = measured(mesh, 4, meshNvml(), alone(mesh, 55), List.of(), allAtOnce(true, mesh, 54, 55, 54, 55));
        RuleTally.quiet(even, PeerRules.HOST_UNEVEN);
        assertThat(RuleTally.quiet(even, PeerRules.HOST_SHARED)).isEmpty();
    }

    @Test
    void hostCopiesJustInsideEachShareAreQuiet() {
        // two GPUs just over four fifths of the best one's 55 GB/s: not uneven
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        double justOverUneven = PeerRules.UNEVEN * 55 + 0.2;
        RuleTally.quiet(measured(pci, 2, pcieOnlyNvml(), alone(pci, 55), List.of(), allAtOnce(true, pci, justOverUneven, justOverUneven, 55, 55, 55, 55)),
                PeerRules.HOST_UNEVEN);
        // four GPUs at once, each just over four fifths of its 55 GB/s alone: the sum just over the shared line
        List<PciDevice> mesh = withLinks(meshPci());
        double justOverShared = PeerRules.SHARED * 55 + 0.2;
        List<Finding> f = measured(mesh, 4, meshNvml(), alone(mesh, 55), List.of(), allAtOnce(true, mesh, justOverShared, justOverShared, justOverShared, justOverShared));
        RuleTally.quiet(f, PeerRules.HOST_SHARED);
        RuleTally.quiet(f, PeerRules.HOST_UNEVEN);
    }
}
