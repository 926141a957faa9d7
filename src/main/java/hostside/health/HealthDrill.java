package hostside.health;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.core.Rule;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.TestCase;
import hostside.machine.GpuDrill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.PciLink;

/**
 * Module 6's node health: what DCGM's health watches, gpud and the NHC suites check before a job
 * lands on a node (GPU memory, GPU state, NVLink, PCIe, the kernel's Xids), each check a rule of
 * the rulebook. Seconds on an 8-GPU node: counters and states are read, not measured; the only
 * load is a few host-to-device copies on a GPU whose link sat below its maximum at rest.
 */
public final class HealthDrill implements Drill<HealthDrill.Options, HealthRun> {
    /** The drill, as the registry and the command drive it. */
    public static final HealthDrill DRILL = new HealthDrill();

    private HealthDrill() {}

    /** @param loadLinks read a GPU's link again under load where it sat below its maximum at rest (default: yes) */
    public record Options(Boolean loadLinks) {}

    @Override
    public String key() {
        return "health";
    }

    @Override
    public int module() {
        return 6;
    }

    @Override
    public String title() {
        return "Node health: GPU memory, GPU state, NVLink, PCIe and Xids";
    }

    @Override
    public List<TestCase<?>> cases() {
        return List.of();
    }

    /** Read, nothing loaded: on a live machine NVML's answers go into the snapshot being recorded. */
    @Override
    public HealthFacts facts(FsRoot fs) {
        return HealthReader.read(fs, MachineDrill.DRILL.facts(fs), false, Map.of());
    }

    @Override
    public Options defaults() {
        return new Options(true);
    }

    @Override
    public List<Rule> rules() {
        return HealthRules.all();
    }

    @Override
    public Class<HealthRun> runType() {
        return HealthRun.class;
    }

    /** No case to select: health reads what the machine says, so it needs no quiet machine. */
    @Override
    public boolean measures(DrillContext context) {
        return false;
    }

    @Override
    public HealthRun run(DrillContext c, Options o) {
        Optional<MachineRun> before = c.earlier().run(MachineRun.class);
        MachineFacts machine = before.map(MachineRun::facts).orElseGet(() -> MachineDrill.DRILL.facts(c.fs()));
        boolean load = o.loadLinks() == null ? defaults().loadLinks() : o.loadLinks();
        return HealthRun.of(HealthReader.read(c.fs(), machine, load && c.fs().isLive(), before.map(HealthDrill::loadedLinks).orElse(Map.of())));
    }

    /** The links Module 1 read under its copies, by PCI address: read again, they would only cost another CUDA context. */
    static Map<String, PciLink> loadedLinks(MachineRun run) {
        Map<String, PciLink> out = new HashMap<>();
        if (run.gpu() == null) return out;
        for (GpuDrill.GpuRun r : run.gpu().runs()) {
            if (r.pciAddress() != null && r.linkUnderLoad() != null && r.linkUnderLoad().speedGTs() != null) out.put(r.pciAddress(), r.linkUnderLoad());
        }
        return out;
    }
}
