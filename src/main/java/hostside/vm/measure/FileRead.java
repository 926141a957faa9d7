package hostside.vm.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;
import hostside.libc.Libc;

/**
 * One file read end to end, by read(2) into a buffer or through an mmap copied out of the
 * mapping: the same bytes reach the same buffer, so what differs is how the kernel hands them
 * over (a copy per syscall vs a page fault per mapped page or fault-around window). Cold: the
 * file's pages are dropped from the page cache first with posix_fadvise(DONTNEED) (no root, and
 * only this file), and mincore says how much really left. Warm: the file is cached, its pages
 * dropped and read once in order before the samples (the page cache as a sequential read leaves it).
 */
public record FileRead(boolean mmap, boolean cold) implements TestCase<HostTarget> {
    static final int CHUNK = 1 << 20;
    static final int COLD_SAMPLES = 3, WARM_SAMPLES = 5;
    /**
     * What a cold sample reads: the file's first {@link TestFiles#COLD_SAMPLE_BYTES} at most, as io's
     * cold sequential sample does. Three cold passes over the whole 1 GiB took 2.0-2.3 s of each cold
     * case in an H100 VM's report, 0.6 s at 256 MiB (docs/measurements/2026-12-08-minute-cuts.md). The
     * warm cases read the whole file: 256 MiB of page cache may sit in a large last-level cache (the
     * H200 VM's is 300 MiB) and a warm read of it would time the cache, not memory.
     */
    static final long COLD_BYTES = TestFiles.COLD_SAMPLE_BYTES;

    public String key() {
        return "file_" + (mmap ? "mmap" : "read") + "_" + (cold ? "cold" : "warm");
    }

    public String description() {
        return (mmap ? "mmap of the test file, copied out of the mapping" : "read() of the test file in 1 MiB calls")
                + (cold ? ", page cache dropped first (cold)" : ", file in the page cache (warm)");
    }

    public java.util.Optional<String> notApplicable(HostTarget t) {
        if (cold && t.dirInMemory()) {
            return java.util.Optional.of(t.dir() + " is on " + t.dirFilesystem() + ": its files live in memory, so nothing can be read cold (use --dir on a disk)");
        }
        return java.util.Optional.empty();
    }

    /**
     * What a file read measured beside its figure (JSON names as hostside/1 wrote them).
     *
     * @param fileBytes              the test file's size
     * @param file                   the test file (removed afterwards); its folder is the figure's scope
     * @param minorFaults            this thread's minor faults in one pass, median of the samples
     * @param majorFaults            the same, major faults (a page read from disk under a fault)
     * @param faultsPerMiB           minor + major per MiB read: what the mapping cost the kernel
     * @param residentAtStartPercent cold only (null warm): the most of what a sample reads that eviction left cached, by mincore; ~0 for a true cold read
     * @param readBytes              what each sample read from the file's start ({@link #COLD_BYTES} at most cold, the whole file warm);
     *                               null in a report from before a cold sample read less than the file
     */
    public record FileDetail(long fileBytes, String file, long minorFaults, long majorFaults, double faultsPerMiB,
                             Double residentAtStartPercent, Long readBytes) implements Detail {
        /** The folder the file was in: where the figure was measured (derived, so no key of its own). */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public Path dir() {
            Path parent = Path.of(file).toAbsolutePath().getParent();
            return parent == null ? Path.of("/") : parent;
        }
    }

    @Override
    public Class<FileDetail> detailType() {
        return FileDetail.class;
    }

    /** What one pass did: its time and this thread's faults. */
    record Pass(double seconds, Libc.Usage faults) {}

    public Result run(HostTarget t) {
        TestFile file = t.file().get();
        // the bytes this drill asked for, from the start of the file: a report's shared file may be longer;
        // a cold sample reads the first COLD_BYTES of them
        long fileBytes = t.file().bytes(), bytes = cold ? Math.min(fileBytes, COLD_BYTES) : fileBytes;
        // cold: each sample evicts the file first; warm: a warm-up first drops the file's pages and
        // reads it once in order by read(2), then (mmap) passes once through the mapping. The page
        // cache then holds the file as a sequential read leaves it, in the folios readahead makes,
        // whatever case ran before, as io's warm reads and the bench's fio jobs (pre_read, or read in
        // order first) find it; without the drop the warm cases read what file_mmap_cold's faults had
        // left. Inside the report the mapped read came 1.16-1.20x fio's mmap job on the H200 and H100
        // VMs, 0.75-1.04x beside it alone; on the dev VM this warm-up changed neither warm figure
        // (docs/measurements/2026-12-07-h100-night.md).
        Sampling sampling = new Sampling(cold ? 0 : 1, cold ? COLD_SAMPLES : WARM_SAMPLES);
        double[] maxResident = {0};
        List<Pass> passes;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(CHUNK, 4096);
            buffer.fill((byte) 1); // the destination is touched once here, not inside the timing
            passes = sampling.each(i -> {
                if (cold) maxResident[0] = Math.max(maxResident[0], evict(file, bytes, t.pageSize()));
                if (i < 0) {
                    evict(file, bytes, t.pageSize());
                    Pass inOrder = pass(file, bytes, buffer, false);
                    if (!mmap) return inOrder;
                }
                return pass(file, bytes, buffer, mmap);
            });
        }
        double[] gbs = passes.stream().mapToDouble(p -> bytes / p.seconds() / 1e9).toArray();
        long minor = median(passes.stream().mapToLong(p -> p.faults().minorFaults()).toArray());
        long major = median(passes.stream().mapToLong(p -> p.faults().majorFaults()).toArray());
        double mib = bytes / (double) (1 << 20);
        FileDetail d = new FileDetail(fileBytes, file.path().toString(), minor, major, (minor + major) / mib,
                cold ? maxResident[0] * 100 : null, bytes);
        String warmUp = cold ? (bytes < fileBytes ? "; each sample reads the file's first " + Units.bytes(bytes) + " of " + Units.bytes(fileBytes) : "")
                : "; the file's pages dropped then read once in order before the samples (the page cache as a sequential read leaves it)";
        return Result.ok(this, Unit.GB_PER_S, Stats.of(gbs), (mmap
                ? "mmap(MAP_PRIVATE) + 1 MiB copies out of the mapping, host clock; faults from getrusage(RUSAGE_THREAD)"
                : "read(2) in 1 MiB calls, host clock; faults from getrusage(RUSAGE_THREAD)") + warmUp, fio(fileBytes, bytes), d);
    }

    /**
     * fio's job for the same read of a file this size: one sequential pass in 1 MiB blocks, by pread
     * (psync) or copied out of a mapping (fio's mmap engine does a memcpy per block, as this does);
     * invalidate=1 drops the file's cached pages first as the cold case does, invalidate=0 reads it
     * cached (after a first pass). The pread job reads into an anonymous mapping, as this case's
     * buffer is one (a 1 MiB allocation is glibc's mmap), with no readahead hint, as this case gives
     * none: fio's own malloc'd buffer read the cached file at half the rate on the dev VM (5.2-7.9
     * GB/s by the job without --iomem=mmap, 12.2-17.5 with it, this case 16.8-17.0, 2026-12-07), and
     * fio's default fadvise_hint asks for sequential readahead; io's jobs carry the same options
     * (io.measure.ReadTest). The mmap job is as before: it read within 10% of this case's mapping.
     */
    String fio(long fileBytes, long readBytes) {
        String engine = mmap ? "--ioengine=mmap" : "--ioengine=psync --fadvise_hint=0 --iomem=mmap" + (cold ? "" : " --pre_read=1");
        // --io_size: the job reads the first readBytes of a file of --size, as each cold sample does
        return "fio --rw=read --bs=1M " + engine + " --invalidate=" + (cold ? 1 : 0) + " --size=" + fioSize(fileBytes)
                + (readBytes < fileBytes ? " --io_size=" + fioSize(readBytes) : "");
    }

    /** fio's size suffixes are binary by default (kb_base=1024): 1g is 1 GiB. */
    static String fioSize(long bytes) {
        if (bytes > 0 && bytes % (1L << 30) == 0) return (bytes >> 30) + "g";
        if (bytes > 0 && bytes % (1L << 20) == 0) return (bytes >> 20) + "m";
        return Long.toString(bytes);
    }

    /** One pass over the first {@code bytes} of the file, through a mapping ({@code mapped}) or by read(2). */
    private static Pass pass(TestFile file, long bytes, MemorySegment buffer, boolean mapped) {
        int fd = Libc.open(file.path().toString(), Libc.O_RDONLY);
        try {
            Libc.Usage before = Libc.threadUsage();
            long t0 = System.nanoTime();
            if (mapped) {
                MemorySegment map = Libc.mmap(bytes, Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
                try {
                    for (long off = 0; off < bytes; off += CHUNK) {
                        long n = Math.min(CHUNK, bytes - off);
                        MemorySegment.copy(map, off, buffer, 0, n);
                    }
                } finally {
                    Libc.munmap(map);
                }
            } else {
                long total = 0;
                while (total < bytes) {
                    long n = Libc.read(fd, buffer, Math.min(CHUNK, bytes - total));
                    if (n == 0) break;
                    total += n;
                }
                if (total != bytes) throw new IllegalStateException(file.path() + " shrank while being read: " + total + " bytes");
            }
            long ns = System.nanoTime() - t0;
            Libc.Usage after = Libc.threadUsage();
            return new Pass(ns / 1e9, after.minus(before));
        } finally {
            Libc.close(fd);
        }
    }

    /** Drops the file's pages; returns the share of its first {@code bytes} still resident afterwards (0..1), by mincore. */
    static double evict(TestFile file, long bytes, long pageSize) {
        int fd = Libc.open(file.path().toString(), Libc.O_RDONLY);
        try {
            Libc.fadvise(fd, Libc.POSIX_FADV_DONTNEED);
            MemorySegment map = Libc.mmap(bytes, Libc.PROT_READ, Libc.MAP_PRIVATE, fd, 0);
            try {
                long pages = (bytes + pageSize - 1) / pageSize;
                return Libc.residentPages(map, pageSize) / (double) pages;
            } finally {
                Libc.munmap(map);
            }
        } finally {
            Libc.close(fd);
        }
    }

    static long median(long[] v) {
        long[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
