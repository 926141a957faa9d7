package hostside.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import hostside.container.AvailableMemory;
import hostside.core.BadInputException;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Printable;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.fs.FsRoot;
import hostside.harness.DrillTarget;
import hostside.harness.ProgressSink;
import hostside.harness.StaleTestFiles;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;
import hostside.io.facts.IoFactRules;
import hostside.io.facts.IoFacts;
import hostside.io.measure.DiskRequests;
import hostside.io.measure.HugePage;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.uring.IoUring;
import hostside.libc.Libc;

/**
 * What the measurements of a live run read and write, made only when the harness asks for it
 * ({@link hostside.harness.Runner#run(FsRoot, List, DrillTarget, ProgressSink)} never does on a
 * recording): --dir and --file checked, a killed run's files swept, the test file written. Closing
 * it removes the test file.
 */
final class LiveTarget implements DrillTarget<IoTarget> {
    private final FsRoot fs;
    private final IoFacts facts;
    private final IoDrill.Options o;
    private final List<TestCase<IoTarget>> tests;
    private final ProgressSink progress;
    private final TestFiles files;
    private final List<Finding> notes = new ArrayList<>();
    private TestFile.Lazy lazy;
    private IoRun.FileUsed used;

    /** {@code files}: where the test file comes from, this drill's own or a report's shared one. */
    LiveTarget(FsRoot fs, IoDrill.Options o, List<TestCase<IoTarget>> tests, ProgressSink progress, TestFiles files, IoFacts facts) {
        this.facts = facts;
        this.fs = fs;
        this.o = o;
        this.tests = tests;
        this.progress = progress;
        this.files = files;
    }

    /** The file read, or null when nothing was made. */
    IoRun.FileUsed used() {
        return used;
    }

    /** {@code findings} and what making the target found (a dead run's files removed). */
    List<Finding> findings(List<Finding> findings) {
        List<Finding> all = new ArrayList<>(findings);
        all.addAll(notes);
        return List.copyOf(all);
    }

    @Override
    public IoTarget make() {
        // a container's memory cgroup, not the host's MemAvailable: the warm reads must fit in its page cache
        long available = AvailableMemory.read(fs).orElse(4L << 30);
        long sampleNanos = (o.sampleMs() == null ? IoDrill.DEFAULT_SAMPLE_MS : o.sampleMs()) * 1_000_000L;
        return o.file() != null ? usersFile(o.file(), available, sampleNanos) : testFile(available, sampleNanos);
    }

    /** --file: read as it is, never changed; the writes go to --dir or its folder. */
    private IoTarget usersFile(Path f, long available, long sampleNanos) {
        if (!Files.isRegularFile(f) || !Files.isReadable(f)) throw new BadInputException(f + ": not a readable file (--file)");
        long bytes = size(f);
        if (bytes < IoDrill.MIN_FILE) throw new BadInputException(f + ": " + Units.bytes(bytes) + ", too small to measure (at least 64 MiB) (--file)");
        Path dir = o.dir() != null ? o.dir() : f.toAbsolutePath().getParent();
        if (tests.stream().anyMatch(t -> !(t instanceof ReadTest))) {
            TestFile.probeWritable(dir);
            sweep(dir);
        }
        IoTarget target = new IoTarget(dir, fileSystem(f, "--file"), () -> f, bytes, writeBytes(bytes, available), Libc.pageSize(), sampleNanos,
                IoUring.unavailableReason(), diskOf(f.toAbsolutePath().getParent()), HugePage.read(fs).orElse(null));
        used = new IoRun.FileUsed(f.toAbsolutePath().toString(), bytes, target.dirFilesystem(), false); // absolute: its folder is the figures' scope
        return target;
    }

    /** hostside's own test file in --dir, written now so that a bad folder or a full disk is said before anything runs. */
    private IoTarget testFile(long available, long sampleNanos) {
        Path dir = o.dir() != null ? o.dir() : TestFile.defaultDir();
        String type = fileSystem(dir, "--dir");
        sweep(dir); // first: a dead run's file takes room the default size is cut to
        // a report's file already in dir (Module 2's) is grown, not written beside: its bytes count as room
        long size = o.size() != null ? o.size() : IoDrill.defaultSize(available, TestFile.usableSpace(dir) + files.heldIn(dir));
        if (size < IoDrill.MIN_FILE) throw new BadInputException("--size " + size + ": at least 64 MiB");
        size = size / (1 << 20) * (1 << 20);
        lazy = files.lend(dir, "io", size);
        long held = files.heldIn(dir);
        progress.step(held == 0 ? "writing the " + Units.bytes(size) + " test file"
                : held >= size ? "reading the first " + Units.bytes(size) + " of the report's test file"
                : "writing the report's test file on to " + Units.bytes(size));
        Supplier<Path> path = () -> lazy.get().path();
        used = new IoRun.FileUsed(path.get().toString(), size, type, true);
        return new IoTarget(dir, type, path, size, writeBytes(size, available), Libc.pageSize(), sampleNanos, IoUring.unavailableReason(),
                diskOf(dir), HugePage.read(fs).orElse(null));
    }

    /** The one disk the facts found behind {@code folder}, whose requests the O_DIRECT reads count; null when not one. */
    private DiskRequests diskOf(Path folder) {
        if (facts == null || folder == null) return null;
        String asked = folder.toString(), absolute = folder.toAbsolutePath().toString();
        return facts.dataDirs().stream().filter(d -> asked.equals(d.path()) || absolute.equals(d.path())).findFirst()
                .flatMap(d -> DiskRequests.of(fs, d.disks(), this::maxSegments)).orElse(null);
    }

    /** A disk's queue/max_segments as the facts read it; null when they did not. */
    private Long maxSegments(String disk) {
        return facts.blockDevices().stream().filter(b -> b.name().equals(disk) && b.queue() != null).map(b -> b.queue().maxSegments())
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** Each write sample: the file's size, cut to {@link IoDrill#MAX_WRITE} and to a quarter of available memory. */
    private static long writeBytes(long fileBytes, long available) {
        return Math.min(IoDrill.MAX_WRITE, Math.min(fileBytes, available / 4));
    }

    /** A killed run's test files in {@code dir} removed before this run writes there, said on stderr and kept among the findings. */
    private void sweep(Path dir) {
        StaleTestFiles.sweep(dir, line -> System.err.println("hostside: " + Printable.of(line)))
                .ifPresent(note -> notes.add(IoFactRules.STALE_TEST_FILES.finding(Severity.INFO, "test files", note,
                        Evidence.fact(dir.toString(), "test files of a killed run removed"))));
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

    @Override
    public void close() {
        if (lazy != null) lazy.close();
    }
}
