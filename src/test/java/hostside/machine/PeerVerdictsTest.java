package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerMatrix;
import hostside.harness.Result;
import hostside.harness.TestCase;

/** Verdicts from measured figures on recorded boxes: NVLink pairs at PCIe speed, uneven host bandwidth under load. */
class PeerVerdictsTest {
    static final PciLink GEN5_X16 = new PciLink(32.0, 16, 32.0, 16);

    /** The box's PCI devices with every GPU on a Gen5 x16 link (NvlinkBoxes leaves links out). */
    static List<PciDevice> withLinks(List<PciDevice> pci) {
        return pci.stream().map(d -> !d.isGpu() ? d : new PciDevice(d.address(), d.kind(), d.name(), d.classCode(), d.vendorId(),
                d.deviceId(), d.description(), d.driver(), d.numaNode(), d.localCpus(), GEN5_X16, d.upstream(), d.hostBridge(),
                d.interfaces(), d.netSpeedMbps(), d.rdma(), d.iommuGroup())).toList();
    }

    static MachineFacts facts(List<PciDevice> pci, int nodes) {
        return new MachineFacts(MachineFacts.SCHEMA, null, nodes(nodes), pci, null, null, List.of(), List.of(), List.of());
    }

    /** A read-CE matrix over the box's GPUs (in PCI order) with {@code everywhere} GB/s, then the given pairs' figures. */
    static Result readCe(List<PciDevice> pci, double everywhere, Map<String, Double> pairs) {
        return matrix(new PeerCe.Unidirectional(true), pci, everywhere, pairs);
    }

    static Result matrix(TestCase<?> t, List<PciDevice> pci, double everywhere, Map<String, Double> pairs) {
        List<String> addresses = pci.stream().filter(PciDevice::isGpu).map(PciDevice::address).toList();
        List<String> labels = pci.stream().filter(PciDevice::isGpu).map(PciDevice::label).toList();
        int n = addresses.size();
        List<List<Double>> values = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            Double[] row = new Double[n];
            for (int c = 0; c < n; c++) {
                if (r == c) continue;
                String key = labels.get(Math.min(r, c)) + "-" + labels.get(Math.max(r, c));
                row[c] = pairs.getOrDefault(key, everywhere);
            }
            values.add(Arrays.asList(row));
        }
        PeerMatrix m = new PeerMatrix(labels, addresses, "reader", "read from", values);
        return GpuResults.oneWay(t, m, List.of());
    }

    static Result allAtOnce(boolean toDevice, List<PciDevice> pci, double... perGpu) {
        List<PciDevice> gpus = pci.stream().filter(PciDevice::isGpu).toList();
        List<AllGpus.PerGpu> each = new ArrayList<>();
        double sum = 0;
        for (int i = 0; i < gpus.size(); i++) {
            each.add(new AllGpus.PerGpu("H100", gpus.get(i).address(), new Stats(perGpu[i], perGpu[i] - 1, perGpu[i] + 1, 5)));
            sum += perGpu[i];
        }
        return Result.ok(new AllGpus(toDevice), Unit.GB_PER_S, new Stats(sum, sum, sum, 5), "test",
                new AllGpus.AllGpusDetail(each, 1L << 29, 1L << 30, 8));
    }

    /** Each GPU alone: its pinned host-to-device copy. */
    static List<GpuDrill.GpuRun> alone(List<PciDevice> pci, double gbs) {
        return pci.stream().filter(PciDevice::isGpu).map(g -> new GpuDrill.GpuRun(g.label(), g.address(),
                List.of(GpuResults.ok(new Copies.CePinned(true), Unit.GB_PER_S, new Stats(gbs, gbs, gbs, 5))), List.of(), null)).toList();
    }

    static List<Finding> verdicts(List<PciDevice> pci, int nodes, List<NvmlGpu> nvml, List<GpuDrill.GpuRun> runs,
                                  Result... all) {
        GpuMatrix m = GpuMatrix.of(pci, nodes(nodes), nvml, null);
        return PeerVerdicts.of(facts(pci, nodes), new GpuDrill.GpuSection("", null, null, runs, List.of(all), List.of()), m);
    }

    @Test
    void aHealthyHgxBoardHasNothingToSay() {
        List<PciDevice> pci = withLinks(hgxPci());
        assertThat(verdicts(pci, 2, hgxNvml(-1, 0, true), alone(pci, 55), readCe(pci, 390, Map.of()),
                allAtOnce(true, pci, 54, 55, 54, 55, 55, 54, 55, 54))).isEmpty();
    }

    @Test
    void anNvlinkPairAtPcieSpeedIsBadAndOneFarBelowItsLinksAWarning() {
        List<PciDevice> pci = withLinks(hgxPci());
        List<Finding> f = verdicts(pci, 2, hgxNvml(-1, 0, true), List.of(),
                readCe(pci, 390, Map.of("GPU0-GPU1", 48.0, "GPU2-GPU3", 150.0)));
        assertThat(f).hasSize(2);
        assertThat(f.get(0).severity()).isEqualTo(Severity.BAD);
        assertThat(f.get(0).text()).startsWith("GPU0-GPU1 (NV18, 48 GB/s; PCIe 63 GB/s): NVLink joins them, but their peer copies run no faster")
                .doesNotContain("nvidia-smi");
        assertThat(f.get(0).fix()).isEqualTo(PeerRules.NVLINK_AT_PCIE.fix()).contains("nvidia-smi nvlink -s");
        assertThat(f.get(1).severity()).isEqualTo(Severity.WARN);
        // NV18 of NVLink 4.0: 18 x 25 GB/s a direction
        assertThat(f.get(1).text()).startsWith("GPU2-GPU3 (150 GB/s, 33% of NV18's 450 GB/s): peer copies reach less than half");
    }

    @Test
    void aPcieOnlyPairIsNotJudgedAgainstNvlink() {
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        assertThat(verdicts(pci, 2, pcieOnlyNvml(), List.of(), readCe(pci, 20, Map.of()))).isEmpty();
    }

    @Test
    void switchPeersNoFasterThanStagingGoThroughTheCpu() {
        // pcieOnly: GPU0-GPU1 under one switch (PIX), GPU0-GPU2 and GPU1-GPU2 through two (PXB), the rest through the CPU
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        Result direct = readCe(pci, 25, Map.of("GPU0-GPU1", 21.0, "GPU0-GPU2", 48.0, "GPU1-GPU2", 47.0));
        Result staged = matrix(new PeerCe.Staged(), pci, 20, Map.of());
        List<Finding> f = verdicts(pci, 2, pcieOnlyNvml(), List.of(), direct, staged);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.subject()).isEqualTo("GPU peers");
            assertThat(x.text()).startsWith("GPU0-GPU1 (PIX: 21.0 GB/s direct, 20.0 staged through host memory): they share a PCIe switch,"
                    + " yet peer copies run no faster than staging");
            assertThat(x.id()).isEqualTo(PeerRules.VIA_HOST_RULE.id());
            assertThat(x.fix()).contains("ACSCtl");
        });
        // pairs through the CPU (PHB and beyond) are slow by wiring, which GpuMatrix's findings say; and nothing without the staged copy
        assertThat(verdicts(pci, 2, pcieOnlyNvml(), List.of(), direct)).isEmpty();
    }

    @Test
    void twoGpusSharingASwitchGetLessOfTheHostAndTheSumIsShort() {
        // pcieOnly: GPU0 and GPU1 under one switch; the others on their own root ports or host bridges
        List<PciDevice> pci = withLinks(pcieOnlyPci());
        List<Finding> f = verdicts(pci, 2, pcieOnlyNvml(), alone(pci, 55),
                allAtOnce(true, pci, 27, 28, 52, 54, 55, 53));
        assertThat(f).as("269 of 330 GB/s at once is 82%: uneven, but the host is not the limit").hasSize(1);
        assertThat(f.get(0).subject()).isEqualTo("GPU host links");
        assertThat(f.get(0).text()).startsWith("host to GPU copies with every GPU copying at once (host_to_all_memcpy_ce):"
                        + " GPU0 27.0 GB/s (55.0 alone), GPU1 28.0 GB/s (55.0 alone) against 55.0 GB/s for the best GPU;"
                        + " they share a PCIe switch with another GPU (GPU0-GPU1)")
                .contains("slowest");
        assertThat(f.get(0).id()).isEqualTo(PeerRules.HOST_UNEVEN.id());
    }

    @Test
    void evenButShortOfTheSumIsOnlyTheSharedLimit() {
        List<PciDevice> pci = withLinks(meshPci());
        List<GpuDrill.GpuRun> runs = alone(pci, 55);
        List<Finding> f = verdicts(pci, 4, meshNvml(), runs, allAtOnce(true, pci, 30, 31, 30, 31));
        assertThat(f).singleElement().satisfies(x -> assertThat(x.text())
                .startsWith("host to GPU copies: all 4 GPUs at once move 122 GB/s, 55% of the 220 GB/s they reach one at a time"));
        // without each GPU alone there is nothing to compare the sum with
        assertThat(verdicts(pci, 4, meshNvml(), List.of(), allAtOnce(false, pci, 30, 31, 30, 31))).isEmpty();
    }

    @Test
    void oneGpuSaysNothing() {
        List<PciDevice> pci = withLinks(pcieOnlyPci()).stream().filter(d -> !d.isGpu() || d.label().equals("GPU0")).toList();
        assertThat(verdicts(pci, 2, pcieOnlyNvml(), alone(pci, 55), allAtOnce(true, pci, 20))).isEmpty();
    }
}
