package hostside.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.NvmlHealth;
import hostside.health.host.DpkgPackage;
import hostside.health.host.DpkgState;
import hostside.health.host.IbDevice;
import hostside.health.host.IbLinkLayer;
import hostside.health.host.IbPhysState;
import hostside.health.host.IbPort;
import hostside.health.host.IbPortState;
import hostside.health.host.IbPorts;
import hostside.health.host.LibraryFile;
import hostside.health.host.ModuleFlavour;
import hostside.health.host.NicDistance;
import hostside.health.host.PcieAer;
import hostside.health.host.PcieLevel;
import hostside.health.host.Rail;
import hostside.health.host.Rails;
import hostside.health.host.SoftwareStack;
import hostside.machine.MachineDrill;
import hostside.rack.RackFacts;
import hostside.testing.RuleTally;

/**
 * The host's rules firing and quiet: on testdata/health/ib-node (an assembled two-socket node with
 * AER counts, InfiniBand and RoCE ports, a stale libcuda and two NCCLs) read through the drill, and
 * on facts built where the recording has no such case.
 */
class HostRulesTest {
    static HealthRun ibNode() {
        FsRoot fs = FsRoot.open(Fixtures.testdata().resolve("health/ib-node.tar.gz").toString());
        return HealthRun.of(HealthReader.read(fs, MachineDrill.DRILL.facts(fs), false, Map.of()));
    }

    static List<Finding> of(List<Finding> findings, Rule rule) {
        return findings.stream().filter(f -> f.id().equals(rule.id())).toList();
    }

    static Finding one(List<Finding> findings, Rule rule, String subject) {
        List<Finding> of = of(findings, rule).stream().filter(f -> f.subject().equals(subject)).toList();
        assertThat(of).as(rule.id() + " " + subject + " in " + findings).hasSize(1);
        return of.getFirst();
    }

    @Test
    void theAssembledNodeAsItsReadmeDescribesIt() {
        HealthRun run = ibNode();
        List<Finding> f = run.findings();
        // AER: the switch port above GPU0 counted 7 receiver errors, mlx5_0 a completion timeout; GPU1's root port exposes none
        assertThat(one(f, HealthRules.AER, "PCIe 0000:04:00.0").severity()).isEqualTo(Severity.BAD);
        Finding sw = one(f, HealthRules.AER, "PCIe 0000:02:00.0");
        assertThat(sw.severity()).isEqualTo(Severity.INFO);
        assertThat(sw.text()).contains("above 0000:03:00.0").contains("7 correctable");
        assertThat(one(f, HealthRules.AER, "PCIe").severity()).as("no AER files: said, not taken as clean").isEqualTo(Severity.INFO);
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.AER.id(), "PCIe 0000:03:00.0"));
        // the root port counted what its devices counted already: judged once, at the devices
        assertThat(of(f, HealthRules.AER)).noneMatch(x -> x.subject().equals("PCIe 0000:00:01.0"));

        // ports: mlx5_2 disabled, the QDR mlx4_0 below the NDR port, soft-RoCE below the 200G RoCE port; mlx5_0 flapped twice
        assertThat(one(f, HealthRules.IB_PORT, "mlx5_2/1").severity()).isEqualTo(Severity.WARN);
        assertThat(one(f, HealthRules.IB_PORT, "mlx4_0/1").text()).contains("below the node's 400 Gb/s ports");
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.IB_PORT.id(), "mlx5_0/1"));
        Finding flap = one(f, HealthRules.IB_ERRORS, "mlx5_0/1");
        assertThat(flap.severity()).isEqualTo(Severity.WARN);
        assertThat(flap.text()).contains("went down 2 times").contains("symbol_error 5");
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.IB_ERRORS.id(), "mlx4_0/1"));

        // software: the stale libcuda is bad, two NCCLs a warning, the NVML library agrees
        assertThat(one(f, HealthRules.SOFTWARE, "driver").text()).contains("CUDA library").contains("580.126.20");
        assertThat(one(f, HealthRules.SOFTWARE, "NCCL").severity()).isEqualTo(Severity.WARN);
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.SOFTWARE.id(), "NVML_LIBRARY"));
        RuleTally.quiet(of(f, HealthRules.OPEN_MODULE), HealthRules.OPEN_MODULE);
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.OPEN_MODULE.id(), "driver"));

        // rails: GPU0 shares a switch with mlx5_0, GPU1 a host bridge with mlx5_1
        RuleTally.quiet(of(f, HealthRules.RAIL), HealthRules.RAIL);
        assertThat(run.passed()).contains(new HealthRun.Passed(HealthRules.RAIL.id(), "GPU 0000:03:00.0"),
                new HealthRun.Passed(HealthRules.RAIL.id(), "GPU 0000:41:00.0"));

        // no NVML answers in it, two NVIDIA GPUs on its bus: the GPUs are not judged, and the command says so by its exit code
        assertThat(one(f, HealthRules.NOT_JUDGED, "GPUs").severity()).as("a recording: nothing to run again").isEqualTo(Severity.INFO);
        assertThat(of(f, HealthRules.XID)).as("a recording has no kernel log, by nature").isEmpty();
        assertThat(run.gpusNotJudged()).isTrue();
        assertThat(run.verdict()).startsWith("bad: M6-HEALTH-");
    }

    static IbPort port(IbPortState state, IbPhysState phys, double gbps, long downed) {
        return new IbPort(1, state, phys, (long) gbps + " Gb/sec (4X)", gbps, IbLinkLayer.INFINIBAND, null,
                Map.of("link_downed", downed, "symbol_error", 0L), Map.of(), null);
    }

    @Test
    void aCabledPortThatIsNotActiveIsBadAndCleanCountersPass() {
        Judged j = new Judged();
        HostChecks.ports(List.of(new IbDevice("mlx5_3", "MT4129", "28.41.1000", "0000:05:00.0",
                List.of(port(IbPortState.INIT, IbPhysState.LINK_UP, 400, 0)))), j);
        assertThat(one(j.findings, HealthRules.IB_PORT, "mlx5_3/1").severity()).isEqualTo(Severity.BAD);

        Judged clean = new Judged();
        HostChecks.ports(List.of(new IbDevice("mlx5_3", "MT4129", "28.41.1000", "0000:05:00.0",
                List.of(port(IbPortState.ACTIVE, IbPhysState.LINK_UP, 400, 0)))), clean);
        assertThat(clean.findings).isEmpty();
        RuleTally.quiet(clean.findings, HealthRules.IB_PORT);
        RuleTally.quiet(clean.findings, HealthRules.IB_ERRORS);
        assertThat(clean.passed).extracting(HealthRun.Passed::id).containsExactly(HealthRules.IB_PORT.id(), HealthRules.IB_ERRORS.id());
    }

    @Test
    void aGpuWhoseNearestNicIsOnTheOtherSocketHasNoRail() {
        Judged j = new Judged();
        HostChecks.rails(List.of(new Rail("0000:41:00.0", List.of(new NicDistance("mlx5_0", "0000:04:00.0", PcieLevel.SYS)))), j);
        Finding f = one(j.findings, HealthRules.RAIL, "GPU 0000:41:00.0");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).contains("mlx5_0 (0000:04:00.0), is SYS away");
    }

    static SoftwareStack stack(ModuleFlavour flavour, List<DpkgPackage> packages) {
        return new SoftwareStack("580.159.04", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04", "580.159.04", "P", flavour,
                List.of(new LibraryFile("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.159.04", "580.159.04")), List.of(), packages, List.of(), List.of());
    }

    static HealthFacts facts(SoftwareStack software, RackFacts.FabricManager fm, String gpuName) {
        GpuHealth g = new GpuHealth(0, gpuName, "GPU-1", "0000:18:00.0", null, null, null, null, null, List.of());
        return new HealthFacts(new NvmlHealth("libnvidia-ml.so.1", null, null, "580.159.04", null, null, List.of(g), List.of()), List.of(),
                new PcieAer(List.of(), List.of()), new IbPorts(List.of(), List.of()), new Rails(List.of(), List.of()), software, fm,
                XidLog.notRead("test"), 1, true);
    }

    static final RackFacts.FabricManager EIGHT_SWITCHES_NOTHING_RUNS = new RackFacts.FabricManager(
            List.of("0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"), "", false, false);

    @Test
    void nvSwitchesNeedAFabricManagerOfTheDriversVersionRunning() {
        Judged none = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.OPEN, List.of()), EIGHT_SWITCHES_NOTHING_RUNS, "NVIDIA H100 80GB HBM3"), none);
        assertThat(one(none.findings, HealthRules.FABRIC_MANAGER, "fabric manager").text()).contains("4 NVSwitches on the bus and no nv-fabricmanager running");

        Judged other = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.OPEN, List.of(new DpkgPackage("nvidia-fabricmanager-570", "570.133.20-1", "amd64", DpkgState.INSTALLED))),
                new RackFacts.FabricManager(List.of("0000:05:00.0"), "/lib/systemd/system/nvidia-fabricmanager.service", true, true), "NVIDIA H100 80GB HBM3"), other);
        assertThat(one(other.findings, HealthRules.FABRIC_MANAGER, "fabric manager").text()).contains("another version than the driver").contains("570.133.20");

        Judged unseen = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.OPEN, List.of()), new RackFacts.FabricManager(List.of("0000:05:00.0"), "", false, null),
                "NVIDIA H100 80GB HBM3"), unseen);
        assertThat(one(unseen.findings, HealthRules.FABRIC_MANAGER, "fabric manager").severity()).isEqualTo(Severity.WARN);

        Judged fine = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.OPEN, List.of(new DpkgPackage("nvidia-fabricmanager", "580.159.04-1", "amd64", DpkgState.INSTALLED))),
                new RackFacts.FabricManager(List.of("0000:05:00.0"), "/lib/systemd/system/nvidia-fabricmanager.service", true, true), "NVIDIA H100 80GB HBM3"), fine);
        RuleTally.quiet(fine.findings, HealthRules.FABRIC_MANAGER);
        RuleTally.quiet(fine.findings, HealthRules.SOFTWARE); // one NVML library, of the module's version
        assertThat(fine.passed).contains(new HealthRun.Passed(HealthRules.FABRIC_MANAGER.id(), "fabric manager"));
    }

    @Test
    void theProprietaryModuleIsBadUnderBlackwellAndWorthSayingElsewhere() {
        Judged b200 = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.PROPRIETARY, List.of()), null, "NVIDIA B200"), b200);
        assertThat(one(b200.findings, HealthRules.OPEN_MODULE, "driver").severity()).isEqualTo(Severity.BAD);
        Judged h100 = new Judged();
        HostChecks.software(facts(stack(ModuleFlavour.PROPRIETARY, List.of()), null, "NVIDIA H100 80GB HBM3"), h100);
        assertThat(one(h100.findings, HealthRules.OPEN_MODULE, "driver").severity()).isEqualTo(Severity.INFO);
        assertThat(HostChecks.OPEN_ONLY.matcher("NVIDIA GB200").find()).isTrue();
        assertThat(HostChecks.OPEN_ONLY.matcher("NVIDIA GeForce RTX 5090").find()).isTrue();
        assertThat(HostChecks.OPEN_ONLY.matcher("NVIDIA GeForce RTX 4090").find()).isFalse();
        assertThat(HostChecks.OPEN_ONLY.matcher("NVIDIA H200").find()).isFalse();
    }
}
