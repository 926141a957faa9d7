package hostside.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;
import hostside.harness.Unsettled;
import hostside.io.facts.IoFactRules;
import hostside.io.facts.IoFacts;
import hostside.io.facts.IoFactsReader;
import hostside.io.facts.IoVerdicts;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
import hostside.machine.Host;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.machine.MachineRun;
import hostside.machine.PciDevice;
import hostside.process.LoadWindow;
import hostside.process.MachineLoad;

/**
 * Module 4's I/O drill: a checkpoint-sized file read sequentially and at random, through the
 * page cache cold and warm and around it with O_DIRECT, one request at a time and 32 in flight
 * with io_uring; then written with and without fsync.
 */
public final class IoDrill implements Drill<IoDrill.Options, IoRun> {
    /**
     * The test file: 1 GiB, Module 2's size too, so that a report writes it once for both. Far past
     * readahead (a sequential sample reads 256 MiB of it); a 2 GiB file gave no other figure on the dev
     * VM: over two interleaved rounds the cases' ranges overlapped but for the O_DIRECT reads of one
     * round, which drifted with no regard to size (docs/measurements/2026-12-07-io-file-size-devvm.md).
     */
    public static final long DEFAULT_FILE = 1L << 30, MIN_FILE = 64L << 20;
    /**
     * Each write sample at most: 128 MiB, the same in a quick report and a full one, so that their
     * writes are the same figure. At 512 MiB the two write cases took 6.1 s of an H100 VM's report
     * (docs/measurements/2026-12-07-h100-night.md), at 256 MiB 3.6 s (2026-12-08-minute-cuts.md); on
     * the dev VM, four interleaved rounds, 128 MiB files wrote 8.9-9.1 GB/s buffered and 1.09-1.36 with
     * fsync against 9.0-9.5 and 1.09-1.30 at 256 MiB, in 1.3-1.6 and 0.8-1.3 s a case against 2.1-2.6
     * and 2.0-2.2; fio's jobs at the two sizes, three rounds, 7.1-7.5 against 6.0-8.1 buffered and
     * 1.15-1.30 against 1.29-1.34 with fsync (docs/measurements/2026-12-08-fewer-loads-devvm.md). The
     * fsync's flush of 128 MiB still takes tens of milliseconds on a VM's disk (84-109 ms there).
     */
    public static final long MAX_WRITE = 128L << 20;
    /**
     * A time-based read sample: 100 ms holds thousands of random reads (2,000 at the dev VM's 20,000
     * O_DIRECT IOPS, tens of thousands cached); the loop takes as many as the median needs. At 200 ms the
     * five random cases took 6.4-8.2 s of the dev VM's io drill, at 100 ms 4.6-5.4 s, over three
     * interleaved rounds (docs/measurements/2026-12-08-fewer-loads-devvm.md); on the H100 VM they were
     * 8.1 s of a 76 s report. 100 ms was tried once before and not landed: the medians sat below the 200
     * ms ones in 15 of 20 pairs (docs/measurements/2026-12-07-rand-sample-devvm.md); in the second try 9 of
     * 15, by less than the rounds drifted, but the cold reads in 6 of 7 pairs over both days. A cold sample
     * starts from an evicted file and fills the page cache as it goes (readahead around each miss), so a
     * longer one reads more from memory: bounded by what was cached after the samples, 2% of the file on
     * the H100 VM (22.7 MB), which fio's one-second job has read more of. Both are within the 10% a
     * figure is held to beside its peer; the peers' rounds on a GPU machine say whether they stay there.
     */
    public static final long DEFAULT_SAMPLE_MS = 100;

    /** The drill, as the registry and the commands drive it. */
    public static final IoDrill DRILL = new IoDrill();

    private IoDrill() {}

    @Override
    public String key() {
        return "io";
    }

    @Override
    public int module() {
        return 4;
    }

    @Override
    public String title() {
        return "How fast checkpoints and datasets read and write here";
    }

    @Override
    public List<TestCase<?>> cases() {
        return List.copyOf(tests());
    }

    /** The storage and network facts of the default folders, with Module 1's host (the driver's kind, the kernel). */
    @Override
    public IoFacts facts(FsRoot fs) {
        return facts(fs, Host.read(fs), defaults());
    }

    @Override
    public Options defaults() {
        return new Options(null, null, null, null);
    }

    @Override
    public List<Rule> rules() {
        List<Rule> all = new ArrayList<>(IoRules.all());
        all.addAll(IoFactRules.all());
        return all;
    }

    @Override
    public Class<IoRun> runType() {
        return IoRun.class;
    }

    /** Module 1's facts from the run before this one where there was one (the report reads them once), else read now. */
    @Override
    public IoRun run(DrillContext c, Options o) {
        MachineFacts machine = c.earlier().run(MachineRun.class).map(MachineRun::facts).orElseGet(() -> MachineReader.read(c.fs()));
        return run(c.fs(), machine, c.cases().pick(tests()), o, c.progress(), c.load(), c.files());
    }

    public static List<TestCase<IoTarget>> tests() {
        List<TestCase<IoTarget>> t = new ArrayList<>(ReadTest.all());
        t.addAll(WriteTest.all());
        return t;
    }

    /** Where and what to read; null fields take the defaults. */
    public record Options(Path dir, Long size, Path file, Long sampleMs) {}

    /**
     * The storage and network facts of the folders that matter: --dir (or --file's folder) when
     * given, else the working folder, $HOME, /tmp and the default test folder. {@code host}: the
     * machine's facts of the same root, read with Module 1's.
     */
    public static IoFacts facts(FsRoot fs, Host host, Options o) {
        List<Path> dirs = new ArrayList<>();
        if (o.file() != null) dirs.add(o.file().toAbsolutePath().getParent());
        if (o.dir() != null) dirs.add(o.dir());
        if (dirs.isEmpty()) {
            dirs.addAll(IoFactsReader.defaultDataDirs());
            dirs.add(fs.isLive() ? TestFile.defaultDir() : Path.of("/var/tmp"));
        }
        return IoFactsReader.read(fs, host, dirs.stream().map(Path::toAbsolutePath).distinct().toList());
    }

    /** The NUMA node of each GPU (null where the kernel says -1), for the locality findings. */
    static List<Integer> gpuNumaNodes(MachineFacts machine) {
        List<Integer> nodes = new ArrayList<>();
        for (PciDevice g : machine.gpus()) nodes.add(g.numaNode());
        return nodes;
    }

    /**
     * The facts, then the cases against the test file (or --file), judged. {@code machineFacts}: Module
     * 1's, for the GPUs' NUMA nodes. {@code window}: the machine's load, read over the facts and
     * closed before the test file is written ({@link LoadWindow#NONE} where not read): a busy one
     * makes the measured findings unknown.
     */
    static IoRun run(FsRoot fs, MachineFacts machineFacts, List<TestCase<IoTarget>> tests, Options o,
                     ProgressSink progress, LoadWindow window) {
        return run(fs, machineFacts, tests, o, progress, window, TestFiles.OWN);
    }

    /** ... with the test file lent by {@code files}: a report's drills share one. */
    static IoRun run(FsRoot fs, MachineFacts machineFacts, List<TestCase<IoTarget>> tests, Options o,
                     ProgressSink progress, LoadWindow window, TestFiles files) {
        Host machine = machineFacts.host();
        IoFacts facts = facts(fs, machine, o);
        MachineLoad load = window.close(); // before the test file is written: its writeback is others' work
        List<Finding> findings = IoVerdicts.of(facts, gpuNumaNodes(machineFacts));
        try (LiveTarget live = new LiveTarget(fs, o, tests, progress, files, facts)) {
            List<Result> results = Runner.run(fs, tests, live, progress);
            if (tests.isEmpty()) return new IoRun(machine, facts, findings, null, results, List.of());
            boolean inMemory = live.used() != null && IoTarget.inMemory(live.used().filesystem());
            return new IoRun(machine, facts, live.findings(findings), live.used(), results, Unsettled.adding(MeasuredVerdicts.of(results, inMemory, where(live.used()), load),
                    IoRules.UNSETTLED, results, where(live.used()), MachineLoad.busyReasons(load)));
        }
    }

    /** What the measured findings are about: the folder of the file read, where the writes went too and checkpoints live. */
    static String where(IoRun.FileUsed f) {
        if (f == null) return "storage";
        Path parent = Path.of(f.path()).getParent();
        return parent == null ? f.path() : parent.toString();
    }

    /**
     * The test file: {@link #DEFAULT_FILE}, cut to a quarter of available memory (the warm reads must fit in the
     * page cache) and to half the disk's room beyond the margin kept free.
     */
    static long defaultSize(long availableMemory, long usableDisk) {
        return TestFile.fittedSize(DEFAULT_FILE, MIN_FILE, availableMemory / 4, usableDisk);
    }

    public static List<Result> notRun(List<? extends TestCase<?>> tests, String why) {
        return Runner.notRun(tests, why);
    }
}
