package hostside.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import hostside.container.AvailableMemory;
import hostside.core.BadInputException;
import hostside.core.Finding;
import hostside.core.Printable;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.fs.FsRoot;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.PinCost;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Cut;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.DrillTarget;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.StaleTestFiles;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;
import hostside.harness.Unsettled;
import hostside.libc.Libc;
import hostside.machine.GpuDrill;
import hostside.machine.Host;
import hostside.machine.MachineRun;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;
import hostside.vm.facts.VmFacts;
import hostside.vm.facts.VmFactsReader;
import hostside.vm.facts.VmVerdicts;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.HostTarget;
import hostside.vm.measure.ManagedMigration;
import hostside.vm.measure.TlbReach;

/**
 * Module 2's drill: the virtual-memory facts with their verdicts, the host measurements (file
 * reads by read() and mmap, first-touch faults, THP, TLB reach) and the GPU's view of host
 * memory (unified-memory attributes, VMM granularity, pinning cost, managed-memory migration).
 */
public final class VmDrill implements Drill<VmDrill.Options, VmRun> {
    /** The test file's default size: big enough to dwarf readahead and caches, bounded by memory. */
    static final long DEFAULT_FILE = 1L << 30, MIN_FILE = 64L << 20;

    /** The drill, as the registry and the commands drive it. */
    public static final VmDrill DRILL = new VmDrill();

    private VmDrill() {}

    @Override
    public String key() {
        return "vm";
    }

    @Override
    public int module() {
        return 2;
    }

    @Override
    public String title() {
        return "What virtual memory does to your bytes";
    }

    @Override
    public List<TestCase<?>> cases() {
        List<TestCase<?>> all = new ArrayList<>(hostTests());
        all.addAll(gpuTests());
        return all;
    }

    @Override
    public List<TestCase<?>> gpuCases() {
        return List.copyOf(gpuTests());
    }

    /** The settings; reads nothing else when the machine is a recording. */
    @Override
    public VmFacts facts(FsRoot fs) {
        OptionalLong live = OptionalLong.empty();
        if (fs.isLive() && Libc.available()) live = OptionalLong.of(Libc.pageSize());
        return VmFactsReader.read(fs, live);
    }

    @Override
    public Options defaults() {
        return new Options(null, null, null, null);
    }

    @Override
    public List<Rule> rules() {
        return VmRules.all();
    }

    @Override
    public Class<VmRun> runType() {
        return VmRun.class;
    }

    /**
     * Module 1's host and pin costs from the run before this one where there was one (the report
     * measures the pin costs once, in Module 1), else read and measured now.
     */
    @Override
    public VmRun run(DrillContext c, Options o) {
        Optional<MachineRun> machine = c.earlier().run(MachineRun.class);
        Host host = machine.map(m -> m.facts().host()).orElseGet(() -> Host.read(c.fs()));
        Reused reused = machine.map(VmDrill::pinCosts).orElse(Reused.NONE);
        return run(c.fs(), host, c.cases().pick(hostTests()), c.cases().pick(gpuTests()), o, c.progress(), reused, c.load(), c.files());
    }

    /**
     * Module 1's pin costs per GPU, which Module 2 explains: measured once (twice, they came out
     * 13% apart on the H200 and the report carried both under one key and scope).
     */
    static Reused pinCosts(MachineRun run) {
        Map<String, List<Result>> byPci = new LinkedHashMap<>();
        for (GpuDrill.GpuRun g : run.gpu().runs()) {
            byPci.put(g.pciAddress(), g.results().stream().filter(r -> r.key().startsWith("pin_cost_") && r.isOk()).toList());
        }
        return new Reused(byPci);
    }

    public static List<TestCase<HostTarget>> hostTests() {
        return List.of(new FileRead(false, true), new FileRead(true, true), new FileRead(false, false), new FileRead(true, false),
                new AnonTouch(false), new AnonTouch(true), new TlbReach(false), new TlbReach(true));
    }

    public static List<TestCase<Target>> gpuTests() {
        List<TestCase<Target>> t = new ArrayList<>(List.of(new PinCost(false), new PinCost(true)));
        t.addAll(ManagedMigration.all());
        return t;
    }

    /**
     * Where the test file goes, how large it is, the first-touch region, and the most any one
     * measurement may map (the test file mapped whole, the first-touch region, the TLB walk's set,
     * the GPU cases' host buffers): a quarter of available memory, or less where {@code cap} says
     * (the report's share for one measurement); null fields take the defaults.
     */
    public record Options(Path dir, Long size, Long anonSize, MemoryCap cap) {
        public Options(Path dir, Long size, Long anonSize) {
            this(dir, size, anonSize, null);
        }
    }


    /**
     * Results another drill of the same run already measured (the report's Module 1 measures the
     * pin costs that Module 2 explains, on every GPU): used in place of measuring them again on the
     * GPU this drill measures on, so that a report carries one figure per key and scope, and spends
     * its time once.
     *
     * @param byPci each GPU's PCI address and the results measured on it, each under its test case's key
     */
    public record Reused(Map<String, List<Result>> byPci) {
        public static final Reused NONE = new Reused(Map.of());

        Optional<Result> of(String key, String onPci) {
            return byPci.getOrDefault(onPci, List.of()).stream().filter(r -> r.key().equals(key)).findFirst();
        }
    }

    /**
     * The facts, then the host and GPU cases, each reported to {@code progress}, taking {@code reused}
     * results in place of measuring them again. {@code window}: the machine's load, read over the
     * drill's facts and closed before it measures ({@link LoadWindow#NONE} where not read, as on a
     * recording): a busy one makes the measured findings unknown.
     */
    static VmRun run(FsRoot fs, Host machine, List<TestCase<HostTarget>> hostTests, List<TestCase<Target>> gpuTests,
                     Options fileOptions, ProgressSink progress, Reused reused, LoadWindow window) {
        return run(fs, machine, hostTests, gpuTests, fileOptions, progress, reused, window, TestFiles.OWN);
    }

    /** ... with the test file lent by {@code files}: a report's drills share one. */
    static VmRun run(FsRoot fs, Host machine, List<TestCase<HostTarget>> hostTests, List<TestCase<Target>> gpuTests,
                     Options fileOptions, ProgressSink progress, Reused reused, LoadWindow window, TestFiles files) {
        VmFacts facts = DRILL.facts(fs);
        MachineLoad load = window.close(); // before the test file is written: its writeback is others' work
        List<Finding> findings = VmVerdicts.of(facts);
        List<Result> host;
        try (HostSession session = new HostSession(fs, facts, fileOptions, hostTests, progress, files)) {
            // on a recording every case is "not run" and the session never makes its target (no file written)
            host = Runner.run(fs, hostTests, session, progress);
            findings = session.withStaleNote(findings);
            if (session.made != null) host = withAnonCut(host, session.made, fileOptions.anonSize());
        }
        VmGpu gpu = fs.isLive() ? gpu(fs, facts, gpuTests, fileOptions.cap(), progress, reused) : VmGpu.notRun(Runner.RECORDED);
        List<Result> all = new ArrayList<>(host);
        all.addAll(gpu.results());
        return new VmRun(machine, facts, findings, host, gpu,
                Unsettled.adding(MeasuredVerdicts.of(machine, host, gpu.results(), load), VmRules.UNSETTLED, all, "virtual memory's figures",
                        MachineLoad.busyReasons(load)));
    }

    /**
     * The host cases' target, made only when the cases run: a dead run's files swept from the
     * folder first (a killed run's file takes room the default size is cut to), then the test file
     * written (a bad --dir or a disk too small is bad input, said before anything runs), and
     * removed again when the session closes.
     */
    private static final class HostSession implements DrillTarget<HostTarget> {
        private final FsRoot fs;
        private final VmFacts facts;
        private final Options options;
        private final List<TestCase<HostTarget>> tests;
        private final ProgressSink progress;
        private final boolean files;
        private final TestFiles lender;
        HostTarget made;
        private Optional<String> staleNote = Optional.empty();

        HostSession(FsRoot fs, VmFacts facts, Options options, List<TestCase<HostTarget>> tests, ProgressSink progress, TestFiles lender) {
            this.fs = fs;
            this.facts = facts;
            this.options = options;
            this.tests = tests;
            this.progress = progress;
            this.files = tests.stream().anyMatch(t -> t instanceof FileRead);
            this.lender = lender;
        }

        @Override
        public HostTarget make() {
            if (files) staleNote = sweepStale(options.dir() != null ? options.dir() : TestFile.defaultDir());
            made = VmDrill.target(fs, facts, options, tests, lender);
            if (files) {
                progress.step("writing the " + Units.bytes(made.file().bytes()) + " test file");
                made.file().get();
            }
            return made;
        }

        List<Finding> withStaleNote(List<Finding> findings) {
            if (staleNote.isEmpty()) return findings;
            List<Finding> all = new ArrayList<>(findings);
            all.add(VmRules.STALE_TEST_FILES.finding(Severity.INFO, "test files", staleNote.get()));
            return all;
        }

        @Override
        public void close() {
            if (made != null) made.file().close();
        }
    }

    /** A killed run's test files in {@code dir} removed before this run writes there, said on stderr; the note for the findings. */
    static Optional<String> sweepStale(Path dir) {
        return StaleTestFiles.sweep(dir, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    /**
     * The first-touch results, with what --anon-size was cut to where the budget cut it
     * ({@link Cut}: a note in the text, {@code detail.cut} in --json). The same
     * bound {@link AnonTouch} applies: the budget, in whole huge pages.
     */
    static List<Result> withAnonCut(List<Result> results, HostTarget target, Long asked) {
        if (asked == null) asked = AnonTouch.DEFAULT_BYTES; // the default, cut on a small machine, is said too
        long used = target.bounded(asked, Math.max(target.hugePageSize(), target.pageSize()));
        var cut = Cut.of("--anon-size", asked, used, target.budgetWhy());
        if (cut.isEmpty()) return results;
        List<Result> out = new ArrayList<>();
        for (Result r : results) {
            if (r.isOk() && r.detail() instanceof AnonTouch.TouchDetail d) r = r.withDetail(d.withCut(cut.get()));
            out.add(r);
        }
        return out;
    }

    /** Why a measurement used at most a quarter of available memory, {@code budget} bytes ({@link #budget(Long)}). */
    static String budgetWhy(long budget) {
        return "a quarter of available memory (" + Cut.size(budget) + " of " + Cut.size(budget * 4)
                + ", MemAvailable or what the memory cgroup leaves), the most one measurement may map";
    }

    /** The most one measurement may map, and why: a quarter of available memory, or {@code cap} where it is lower. */
    record Budget(long bytes, String why) {
        static Budget of(long quarter, MemoryCap cap) {
            return MemoryCap.binds(cap, quarter) ? new Budget(cap.bytes(), cap.why()) : new Budget(quarter, budgetWhy(quarter));
        }
    }

    /**
     * The test file's size: --size as given, else 1 GiB cut to a quarter of available memory (a
     * warm read must fit in the page cache) and to half the disk's room beyond the margin it
     * keeps free; never below 64 MiB, where readahead and caches would be most of the figure.
     */
    static long fileSize(Options o, long budget, long usableBytes) {
        return o.size() != null ? o.size() : TestFile.fittedSize(DEFAULT_FILE, MIN_FILE, budget, usableBytes);
    }

    /** A quarter of available memory, the most any measurement may take; 1 GiB when it is unknown. */
    static long budget(Long availableBytes) {
        return (availableBytes == null ? 4L << 30 : availableBytes) / 4;
    }

    /**
     * This machine's budget: MemAvailable cut to what this process's memory cgroup has left
     * (inside a container /proc/meminfo is the host's).
     */
    static long budget(FsRoot fs) {
        return budget(AvailableMemory.read(fs).bytes());
    }

    static HostTarget target(FsRoot fs, VmFacts facts, Options o, List<TestCase<HostTarget>> tests, TestFiles files) {
        long page = facts.pageSize().bytes() == null ? Libc.pageSize() : facts.pageSize().bytes();
        VmFacts.Thp thp = facts.thp();
        String mode = thp != null && thp.available() && thp.enabled() != null ? thp.enabled().selected() : "unavailable";
        long huge = thp != null && thp.pmdSizeBytes() != null ? thp.pmdSizeBytes() : 0;
        Path dir = o.dir() != null ? o.dir() : TestFile.defaultDir();
        String type = "unknown";
        try {
            type = Files.getFileStore(dir).type();
        } catch (IOException e) {
            if (o.dir() != null) throw new BadInputException(dir + ": " + (Files.exists(dir) ? "cannot be used (" + e.getMessage() + ")" : "no such folder") + " (--dir)");
        }
        boolean reads = tests.stream().anyMatch(t -> t instanceof FileRead);
        Budget budget = Budget.of(budget(fs), o.cap());
        // a session's file already in dir is grown, not written beside: its bytes count as room
        long size = reads ? fileSize(o, budget.bytes(), TestFile.usableSpace(dir) + files.heldIn(dir)) : 0;
        return new HostTarget(fs, page, huge, mode, budget.bytes(), budget.why(), dir, type, files.lend(dir, "vm", size),
                o.anonSize() != null ? o.anonSize() : AnonTouch.DEFAULT_BYTES);
    }

    /** The GPU's side of virtual memory: facts for every GPU, measurements on the first. */
    static VmGpu gpu(FsRoot fs, VmFacts facts, List<TestCase<Target>> tests, MemoryCap cap, ProgressSink progress, Reused reused) {
        Cuda.Open open = Cuda.open();
        if (open instanceof Cuda.Open.NotRun n) return VmGpu.notRun(n.why());
        Cuda cuda = ((Cuda.Open.Ready) open).cuda();
        CudaFacts cf;
        try {
            cf = CudaFacts.read(cuda);
        } catch (CudaException e) {
            return VmGpu.notRun("the CUDA driver could not describe its GPUs: " + e.getMessage());
        }
        List<VmGpu.GpuView> views = new ArrayList<>();
        for (CudaFacts.CudaGpu g : cf.gpus()) views.add(VmGpu.view(cuda, g));
        if (tests.isEmpty() || cf.gpus().isEmpty()) return new VmGpu("", views, List.of(), "", "");
        CudaFacts.CudaGpu first = cf.gpus().getFirst();
        String label = "GPU" + first.ordinal();
        String measuredOn = label + ": " + first.name() + " (" + first.pciAddress() + ")";
        List<TestCase<Target>> toRun = tests.stream().filter(t -> reused.of(t.key(), first.pciAddress()).isEmpty()).toList();
        try (GpuSession session = new GpuSession(fs, cuda, first.ordinal(), cap)) {
            List<Result> measured = Runner.run(fs, toRun, session, progress.on(label));
            return new VmGpu("", views, inOrder(tests, measured, reused, first), measuredOn, first.pciAddress());
        } catch (CudaException e) {
            return new VmGpu("", views, Runner.notRun(tests, label + " could not be used: " + e.getMessage()), "", "");
        }
    }

    /**
     * The first GPU's bench for the GPU cases, made only when one of them runs: a quick report skips
     * them all, and a bench (kernels, streams, buffers) for nothing was part of the 0.25 s the group's
     * start took in an H100 VM's stamped quick report.
     */
    private static final class GpuSession implements DrillTarget<Target> {
        private final FsRoot fs;
        private final Cuda cuda;
        private final int ordinal;
        private final MemoryCap cap;
        private GpuBench bench;

        GpuSession(FsRoot fs, Cuda cuda, int ordinal, MemoryCap cap) {
            this.fs = fs;
            this.cuda = cuda;
            this.ordinal = ordinal;
            this.cap = cap;
        }

        @Override
        public Target make() {
            bench = new GpuBench(cuda, ordinal);
            return new Target(bench, budget(fs) * 4, bench.memory()[0], cap);
        }

        @Override
        public void close() {
            if (bench != null) bench.close();
        }
    }

    /** In the test list's order, each case measured here or reused. */
    private static List<Result> inOrder(List<TestCase<Target>> tests, List<Result> measured, Reused reused, CudaFacts.CudaGpu gpu) {
        return tests.stream().map(t -> reused.of(t.key(), gpu.pciAddress())
                .orElseGet(() -> measured.stream().filter(r -> r.key().equals(t.key())).findFirst().orElseThrow())).toList();
    }
}
