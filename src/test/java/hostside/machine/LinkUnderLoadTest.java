package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;

/** An idle GPU's slow link is settled by the reading under load (DOMAIN.md: idle GPUs downtrain). */
class LinkUnderLoadTest {
    final MachineFacts h200 = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    MachineFacts idleAtGen1() {
        PciDevice gpu = h200.gpus().getFirst();
        PciDevice idle = AffinityTest.dev(gpu.address(), "gpu", "GPU0", null, "pci0000:00", null, new PciLink(2.5, 16, 32.0, 16));
        List<Finding> f = new ArrayList<>(h200.findings());
        f.add(MachineReader.linkFinding(idle, null).orElseThrow());
        return new MachineFacts(h200.schema(), h200.host(), h200.topology(), h200.pci(), h200.affinity(), h200.iommu(),
                h200.kernelCmdline(), f, h200.unknowns());
    }

    static GpuDrill.GpuSection underLoad(PciLink link) {
        return new GpuDrill.GpuSection("", null, null, List.of(new GpuDrill.GpuRun("GPU0", "0000:00:06.0", List.of(), List.of(), link)), List.of(), List.of());
    }

    @Test
    void fullSpeedUnderLoadWasPowerSaving() {
        MachineFacts f = MachineDrill.withLinksUnderLoad(idleAtGen1(), underLoad(new PciLink(32.0, 16, 32.0, 16)));
        assertThat(f.findings()).noneMatch(x -> x.id().equals(TopologyRules.LINK_IDLE.id()) && x.severity() == Severity.WARN);
        assertThat(f.findings()).anySatisfy(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).contains("runs at Gen5 x16 under load: power saving, not a fault");
            assertThat(x.id()).isEqualTo(TopologyRules.LINK_IDLE.id());
            assertThat(x.fix()).isEmpty();
        });
    }

    @Test
    void slowUnderLoadIsAFaultWithItsCost() {
        MachineFacts f = MachineDrill.withLinksUnderLoad(idleAtGen1(), underLoad(new PciLink(16.0, 16, 32.0, 16)));
        assertThat(f.findings()).anySatisfy(x -> {
            assertThat(x.severity()).isEqualTo(Severity.BAD);
            assertThat(x.text()).isEqualTo("GPU0 stays at Gen4 x16 of Gen5 x16 under load: at most 31.5 GB/s per direction instead of 63.0");
            // the day-one checklist finds it by its code, not by its words
            assertThat(x.id()).isEqualTo(TopologyRules.LINK_BELOW_MAX.id());
            assertThat(x.fix()).isEqualTo(TopologyRules.LINK_BELOW_MAX.fix());
        });
    }

    @Test
    void noSuspicionNoChange() {
        MachineFacts f = MachineDrill.withLinksUnderLoad(h200, underLoad(new PciLink(32.0, 16, 32.0, 16)));
        assertThat(f.findings()).isEqualTo(h200.findings());
    }
}
