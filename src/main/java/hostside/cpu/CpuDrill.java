package hostside.cpu;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.cpu.dataloader.CowDetail;
import hostside.cpu.dataloader.DataLoaderTarget;
import hostside.cpu.dataloader.DataLoaderVerdicts;
import hostside.cpu.dataloader.PythonSession;
import hostside.cpu.facts.CpuFactRules;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.cpu.facts.CpuVerdicts;
import hostside.cpu.measure.CpuTarget;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.cpu.trace.ProfileRules;
import hostside.fs.FsRoot;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.harness.Cut;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillTarget;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.harness.Unsettled;
import hostside.libc.Sched;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.machine.MachineRun;
import hostside.machine.PciDevice;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/**
 * Module 3's measurements: what the scheduler charges (syscall, context switches, wake-up,
 * migration), timer jitter quiet and under hogs (refs timer's loop), and launch jitter in four
 * conditions on the first GPU when there is one.
 */
public final class CpuDrill implements Drill<CpuDrill.Options, CpuRun> {
    /** The drill, as the registry and the commands drive it. */
    public static final CpuDrill DRILL = new CpuDrill();

    private CpuDrill() {}

    @Override
    public String key() {
        return "cpu";
    }

    @Override
    public int module() {
        return 3;
    }

    @Override
    public String title() {
        return "The CPU that feeds the GPU: its scheduling, IRQs and jitter";
    }

    @Override
    public List<TestCase<?>> cases() {
        List<TestCase<?>> all = new ArrayList<>(measurements());
        all.addAll(DataLoaderTarget.tests());
        return all;
    }

    /** The scheduler, isolation, frequency and IRQ facts, against Module 1's. */
    @Override
    public CpuFacts facts(FsRoot fs) {
        return CpuFactsReader.read(fs, MachineReader.read(fs));
    }

    @Override
    public Options defaults() {
        return Options.defaults();
    }

    /** The scheduler's and DataLoader's rules, the CPU facts' and those of a traced training step (cpu --trace). */
    @Override
    public List<Rule> rules() {
        List<Rule> all = new ArrayList<>(CpuRules.all());
        all.addAll(DataLoaderVerdicts.RULES);
        all.addAll(CpuFactRules.all());
        all.addAll(ProfileRules.all());
        return all;
    }

    @Override
    public Class<CpuRun> runType() {
        return CpuRun.class;
    }

    /** Module 1's facts from the run before this one where there was one (the report reads them once), else read now. */
    @Override
    public CpuRun run(DrillContext c, Options o) {
        MachineFacts machine = c.earlier().run(MachineRun.class).map(MachineRun::facts).orElseGet(() -> MachineReader.read(c.fs()));
        return run(c.fs(), machine, c.cases().pick(measurements()), c.cases().pick(DataLoaderTarget.tests()), o, c.progress(), c.load());
    }

    public static List<TestCase<CpuTarget>> measurements() {
        List<TestCase<CpuTarget>> t = new ArrayList<>(SchedCosts.all());
        t.addAll(LaunchJitter.all());
        return t;
    }

    /** The sizes a user may set: jitter cadence and count, the DataLoader's dataset and workers. */
    public record Options(int launches, long periodNs, long datasetBytes, int workers) {
        public static Options defaults() {
            return new Options(CpuTarget.DEFAULT_LAUNCHES, CpuTarget.DEFAULT_PERIOD_NS, DataLoaderTarget.DEFAULT_DATASET_BYTES, DataLoaderTarget.DEFAULT_WORKERS);
        }
    }

    /**
     * The DataLoader measurements: forked Python workers over a list and over a numpy array, and
     * fork vs spawn with CUDA, passing their python3 interpreter on where the measurements allow
     * it ({@link PythonSession}); it ends with the last case.
     */
    public static List<Result> dataloader(FsRoot fs, List<TestCase<DataLoaderTarget>> tests, Options s, ProgressSink progress) {
        if (tests.isEmpty()) return List.of();
        try (Loader loader = new Loader(s)) {
            List<Result> results = Runner.run(fs, tests, loader, progress);
            if (loader.made == null) return results;
            return DataLoaderTarget.cut(fs, s.datasetBytes(), loader.made.datasetBytes(), s.workers()).map(c -> withCut(results, c)).orElse(results);
        }
    }

    /** The DataLoader cases' target, made when they begin, with the session its cases share; closing it ends the session's interpreter. */
    private static final class Loader implements DrillTarget<DataLoaderTarget> {
        private final Options options;
        private PythonSession session;
        DataLoaderTarget made;

        Loader(Options options) {
            this.options = options;
        }

        @Override
        public DataLoaderTarget make() {
            DataLoaderTarget t = DataLoaderTarget.onThisMachine(options.datasetBytes(), options.workers(), DataLoaderTarget.DEFAULT_TIMEOUT);
            session = new PythonSession(t.python());
            return made = t.withSession(session);
        }

        @Override
        public void close() {
            if (session != null) session.close();
        }
    }

    /** The copy-on-write results that ran, with {@code cut} in their detail: their figure is over less than was asked. */
    static List<Result> withCut(List<Result> results, Cut cut) {
        return results.stream().map(r -> r.isOk() && r.detail() instanceof CowDetail d ? r.withDetail(d.withCut(cut)) : r).toList();
    }

    /**
     * What the launch measurements ran on.
     *
     * @param results the scheduler and jitter cases, in order
     * @param gpu     "GPU0: name (PCI address)" when they launched on a GPU; "" when not
     * @param noGpu   why there was no GPU to launch on; "" when there was one or none was needed
     */
    public record Measured(List<Result> results, String gpu, String noGpu) {
        public Measured {
            results = List.copyOf(results);
        }
    }

    public static Measured measure(FsRoot fs, MachineFacts machine, List<TestCase<CpuTarget>> tests, int launches, long periodNs, ProgressSink progress) {
        if (tests.isEmpty()) return new Measured(List.of(), "", "");
        // the timer conditions need none: asked alone, they open no CUDA context
        boolean needsGpu = tests.stream().anyMatch(x -> x instanceof LaunchJitter j && j.condition().launches());
        try (Feeder feeder = new Feeder(machine, needsGpu, launches, periodNs)) {
            // the cases say "on GPU0" once the target is made and has a GPU, as the target is made before the first case starts
            ProgressSink onGpu = progress.on("GPU0");
            List<Result> results = Runner.run(fs, tests, feeder, e -> (feeder.gpu.isEmpty() ? progress : onGpu).accept(e));
            return new Measured(results, feeder.gpu, feeder.noGpu);
        }
    }

    /**
     * The target of the launch measurements, made only when they run on this machine (never under
     * --root): the CPUs this process may use and, when a jitter case is among them, GPU0 with its
     * local CPUs as the feeder's. Closing it releases the GPU.
     */
    private static final class Feeder implements DrillTarget<CpuTarget> {
        private final MachineFacts machine;
        private final boolean needsGpu;
        private final int launches;
        private final long periodNs;
        private GpuBench bench;
        String gpu = "", noGpu = "";

        Feeder(MachineFacts machine, boolean needsGpu, int launches, long periodNs) {
            this.machine = machine;
            this.needsGpu = needsGpu;
            this.launches = launches;
            this.periodNs = periodNs;
        }

        @Override
        public CpuTarget make() {
            List<Integer> cpus = Sched.affinity();
            if (!needsGpu) return new CpuTarget(cpus, cpus, null, launches, periodNs);
            Cuda.Open open = Cuda.open();
            if (!(open instanceof Cuda.Open.Ready r)) {
                noGpu = ((Cuda.Open.NotRun) open).why();
                return new CpuTarget(cpus, cpus, null, launches, periodNs);
            }
            try {
                bench = new GpuBench(r.cuda(), 0);
            } catch (CudaException e) {
                noGpu = "GPU0 could not be used: " + e.getMessage();
                return new CpuTarget(cpus, cpus, null, launches, periodNs);
            }
            gpu = "GPU0: " + bench.name + " (" + bench.pciAddress + ")";
            return new CpuTarget(cpus, feederCpus(machine, bench.pciAddress, cpus), bench, launches, periodNs);
        }

        @Override
        public void close() {
            if (bench != null) bench.close();
        }
    }

    /** The GPU's local CPUs that this process may use; all of {@code allowed} when the kernel does not say. */
    static List<Integer> feederCpus(MachineFacts machine, String pciAddress, List<Integer> allowed) {
        for (PciDevice d : machine.pci()) {
            if (!d.address().equals(pciAddress) || d.localCpus() == null || d.localCpus().isEmpty()) continue;
            List<Integer> local = d.localCpus().stream().boxed().filter(allowed::contains).toList();
            if (!local.isEmpty()) return local;
        }
        return allowed;
    }

    /**
     * Facts, then the measurements and the DataLoader cases, each reported to {@code progress}, with
     * Module 1's facts already read. {@code window}: the machine's load, read over the facts and
     * closed before the measurements ({@link LoadWindow#NONE} where not read): a busy one makes the
     * measured findings unknown.
     */
    static CpuRun run(FsRoot fs, MachineFacts machine, List<TestCase<CpuTarget>> tests, List<TestCase<DataLoaderTarget>> loader,
                      Options options, ProgressSink progress, LoadWindow window) {
        // the settings before the measurements, as a reader of the run expects: the frequency governor and the IRQs as they were
        CpuFacts facts = CpuFactsReader.read(fs, machine);
        MachineLoad load = window.close();
        Measured m = measure(fs, machine, tests, options.launches(), options.periodNs(), progress);
        List<Result> dl = dataloader(fs, loader, options, progress);
        List<Finding> verdicts = new ArrayList<>(MeasuredVerdicts.of(machine.host(), m.results(), !m.gpu().isEmpty(), load));
        verdicts.addAll(DataLoaderVerdicts.of(dl, load));
        List<Result> all = new ArrayList<>(m.results());
        all.addAll(dl);
        Unsettled.finding(CpuRules.UNSETTLED, all, "the scheduler's and DataLoader's figures", MachineLoad.busyReasons(load)).ifPresent(verdicts::add);
        // a disturbed jitter run is a finding of its own: the figures beside it are not the machine's
        List<Finding> findings = new ArrayList<>(CpuVerdicts.of(facts));
        findings.addAll(JitterNoise.findings(m.results()));
        return new CpuRun(machine.host(), facts, findings, m, dl, verdicts);
    }
}
