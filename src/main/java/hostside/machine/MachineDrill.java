package hostside.machine;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Target;
import hostside.gpu.peer.PeerCopies;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.harness.Unsettled;
import hostside.memory.MemoryTarget;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/** Module 1 as one run: the facts, the CPU's memory, the GPU drill, and the GPU matrix that joins them. */
public final class MachineDrill implements Drill<MachineDrill.Options, MachineRun> {
    /** The drill, as the registry and the commands drive it. */
    public static final MachineDrill DRILL = new MachineDrill();

    private MachineDrill() {}

    /**
     * STREAM's arrays of {@code streamArrayBytes} each, null for STREAM's rule (four times the
     * last-level caches); the GPU cases' host buffers within {@code hostCap} where given (the
     * report's share for one measurement), else within a quarter of available memory.
     */
    public record Options(Long streamArrayBytes, MemoryCap hostCap) {
        public Options(Long streamArrayBytes) {
            this(streamArrayBytes, null);
        }
    }

    @Override
    public String key() {
        return "machine";
    }

    @Override
    public int module() {
        return 1;
    }

    @Override
    public String title() {
        return "How the box is wired, and what copies to the GPUs cost";
    }

    /** The memory cases, each GPU's, the all-GPU ones, and the self-checks that run only by name. */
    @Override
    public List<TestCase<?>> cases() {
        List<TestCase<?>> all = new ArrayList<>(MemoryDrill.tests());
        all.addAll(GpuDrill.tests());
        all.addAll(GpuDrill.allGpuTests());
        all.addAll(PeerCopies.loopbacks());
        return all;
    }

    @Override
    public List<TestCase<?>> gpuCases() {
        List<TestCase<?>> gpu = new ArrayList<>(GpuDrill.tests());
        gpu.addAll(GpuDrill.allGpuTests());
        gpu.addAll(PeerCopies.loopbacks());
        return gpu;
    }

    @Override
    public MachineFacts facts(FsRoot fs) {
        return MachineReader.read(fs);
    }

    @Override
    public Options defaults() {
        return new Options(null, null);
    }

    @Override
    public List<Rule> rules() {
        List<Rule> all = new ArrayList<>(GpuRules.all());
        all.addAll(TopologyRules.all());
        all.addAll(PeerRules.all());
        return all;
    }

    @Override
    public Class<MachineRun> runType() {
        return MachineRun.class;
    }

    /** The self-checks (a GPU's copy to itself) run only when named: a plain run would spend minutes checking what needs no check. */
    @Override
    public MachineRun run(DrillContext c, Options o) {
        List<TestCase<Target>> tests = new ArrayList<>(c.cases().pick(GpuDrill.tests()));
        tests.addAll(c.cases().pickNamed(PeerCopies.loopbacks()));
        return run(c.fs(), c.cases().pick(MemoryDrill.tests()), o, tests, c.cases().pick(GpuDrill.allGpuTests()), c.progress(), c.load());
    }

    /**
     * Facts, the CPU memory measurements (before the GPU's: they load every CPU and its memory, and
     * nothing else may run beside them), then the GPU drill, each case reported to {@code progress},
     * on a machine whose load is read over {@code window}, closed once the facts are read (none: not
     * read): a busy one makes the measured findings unknown.
     */
    static MachineRun run(FsRoot fs, List<TestCase<MemoryTarget>> memoryTests, Options o, List<TestCase<Target>> tests,
                          List<TestCase<List<Target>>> together, ProgressSink progress, LoadWindow window) {
        MachineFacts facts = MachineReader.read(fs);
        MachineLoad load = window.close();
        MemoryDrill.MemorySection memory = memoryTests.isEmpty() ? null : MemoryDrill.run(fs, facts.topology(), memoryTests, o.streamArrayBytes(), progress);
        GpuDrill.GpuSection gpu = GpuDrill.run(fs, facts, tests, together, o.hostCap(), progress, load);
        GpuMatrix matrix = GpuMatrix.of(fs, facts, gpu);
        List<Finding> found = new ArrayList<>(matrix.findings());
        found.addAll(PeerVerdicts.of(facts, gpu, matrix, MachineLoad.busyReasons(load)));
        found.addAll(MemoryVerdicts.of(memory, gpu, load));
        List<Result> measured = new ArrayList<>();
        if (memory != null) memory.results().forEach(m -> measured.add(m.result()));
        gpu.runs().forEach(r -> measured.addAll(r.results()));
        measured.addAll(gpu.allGpus());
        Unsettled.finding(GpuRules.UNSETTLED, measured, "Module 1's figures", MachineLoad.busyReasons(load)).ifPresent(found::add);
        return new MachineRun(withFindings(withLinksUnderLoad(facts, gpu), found), gpu, matrix, memory);
    }

    /** The facts with findings that needed more than sysfs (the GPU matrix's, from NVML). */
    static MachineFacts withFindings(MachineFacts facts, List<Finding> more) {
        if (more.isEmpty()) return facts;
        List<Finding> findings = new ArrayList<>(facts.findings());
        findings.addAll(more);
        return new MachineFacts(facts.schema(), facts.host(), facts.topology(), facts.pci(), facts.affinity(), facts.iommu(),
                facts.kernelCmdline(), findings, facts.unknowns());
    }

    /**
     * An idle GPU's slow link is only a suspicion (a warning); the reading under load settles it:
     * at the maximum it was power saving, below it is a fault with a cost.
     */
    static MachineFacts withLinksUnderLoad(MachineFacts facts, GpuDrill.GpuSection gpu) {
        List<Finding> findings = new ArrayList<>(facts.findings());
        for (GpuDrill.GpuRun r : gpu.runs()) {
            PciLink load = r.linkUnderLoad();
            if (load == null || load.speedGTs() == null) continue;
            boolean suspected = findings.removeIf(f -> f.subject().equals(r.gpu()) && f.id().equals(TopologyRules.LINK_IDLE.id())
                    && f.severity() == Severity.WARN);
            if (suspected) findings.add(TopologyRules.underLoad(r.gpu(), load));
        }
        return new MachineFacts(facts.schema(), facts.host(), facts.topology(), facts.pci(), facts.affinity(), facts.iommu(),
                facts.kernelCmdline(), findings, facts.unknowns());
    }
}
