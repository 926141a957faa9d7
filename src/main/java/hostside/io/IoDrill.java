package hostside.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import hostside.core.BadInputException;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
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
import hostside.io.uring.IoUring;
import hostside.libc.Libc;

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
    static List<Integer> gpuNumaNodes(FsRoot fs) {
        List<Integer> nodes = new ArrayList<>();
        for (hostside.machine.PciDevice g : hostside.machine.MachineReader.read(fs).gpus()) nodes.add(g.numaNode());
        return nodes;
    }

    public static IoRun run(FsRoot fs, List<TestCase<IoTarget>> tests, Options o, hostside.harness.ProgressSink progress) {
        hostside.machine.Host machine = hostside.machine.Host.read(fs);
        IoFacts facts = facts(fs, o);
        List<hostside.core.Finding> findings = IoVerdicts.of(facts, gpuNumaNodes(fs));
        if (!fs.isLive()) return new IoRun(machine, facts, findings, null, notRun(tests, hostside.harness.Runner.RECORDED), List.of());
        if (!Libc.available()) return new IoRun(machine, facts, findings, null, notRun(tests, "libc could not be called on this system"), List.of());
        if (tests.isEmpty()) return new IoRun(machine, facts, findings, null, List.of(), List.of());
        // a container's memory cgroup, not the host's MemAvailable: the warm reads must fit in its page cache
        long available = hostside.container.AvailableMemory.read(fs).orElse(4L << 30);
        long sampleNanos = (o.sampleMs() == null ? DEFAULT_SAMPLE_MS : o.sampleMs()) * 1_000_000L;
        if (o.file() != null) {
            Path f = o.file();
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) throw new BadInputException(f + ": not a readable file (--file)");
            long bytes = size(f);
            if (bytes < MIN_FILE) throw new BadInputException(f + ": " + hostside.core.Units.bytes(bytes) + ", too small to measure (at least 64 MiB) (--file)");
            Path dir = o.dir() != null ? o.dir() : f.toAbsolutePath().getParent();
            List<TestCase<IoTarget>> reads = tests.stream().filter(t -> t instanceof ReadTest).toList();
            boolean writes = reads.size() < tests.size();
            if (writes) {
                TestFile.probeWritable(dir);
                findings = withStaleNote(findings, dir);
            }
            IoTarget target = new IoTarget(dir, fileSystem(f, "--file"), () -> f, bytes, Math.min(MAX_WRITE, Math.min(bytes, available / 4)),
                    Libc.pageSize(), sampleNanos, IoUring.unavailableReason());
            List<Result> results = Runner.run(tests, target, progress);
            return new IoRun(machine, facts, findings, new IoRun.FileUsed(f.toString(), bytes, target.dirFilesystem(), false), results,
                    MeasuredVerdicts.of(results));
        }
        Path dir = o.dir() != null ? o.dir() : defaultDir();
        String type = fileSystem(dir, "--dir");
        findings = withStaleNote(findings, dir); // first: a dead run's file takes room the default size is cut to
        long size = o.size() != null ? o.size() : defaultSize(available, TestFile.usableSpace(dir));
        if (size < MIN_FILE) throw new BadInputException("--size " + size + ": at least 64 MiB");
        size = size / (1 << 20) * (1 << 20);
        try (TestFile.Lazy lazy = new TestFile.Lazy(dir, "io", size)) {
            progress.step("writing the " + hostside.core.Units.bytes(size) + " test file");
            Supplier<Path> path = () -> lazy.get().path();
            path.get(); // bad --dir or a full disk: said now, before anything runs
            IoTarget target = new IoTarget(dir, type, path, size, Math.min(MAX_WRITE, Math.min(size, available / 4)), Libc.pageSize(),
                    sampleNanos, IoUring.unavailableReason());
            List<Result> results = Runner.run(tests, target, progress);
            return new IoRun(machine, facts, findings, new IoRun.FileUsed(path.get().toString(), size, type, true), results,
                    MeasuredVerdicts.of(results));
        }
    }

    /**
     * A killed run's test files in {@code dir} removed before this run writes there, said on
     * stderr and kept among the findings.
     */
    static List<hostside.core.Finding> withStaleNote(List<hostside.core.Finding> findings, Path dir) {
        var note = hostside.harness.StaleTestFiles.sweep(dir, line -> System.err.println("hostside: " + line));
        if (note.isEmpty()) return findings;
        List<hostside.core.Finding> all = new ArrayList<>(findings);
        all.add(hostside.core.Finding.info("test files", note.get()));
        return all;
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
        return tests.stream().map(t -> Result.notRun(t, why)).toList();
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            throw new BadInputException(f + ": cannot read its size (" + e.getMessage() + ")");
        }
    }

    private static String fileSystem(Path p, String option) {
        try {
            return Files.getFileStore(p).type();
        } catch (IOException e) {
            throw new BadInputException(p + ": " + (Files.exists(p) ? "cannot be used (" + e.getMessage() + ")" : "no such file or folder") + " (" + option + ")");
        }
    }

    /** /var/tmp is on disk on most distributions, where /tmp is often tmpfs. */
    public static Path defaultDir() {
        Path varTmp = Path.of("/var/tmp");
        if (Files.isDirectory(varTmp) && Files.isWritable(varTmp)) return varTmp;
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
