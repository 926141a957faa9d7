package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Severity;

class PciLinkTest {
    @Test
    void bandwidthPerDirectionAfterEncoding() {
        assertThat(PciLink.gbPerSecond(32.0, 16)).isCloseTo(63.0, within(0.05));   // Gen5 x16
        assertThat(PciLink.gbPerSecond(16.0, 16)).isCloseTo(31.5, within(0.05));   // Gen4 x16
        assertThat(PciLink.gbPerSecond(16.0, 8)).isCloseTo(15.75, within(0.01));   // Gen4 x8: "16 GB/s instead of 63"
        assertThat(PciLink.gbPerSecond(64.0, 16)).isCloseTo(118.0, within(0.1));   // Gen6 FLIT
        assertThat(PciLink.gbPerSecond(2.5, 16)).isCloseTo(4.0, within(0.01));     // Gen1, 8b/10b
        assertThat(PciLink.gbPerSecond(null, 16)).isZero();
    }

    @Test
    void parsesSysfsSpellings() {
        assertThat(PciLink.parseSpeed("32.0 GT/s PCIe")).isEqualTo(32.0);
        assertThat(PciLink.parseSpeed("8 GT/s")).isEqualTo(8.0);
        assertThat(PciLink.parseSpeed("2.5 GT/s")).isEqualTo(2.5);
        assertThat(PciLink.parseSpeed("Unknown")).isNull();
        assertThat(PciLink.parseWidth("16")).isEqualTo(16);
        assertThat(PciLink.parseWidth("0")).isNull();
        assertThat(PciLink.parseWidth("x8")).isEqualTo(8);
        assertThat(PciLink.describe(16.0, 8)).isEqualTo("Gen4 x8");
        assertThat(PciLink.describe(null, null)).isEqualTo("Gen? x?");
    }

    @Test
    void aNarrowLinkIsAFindingWithItsCost() {
        PciDevice gpu = AffinityTest.dev("0000:03:00.0", "gpu", "GPU0", null, "pci0000:00", 0, new PciLink(16.0, 8, 32.0, 16));
        Finding f = MachineReader.linkFinding(gpu, null).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).isEqualTo("GPU0 runs at Gen4 x8 of Gen5 x16: at most 15.8 GB/s per direction instead of 63.0");
    }

    @Test
    void anIdleGpuBelowMaxSpeedIsOnlyAWarning() {
        PciDevice gpu = AffinityTest.dev("0000:03:00.0", "gpu", "GPU0", null, "pci0000:00", 0, new PciLink(2.5, 16, 32.0, 16));
        Finding f = MachineReader.linkFinding(gpu, null).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.id()).isEqualTo(TopologyRules.LINK_IDLE.id());
        assertThat(f.text()).contains("while idle: a fault only if it stays there during a copy");
        assertThat(f.fix()).contains("while a copy runs");
    }

    @Test
    void aSlowSlotIsNamed() {
        PciDevice port = AffinityTest.dev("0000:00:01.0", "bridge", "", null, "pci0000:00", 0, new PciLink(16.0, 16, 16.0, 16));
        PciDevice gpu = AffinityTest.dev("0000:01:00.0", "gpu", "GPU0", "0000:00:01.0", "pci0000:00", 0, new PciLink(16.0, 16, 32.0, 16));
        Finding f = MachineReader.linkFinding(gpu, port).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.BAD);
        assertThat(f.text()).contains("tops out at Gen4");
    }

    @Test
    void aLinkAtItsMaximumIsNoFinding() {
        PciDevice nic = AffinityTest.dev("0000:03:00.0", "nic", "mlx5_0", null, "pci0000:00", 0, new PciLink(16.0, 16, 16.0, 16));
        assertThat(MachineReader.linkFinding(nic, null)).isEmpty();
    }
}
