package hostside.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.fs.FsRoot;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.io.facts.IoFacts;
import hostside.io.facts.IoFactsReader;
import hostside.io.facts.IoVerdicts;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
import hostside.libc.Libc;
import hostside.machine.Host;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.machine.PciDevice;
import hostside.process.MachineLoad;

/**
 * Module 4's I/O drill: a checkpoint-sized file read sequentially and at random, through the
 * page cache cold and warm and around it with O_DIRECT, one request at a time and 32 in flight
 * with io_uring; then written with and without fsync.
 */
public final class IoDrill {
    public static final long DEFAULT_FILE = 2L << 30, MIN_FILE = 64L << 20, MAX_WRITE = 1L << 30;
    public static final long DEFAULT_SAMPLE_MS = 1000;

    private IoDrill() {}

    public static List<TestCase<IoTarget>> tests() {
        List<TestCase<IoTarget>> t = new ArrayList<>(ReadTest.all());
        t.addAll(WriteTest.all());
        return t;
    }

    /** Where and what to read; null fields take the defaults. */
    public record Options(Path dir, Long size, Path file, Long sampleMs) {}

    /**
     * The storage and network facts of the folders that matter: --dir (or --file's folder) when
     * given, else the working folder, $HOME, /tmp and the default test folder.
     */
    public static IoFacts facts(FsRoot fs, Options o) {
        List<Path> dirs = new ArrayList<>();
        if (o.file() != null) dirs.add(o.file().toAbsolutePath().getParent());
        if (o.dir() != null) dirs.add(o.dir());
        if (dirs.isEmpty()) {
            dirs.addAll(IoFactsReader.defaultDataDirs());
            dirs.add(fs.isLive() ? defaultDir() : Path.of("/var/tmp"));
        }
        return IoFactsReader.read(fs, dirs.stream().map(Path::toAbsolutePath).distinct().toList());
    }

    /** The NUMA node of each GPU (null where the kernel says -1), for the locality findings. */
    static List<Integer> gpuNumaNodes(MachineFacts machine) {
        List<Integer> nodes = new ArrayList<>();
        for (PciDevice g : machine.gpus()) nodes.add(g.numaNode());
        return nodes;
    }

    public static IoRun run(FsRoot fs, List<TestCase<IoTarget>> tests, Options o, ProgressSink progress, MachineLoad load) {
        return run(fs, MachineReader.read(fs), tests, o, progress, load);
    }

    /**
     * ... with Module 1's facts already read (the report reads them once for every drill). {@code
     * load}: the machine's as the drill began (null where not read): a busy one makes the measured
     * findings unknown.
     */
    public static IoRun run(FsRoot fs, MachineFacts machineFacts, List<TestCase<IoTarget>> tests, Options o,
                            ProgressSink progress, MachineLoad load) {
        Host machine = machineFacts.host();
        IoFacts facts = facts(fs, o);
        List<Finding> findings = IoVerdicts.of(facts, gpuNumaNodes(machineFacts));
        if (fs.isLive() && !Libc.available()) return new IoRun(machine, facts, findings, null, notRun(tests, "libc could not be called on this system"), List.of());
        if (tests.isEmpty()) return new IoRun(machine, facts, findings, null, List.of(), List.of());
        try (LiveTarget live = new LiveTarget(fs, o, tests, progress)) {
            List<Result> results = Runner.run(fs, tests, live::target, progress);
            boolean inMemory = live.used() != null && IoTarget.inMemory(live.used().filesystem());
            return new IoRun(machine, facts, live.findings(findings), live.used(), results, MeasuredVerdicts.of(results, inMemory, where(live.used()), load));
        }
    }

    /** What the measured findings are about: the folder of the file read, where the writes went too and checkpoints live. */
    static String where(IoRun.FileUsed f) {
        if (f == null) return "storage";
        Path parent = Path.of(f.path()).getParent();
        return parent == null ? f.path() : parent.toString();
    }

    /**
     * The test file: 2 GiB, cut to a quarter of available memory (the warm reads must fit in the
     * page cache) and to half the disk's room beyond the margin kept free.
     */
    static long defaultSize(long availableMemory, long usableDisk) {
        long room = Math.max(0, usableDisk - TestFile.MARGIN) / 2;
        return Math.max(MIN_FILE, Math.min(DEFAULT_FILE, Math.min(availableMemory / 4, room)) & ~((1L << 20) - 1));
    }

    public static List<Result> notRun(List<? extends TestCase<?>> tests, String why) {
        return Runner.notRun(tests, why);
    }

    /** /var/tmp is on disk on most distributions, where /tmp is often tmpfs. */
    public static Path defaultDir() {
        Path varTmp = Path.of("/var/tmp");
        if (Files.isDirectory(varTmp) && Files.isWritable(varTmp)) return varTmp;
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
